package session

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestListKeepsIndexForEmptyAndDamagedLogs checks that a log with no
// message (the session of a tern just started) or a damaged one does not
// make every list rewrite the index: each start of tern would otherwise
// rewrite an index of 10,000 entries when the /resume picker opens.
func TestListKeepsIndexForEmptyAndDamagedLogs(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 3, 4, 10, 0, 0, 0, time.Local)
	tests := []struct {
		name string
		add  func(t *testing.T, home string)
	}{
		{"an empty log", func(t *testing.T, home string) {
			makeSessions(t, home, []fixture{{id: "eeee", workspace: "/w", created: day.Add(time.Hour)}})
		}},
		{"a damaged log", func(t *testing.T, home string) {
			dir := filepath.Join(Dir(home), "2026", "03", "04")
			if err := os.WriteFile(filepath.Join(dir, "110000-dddd.jsonl"), []byte("{not a header\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			makeSessions(t, home, []fixture{{id: "aaaa", workspace: "/w", prompt: "first", created: day, messages: 2}})
			if _, err := List(home); err != nil { // builds the index
				t.Fatal(err)
			}
			before, err := os.Stat(filepath.Join(Dir(home), indexName))
			if err != nil {
				t.Fatal(err)
			}
			tc.add(t, home)
			got, err := List(home)
			if err != nil {
				t.Fatal(err)
			}
			after, err := os.Stat(filepath.Join(Dir(home), indexName))
			if err != nil {
				t.Fatal(err)
			}
			if !os.SameFile(before, after) {
				t.Error("the list after the log appeared rewrote the index")
			}
			if len(got) == 0 || got[len(got)-1].ID != "aaaa" {
				t.Errorf("listed %+v, want aaaa among them", got)
			}
		})
	}
}
