package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// handoverEditor is an $EDITOR that numbers its runs, says on the screen
// that it reads and whether its standard input is a terminal, and appends
// "[run:stdin:keys]" to the file and to the log next to it, the keys being
// what is typed up to a dot, read one at a time as an editor in raw mode
// does.
const handoverEditor = `#!/bin/sh
dir=$(dirname "$0")
n=$(( $(cat "$dir/runs" 2>/dev/null || echo 0) + 1 ))
echo $n > "$dir/runs"
stdin=notty; [ -t 0 ] && stdin=tty
printf 'EDITOR-%s-READS stdin=%s\n' "$n" "$stdin"
stty -echo -icanon min 1 time 0 2>/dev/null
got=
while c=$(dd bs=1 count=1 2>/dev/null); [ -n "$c" ] && [ "$c" != . ]; do got=$got$c; done
stty sane 2>/dev/null
printf '[%s:%s:%s]' "$n" "$stdin" "$got" | tee -a "$dir/log" >> "$1"
`

// handoverEnv is tmuxEnv with handoverEditor as $EDITOR, and the path of
// the editor's log.
func handoverEnv(t *testing.T, gatewayURL string) ([]string, string) {
	t.Helper()
	dir := t.TempDir()
	ed := filepath.Join(dir, "editor")
	if err := os.WriteFile(ed, []byte(handoverEditor), 0o755); err != nil {
		t.Fatal(err)
	}
	return append(tmuxEnv(t, gatewayURL), "EDITOR="+ed), filepath.Join(dir, "log")
}

// TestTmuxEditorTwice: ctrl+g pressed twice at once runs the editor twice
// on the draft as it was, and each gets the keys typed while it runs
// (which text is kept is not said: both come back once the second exits). tern paused its reading for
// both hand-overs but the first one's end resumed it, so while the second
// editor ran a reader of tern's waited for keys too and took them.
func TestTmuxEditorTwice(t *testing.T) {
	t.Parallel()
	g := newSSEGateway(t, func(s *sse, _ chatRequest, _ *http.Request) { s.finish("stop") })
	needTmux(t)
	env, log := handoverEnv(t, g.srv.URL)
	s := startTmux(t, env, t.TempDir(), shellQuote(ternBin)+"; echo EXITED $?; exec sleep 600")
	s.waitText(tmuxTimeout, placeholder, tmuxModel)
	s.typeText("draft")
	s.waitText(tmuxTimeout, "› draft")
	s.keys("C-g", "C-g")
	s.waitText(tmuxTimeout, "EDITOR-1-READS stdin=tty")
	s.typeText("one.")
	s.waitText(tmuxTimeout, "EDITOR-2-READS stdin=tty")
	s.typeText("two.")
	s.waitFor("an editor's text in the draft", tmuxTimeout, func(scr string) bool {
		return strings.Contains(scr, "› draft[1:tty:one]") || strings.Contains(scr, "› draft[2:tty:two]")
	})
	if b, err := os.ReadFile(log); err != nil || string(b) != "[1:tty:one][2:tty:two]" {
		t.Errorf("the editors read %q (%v), want [1:tty:one][2:tty:two]", b, err)
	}
	// tern reads keys again, once the other text has come back too.
	time.Sleep(300 * time.Millisecond)
	s.typeText("!")
	s.waitFor("the key typed after the editors", tmuxTimeout, func(scr string) bool {
		return strings.Contains(scr, "› draft[1:tty:one]!") || strings.Contains(scr, "› draft[2:tty:two]!")
	})
}

// TestTmuxEditorStdinNotTerminal: with tern's standard input not the
// terminal (/dev/null here, a pipe alike), Bubble Tea reads the terminal
// it opens itself, and the editor must get that terminal too, as it did
// before tern read through descriptions of its own; it got /dev/null.
func TestTmuxEditorStdinNotTerminal(t *testing.T) {
	t.Parallel()
	g := newSSEGateway(t, func(s *sse, _ chatRequest, _ *http.Request) { s.finish("stop") })
	needTmux(t)
	env, _ := handoverEnv(t, g.srv.URL)
	s := startTmux(t, env, t.TempDir(), shellQuote(ternBin)+" </dev/null; echo EXITED $?; exec sleep 600")
	s.waitText(tmuxTimeout, placeholder, tmuxModel)
	s.typeText("draft")
	s.waitText(tmuxTimeout, "› draft")
	s.keys("C-g")
	scr := s.waitFor("the editor running or its text", tmuxTimeout, func(scr string) bool {
		return strings.Contains(scr, "EDITOR-1-READS") || strings.Contains(scr, "[1:notty:")
	})
	if strings.Contains(scr, "[1:notty:") || strings.Contains(scr, "stdin=notty") {
		t.Fatalf("the editor's standard input is not the terminal:\n%s", scr)
	}
	s.typeText("typed.")
	s.waitText(tmuxTimeout, "› draft[1:tty:typed]")
}

// TestTmuxSuspendTwice: ctrl+z pressed twice at once stops tern twice (fg
// twice brings it back), and then every key typed reaches it. The first
// stop's end resumed tern's reading while the second was still to come,
// so a reader of tern's waited through the second stop and took the first
// keys typed after fg, which were dropped.
func TestTmuxSuspendTwice(t *testing.T) {
	t.Parallel()
	s := ternInBash(t, "")
	s.typeText("draft")
	s.waitText(tmuxTimeout, "› draft")

	s.keys("C-z", "C-z")
	s.waitText(tmuxTimeout, "Stopped", "SHELL-PROMPT$")
	for i := range 2 {
		s.typeText("fg")
		s.keys("Enter")
		if i == 0 {
			// The second ctrl+z stops tern again as soon as it is back.
			s.waitFor("tern stopped again after fg", tmuxTimeout, func(scr string) bool {
				_, after, ok := strings.Cut(scr, "SHELL-PROMPT$ fg")
				return ok && strings.Contains(after, "Stopped") && strings.Contains(after, "SHELL-PROMPT$")
			})
		}
	}
	s.waitText(tmuxTimeout, "◆ tern", "› draft", tmuxModel)
	s.typeText("XY")
	s.waitText(tmuxTimeout, "› draftXY")
	s.keys("C-c", "C-c", "C-c")
	s.waitText(tmuxTimeout, "SHELL-PROMPT$")
}

// TestTmuxSuspendStopIgnored: started from a shell with SIGTSTP ignored
// (an empty trap on TSTP), ctrl+z says it cannot suspend and tern goes on reading.
// It sent the stop, which nothing took, and waited for good for the
// SIGCONT, the terminal given back to no one and ctrl+c ignored.
func TestTmuxSuspendStopIgnored(t *testing.T) {
	t.Parallel()
	s := ternInBash(t, "trap '' TSTP; ")
	s.typeText("draft")
	s.waitText(tmuxTimeout, "› draft")
	s.keys("C-z")
	s.waitText(tmuxTimeout, "needs tern started from an interactive shell")
	s.typeText(" kept")
	s.waitText(tmuxTimeout, "› draft kept")
	s.keys("C-c", "C-c", "C-c")
	s.waitText(tmuxTimeout, "SHELL-PROMPT$")
}
