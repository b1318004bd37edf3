package tui

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestShellCommandOutputRedacted checks the output of a `!` command goes
// to the model with its credentials redacted, as a tool result does.
func TestShellCommandOutputRedacted(t *testing.T) {
	t.Parallel()
	token := "ghp_" + strings.Repeat("Z8xC6vB4nM", 4)
	shell := func(_ context.Context, _ string, out func(string, bool)) (int, error) {
		out("origin\thttps://me:"+token+"@github.com/o/r (fetch)\n", false)
		out("extraheader = AUTHORIZATION: basic abc\n", false)
		return 0, nil
	}
	m, fb := newTestModel(t, Options{}, func(f *fakeBackend) { f.shell = shell })
	typeText(m, "!git remote -v")
	stepWait(m, keyEnter, time.Second) // the command runs in a command of its own
	typeText(m, "which remote?")
	press(m, keyEnter)
	sent := fb.sent()
	if len(sent) != 1 {
		t.Fatalf("sent %q", sent)
	}
	for _, secret := range []string{token, "basic abc"} {
		if strings.Contains(sent[0], secret) {
			t.Errorf("the model got %q:\n%s", secret, sent[0])
		}
	}
	if !strings.Contains(sent[0], "https://me:[REDACTED password]@github.com/o/r") {
		t.Errorf("the model did not get the redacted remote:\n%s", sent[0])
	}
}
