package main

import (
	"net/http"
	"os/exec"
	"strings"
	"testing"
)

// TestTmuxSuspend runs tern from an interactive bash: ctrl+z gives the
// terminal back to the shell (its prompt shows, tern is a stopped job) and
// `fg` brings tern back with its screen redrawn and the draft kept.
func TestTmuxSuspend(t *testing.T) {
	t.Parallel()
	s := ternInBash(t, "")
	s.typeText("a draft to keep")
	s.waitText(tmuxTimeout, "› a draft to keep")

	s.keys("C-z")
	scr := s.waitText(tmuxTimeout, "Stopped", "SHELL-PROMPT$")
	if strings.Contains(scr, tmuxModel) {
		t.Errorf("tern's screen is still up after ctrl+z:\n%s", scr)
	}
	// The shell has the terminal: what is typed reaches it.
	s.typeText("echo shell-$((40+2))")
	s.keys("Enter")
	s.waitText(tmuxTimeout, "shell-42")

	s.typeText("fg")
	s.keys("Enter")
	scr = s.waitText(tmuxTimeout, "◆ tern", "› a draft to keep", tmuxModel)
	if strings.Contains(scr, "shell-42") {
		t.Errorf("after fg the shell's lines show through tern's screen:\n%s", scr)
	}
	// tern reads keys again.
	s.typeText(" and more")
	s.waitText(tmuxTimeout, "› a draft to keep and more")
	s.keys("C-c", "C-c", "C-c")
	s.waitText(tmuxTimeout, "SHELL-PROMPT$ fg")
}

// ternInBash starts tern from an interactive bash (prompt SHELL-PROMPT$)
// in tmux, with before typed ahead of it on the command line, against a
// gateway that answers nothing, and waits for its input; the test skips
// without tmux or bash.
func ternInBash(t *testing.T, before string) *tmuxServer {
	t.Helper()
	needTmux(t)
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed: no shell with job control to suspend tern from")
	}
	g := newSSEGateway(t, func(s *sse, _ chatRequest, _ *http.Request) { s.finish("stop") })
	env := append(tmuxEnv(t, g.srv.URL), "PS1=SHELL-PROMPT$ ")
	s := startTmux(t, env, t.TempDir(), shellQuote(bash)+" --norc --noprofile -i")
	s.waitText(tmuxTimeout, "SHELL-PROMPT$")
	s.typeText(before + shellQuote(ternBin))
	s.keys("Enter")
	s.waitText(tmuxTimeout, placeholder, tmuxModel)
	return s
}
