package tui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/tools"
)

// TestShellLinesContext: `!` commands run before a message reach the model
// as one context block behind one chip, in the order they ran, and a
// command the sandbox may have refused says so on its card and to the
// model.
func TestShellLinesContext(t *testing.T) {
	t.Parallel()
	const note = "note: this command ran in tern's sandbox, which allows writes only inside the workspace"
	for _, tc := range []struct {
		name      string
		commands  []string
		chip      string
		wantSent  []string
		sandboxed bool
	}{
		{"one command", []string{"ls"}, "shell output", []string{"I ran `ls` (exit code 0)"}, false},
		{"three commands", []string{"ls", "pwd", "git status"}, "shell output of 3 commands",
			[]string{"I ran 3 commands, in this order:", "1. `ls` (exit code 0)", "2. `pwd` (exit code 0)", "3. `git status` (exit code 0)"}, false},
		{"refused by the sandbox", []string{"touch /etc/x"}, "shell output",
			[]string{"I ran `touch /etc/x` (exit code 1)", "Permission denied", note}, true},
		{"refused among others", []string{"ls", "touch /etc/x"}, "shell output of 2 commands",
			[]string{"2. `touch /etc/x` (exit code 1)", note}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			shell := func(_ context.Context, cmd string, out func(string, bool)) (int, error) {
				if strings.HasPrefix(cmd, "touch /etc") {
					out("touch: cannot touch '/etc/x': Permission denied\n", true)
					return 1, &app.SandboxRefused{Note: note}
				}
				out("out of "+cmd+"\n", false)
				return 0, nil
			}
			m, fb := newTestModel(t, Options{}, func(f *fakeBackend) { f.shell = shell })
			for _, c := range tc.commands {
				typeText(m, "!"+c)
				stepWait(m, keyEnter, time.Second) // the command runs in a command of its own
			}
			s := screen(m)
			if got := strings.Contains(s, "⊘ sandboxed"); got != tc.sandboxed {
				t.Errorf("card marked sandboxed: %v, want %v:\n%s", got, tc.sandboxed, s)
			}
			if tc.sandboxed && (!strings.Contains(s, "exit 1") || strings.Contains(s, note)) {
				t.Errorf("the refused command's card should show its exit and a short mark, not the model's note:\n%s", s)
			}
			typeText(m, "what now?")
			press(m, keyEnter)
			sent := fb.sent()
			if len(sent) != 1 {
				t.Fatalf("sent %q", sent)
			}
			for _, want := range tc.wantSent {
				if !strings.Contains(sent[0], want) {
					t.Errorf("the model did not get %q:\n%s", want, sent[0])
				}
			}
			if n := strings.Count(sent[0], "I ran"); n != 1 {
				t.Errorf("%d context blocks, want one:\n%s", n, sent[0])
			}
			s = screen(m)
			if n := strings.Count(s, "shell output"); n != 1 || !strings.Contains(s, tc.chip) {
				t.Errorf("%d shell chips, want one %q:\n%s", n, tc.chip, s)
			}
		})
	}
}

// TestRunShellCardSandboxed: the model's run_shell card is marked when the
// sandbox may have refused part of the command, and only then.
func TestRunShellCardSandboxed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		sandboxed bool
	}{
		{"refused", true},
		{"a plain failure", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, _ := newTestModel(t, Options{})
			startTurn(m)
			call := &agent.Call{ID: "c1", Name: "run_shell", Args: json.RawMessage(`{"command":"touch /etc/x"}`)}
			events(m,
				agent.Event{Kind: agent.EventToolCallStarted, Call: call},
				agent.Event{Kind: agent.EventToolRunning, Call: call},
				agent.Event{Kind: agent.EventToolOutput, Call: call, Text: "touch: cannot touch '/etc/x': Permission denied\n"},
				agent.Event{Kind: agent.EventToolFinished, Call: call, Result: &agent.ToolResult{Status: tools.StatusOK,
					Output: "touch: cannot touch '/etc/x': Permission denied\nexit code: 1", Summary: "exit 1", ExitCode: 1, Sandboxed: tc.sandboxed}})
			if got := strings.Contains(screen(m), "⊘ sandboxed"); got != tc.sandboxed {
				t.Errorf("marked %v, want %v:\n%s", got, tc.sandboxed, screen(m))
			}
		})
	}
}
