package session_test

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/session"
)

// TestLatestLogIsLatest checks that LatestLog picks the session Latest
// does: the newest used log of the workspace, empty ones and other
// workspaces' skipped.
func TestLatestLogIsLatest(t *testing.T) {
	t.Parallel()
	type log struct {
		ws      string
		prompts int
		long    bool // a first line longer than the read buffer
	}
	tests := []struct {
		name string
		logs []log // oldest first
		want int   // index of the log chosen; -1: none
	}{
		{name: "newest", logs: []log{{ws: "a", prompts: 1}, {ws: "a", prompts: 2}}, want: 1},
		{name: "empty newest skipped", logs: []log{{ws: "a", prompts: 1}, {ws: "a"}}, want: 0},
		{name: "other workspace skipped", logs: []log{{ws: "a", prompts: 1}, {ws: "b", prompts: 1}}, want: 0},
		{name: "none", logs: []log{{ws: "a"}, {ws: "b", prompts: 1}}, want: -1},
		{name: "long lines first", logs: []log{{ws: "a", prompts: 1}, {ws: "a", prompts: 1, long: true}}, want: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			home, root := t.TempDir(), t.TempDir()
			var paths []string
			for i, l := range tt.logs {
				ws := root + "/" + l.ws
				if err := os.MkdirAll(ws, 0o700); err != nil {
					t.Fatal(err)
				}
				w, err := session.Create(home, session.Header{Workspace: ws, Model: "m"})
				if err != nil {
					t.Fatal(err)
				}
				if l.long {
					if _, err := w.Append(session.ErrorRecord{Kind: "x", Message: strings.Repeat("e", 200<<10)}); err != nil {
						t.Fatal(err)
					}
				}
				for p := range l.prompts {
					if _, err := w.Append(session.UserMessage{Turn: p + 1, Text: "prompt"}); err != nil {
						t.Fatal(err)
					}
				}
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
				used := time.Now().Add(time.Duration(i-len(tt.logs)) * time.Minute)
				if err := os.Chtimes(w.Path(), used, used); err != nil {
					t.Fatal(err)
				}
				paths = append(paths, w.Path())
			}
			ws := root + "/a"
			want, wantErr := session.Latest(home, ws)
			got, err := session.LatestLog(home, ws)
			if tt.want < 0 {
				if !errors.Is(err, session.ErrNotFound) || !errors.Is(wantErr, session.ErrNotFound) {
					t.Fatalf("LatestLog %v, Latest %v: want not found", err, wantErr)
				}
				return
			}
			if err != nil || wantErr != nil {
				t.Fatal(err, wantErr)
			}
			if got.Path != paths[tt.want] || got.Path != want.Path || got.ID != want.ID || got.Problem != want.Problem {
				t.Errorf("LatestLog %s (%q), Latest %s, want %s", got.Path, got.Problem, want.Path, paths[tt.want])
			}
		})
	}
}
