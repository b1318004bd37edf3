package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
)

// TestCopySaysHow checks that /copy inside tmux goes through tmux's buffer
// (OSC 52 may be swallowed there) and that every outcome is told as it was.
// It puts a stand-in tmux on PATH, so it does not run in parallel.
func TestCopySaysHow(t *testing.T) {
	tests := []struct {
		name   string
		tmux   string // $TMUX
		script string // the stand-in tmux; "" for none
		notice string
		got    string // what the stand-in received
	}{
		{name: "outside tmux: OSC 52", notice: "sent the last answer (2 lines) to the terminal via OSC 52 (your terminal must allow it)"},
		{name: "inside tmux: its buffer", tmux: "/tmp/tmux-1/default,1,0", script: "#!/bin/sh\necho \"$@\" > \"$0.args\"\ncat > \"$0.in\"\n", notice: "copied the last answer (2 lines) via tmux buffer", got: "line one\nline two\n"},
		{name: "tmux refuses: OSC 52 instead", tmux: "/tmp/tmux-1/default,1,0", script: "#!/bin/sh\necho 'no server running' >&2\nexit 1\n", notice: "tmux did not take it (exit status 1: no server running); sent the last answer (2 lines) to the terminal via OSC 52"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bin := t.TempDir()
			stub := filepath.Join(bin, "tmux")
			if tt.script != "" {
				if err := os.WriteFile(stub, []byte(tt.script), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
			fb := newFakeBackend()
			t.Cleanup(fb.close)
			m := newModel(context.Background(), Options{Agent: fb, Theme: "dark"}, func(k string) string {
				if k == "TMUX" {
					return tt.tmux
				}
				return ""
			})
			m.clock = func() time.Time { return fixedClock }
			events(m, agent.Event{Kind: agent.EventTurnStarted}, agent.Event{Kind: agent.EventTextDelta, Text: "line one\nline two\n"},
				agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
			step(m, m.runCommand("/copy")())
			if m.noticeBad || !strings.Contains(m.notice, tt.notice) {
				t.Fatalf("notice %q, want %q", m.notice, tt.notice)
			}
			if tt.got != "" {
				in, err := os.ReadFile(stub + ".in")
				args, _ := os.ReadFile(stub + ".args")
				if err != nil || string(in) != tt.got || strings.TrimSpace(string(args)) != "load-buffer -w -" {
					t.Fatalf("tmux got %q with args %q (%v)", in, args, err)
				}
			}
		})
	}
}
