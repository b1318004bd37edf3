package tui

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
)

// TestCopySaysHow checks that /copy inside tmux goes through tmux's buffer
// (OSC 52 may be swallowed there) and that every outcome is told as it was,
// with the text handed to the ways the notice names and no others.
func TestCopySaysHow(t *testing.T) {
	t.Parallel()
	const text = "line one\nline two\n"
	tests := []struct {
		name    string
		tmux    string // $TMUX
		tmuxErr error
		notice  string
		// osc52, viaTmux and tool say which ways get the text.
		osc52, viaTmux, tool bool
	}{
		{name: "outside tmux: OSC 52", notice: "sent the last answer (2 lines) to the terminal via OSC 52 (your terminal must allow it)", osc52: true, tool: true},
		{name: "inside tmux: its buffer", tmux: "/tmp/tmux-1/default,1,0", notice: "copied the last answer (2 lines) via tmux buffer", viaTmux: true},
		{name: "tmux refuses: OSC 52 instead", tmux: "/tmp/tmux-1/default,1,0", tmuxErr: errors.New("exit status 1: no server running"), notice: "tmux did not take it (exit status 1: no server running); sent the last answer (2 lines) to the terminal via OSC 52", osc52: true, viaTmux: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fb := newFakeBackend()
			t.Cleanup(fb.close)
			m := newModel(context.Background(), Options{App: fb, Theme: "dark"}, func(k string) string {
				if k == "TMUX" {
					return tt.tmux
				}
				return ""
			})
			m.clock = func() time.Time { return fixedClock }
			clip := &fakeClipboard{tmuxErr: tt.tmuxErr}
			m.clip = clip.clipboard()
			events(m, agent.Event{Kind: agent.EventTurnStarted}, agent.Event{Kind: agent.EventTextDelta, Text: text},
				agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
			for _, msg := range collectWait(m.runCommand("/copy"), time.Second) {
				stepWait(m, msg, time.Second)
			}
			if m.noticeBad || !strings.Contains(m.notice, tt.notice) {
				t.Fatalf("notice %q, want %q", m.notice, tt.notice)
			}
			osc52, viaTmux, tool := clip.got()
			for _, w := range []struct {
				way  string
				got  []string
				want bool
			}{{"OSC 52", osc52, tt.osc52}, {"tmux", viaTmux, tt.viaTmux}, {"a clipboard program", tool, tt.tool}} {
				var want []string
				if w.want {
					want = []string{text}
				}
				if !slices.Equal(w.got, want) {
					t.Errorf("%s was handed %q, want %q", w.way, w.got, want)
				}
			}
		})
	}
}

// standIns puts executable scripts named for the programs they stand in
// for into a new folder and makes it the whole PATH, so no real program of
// those names runs. It changes the environment, so its tests are not
// parallel.
func standIns(t *testing.T, scripts map[string]string) string {
	t.Helper()
	bin := t.TempDir()
	for name, script := range scripts {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin)
	return bin
}

// TestCopyWithTmuxLoadsItsBuffer checks the command the tmux way runs, and
// that tmux's complaint comes back with its exit status.
func TestCopyWithTmuxLoadsItsBuffer(t *testing.T) {
	bin := standIns(t, map[string]string{"tmux": "#!/bin/sh\necho \"$@\" > \"$0.args\"\n/bin/cat > \"$0.in\"\n"})
	if err := copyWithTmux(context.Background(), "some text\n"); err != nil {
		t.Fatal(err)
	}
	in, err := os.ReadFile(filepath.Join(bin, "tmux.in"))
	args, _ := os.ReadFile(filepath.Join(bin, "tmux.args"))
	if err != nil || string(in) != "some text\n" || strings.TrimSpace(string(args)) != "load-buffer -w -" {
		t.Fatalf("tmux got %q with args %q (%v)", in, args, err)
	}

	standIns(t, map[string]string{"tmux": "#!/bin/sh\necho 'no server running' >&2\nexit 1\n"})
	if err := copyWithTmux(context.Background(), "x"); err == nil || err.Error() != "exit status 1: no server running" {
		t.Fatalf("refused copy: %v, want exit status 1: no server running", err)
	}
}

// TestCopyWithToolTakesTheFirstThatWorks checks that the text goes to the
// first clipboard program that is installed and succeeds, and to no later
// one.
func TestCopyWithToolTakesTheFirstThatWorks(t *testing.T) {
	keep := "#!/bin/sh\necho \"$@\" > \"$0.args\"\n/bin/cat > \"$0.in\"\n"
	bin := standIns(t, map[string]string{
		"wl-copy": "#!/bin/sh\nexit 1\n", // installed, but no Wayland display
		"xsel":    keep,
		"pbcopy":  keep,
	})
	copyWithTool(context.Background(), "some text\n")
	in, err := os.ReadFile(filepath.Join(bin, "xsel.in"))
	args, _ := os.ReadFile(filepath.Join(bin, "xsel.args"))
	if err != nil || string(in) != "some text\n" || strings.TrimSpace(string(args)) != "--clipboard --input" {
		t.Fatalf("xsel got %q with args %q (%v)", in, args, err)
	}
	if _, err := os.Stat(filepath.Join(bin, "pbcopy.in")); err == nil {
		t.Error("pbcopy ran after xsel had taken the text")
	}
}
