package session

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestListIndex checks that the index beside the logs never shows stale
// facts: a log that grew, a new log, a removed log and a damaged or missing
// index all list exactly what a list without an index would.
func TestListIndex(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 3, 4, 10, 0, 0, 0, time.Local)
	tests := []struct {
		name   string
		change func(t *testing.T, home string, paths []string)
	}{
		{"unchanged", func(*testing.T, string, []string) {}},
		{"a log grew", func(t *testing.T, home string, paths []string) {
			w, err := OpenAppend(paths[0])
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Append(Title{Title: "renamed after indexing"}); err != nil {
				t.Fatal(err)
			}
			if _, err := w.Append(AssistantMessage{Text: "one more"}); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
		}},
		{"a new log", func(t *testing.T, home string, _ []string) {
			makeSessions(t, home, []fixture{{id: "cccc", workspace: "/w", prompt: "third", created: day.Add(2 * time.Hour), messages: 2}})
		}},
		{"a log removed", func(t *testing.T, _ string, paths []string) {
			if err := os.Remove(paths[1]); err != nil {
				t.Fatal(err)
			}
		}},
		{"a damaged index", func(t *testing.T, home string, _ []string) {
			if err := os.WriteFile(filepath.Join(Dir(home), indexName), []byte("not gob"), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"no index", func(t *testing.T, home string, _ []string) {
			if err := os.Remove(filepath.Join(Dir(home), indexName)); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			makeSessions(t, home, []fixture{
				{id: "aaaa", workspace: "/w", prompt: "first", created: day, messages: 3},
				{id: "bbbb", workspace: "/w", prompt: "second", created: day.Add(time.Hour), messages: 1},
			})
			first, err := List(home) // builds the index
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(Dir(home), indexName)); err != nil {
				t.Fatalf("no index after a list: %v", err)
			}
			paths := []string{first[1].Path, first[0].Path} // aaaa, bbbb
			tc.change(t, home, paths)
			got, err := List(home)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(filepath.Join(Dir(home), indexName)); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			want, err := List(home) // read from the logs alone
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("with the index %d sessions, without %d", len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("session %d: with the index %+v, without %+v", i, got[i], want[i])
				}
			}
		})
	}
}
