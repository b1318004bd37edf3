package main

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestTmuxSessionTitle runs tern against a gateway that also answers the
// title request: after the first answer the session is named, /exit prints
// how to resume it, and `tern sessions --json` lists it by that name. Then a
// tern opened and closed with its terminal (tmux kill-session: SIGHUP)
// leaves no empty session behind.
func TestTmuxSessionTitle(t *testing.T) {
	t.Parallel()
	needTmux(t)
	g := newSSEGateway(t, func(s *sse, req chatRequest, _ *http.Request) {
		s.text("answer to: "+req.lastUser(), 16, 0)
		s.finish("stop")
	})
	ws := t.TempDir()
	env := tmuxEnv(t, g.srv.URL)
	var ternHome string
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, "TERN_HOME="); ok {
			ternHome = v
		}
	}
	bin := shellQuote(ternBin)
	s := startTmux(t, env, ws, bin+"; echo EXITED $?; exec sleep 600")
	s.waitText(tmuxTimeout, placeholder, tmuxModel)
	s.typeText("alpha prompt")
	s.keys("Enter")
	s.waitText(tmuxTimeout, "answer to: alpha prompt")
	files := sessionFiles(t, ternHome)
	if len(files) != 1 {
		t.Fatalf("session files %q", files)
	}
	deadline := time.Now().Add(tmuxTimeout)
	for !strings.Contains(readFile(t, files[0]), `"type":"title"`) {
		if time.Now().After(deadline) {
			t.Fatalf("no title recorded:\n%s", readFile(t, files[0]))
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.typeText("/exit")
	s.keys("Enter")
	scr := s.waitText(tmuxTimeout, "EXITED 0")
	id := strings.TrimSuffix(files[0][strings.LastIndex(files[0], "-")+1:], ".jsonl")
	if !strings.Contains(scr, "resume with: tern -r "+id) {
		t.Fatalf("no resume hint for %s after the screen was restored:\n%s", id, scr)
	}

	cmd := exec.Command(ternBin, "sessions", "--json")
	cmd.Dir, cmd.Env = ws, env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tern sessions --json: %v", err)
	}
	var list []sessionJSON
	if err := json.Unmarshal(out, &list); err != nil || len(list) != 1 || list[0].Title != titlePrefix+"alpha prompt" {
		t.Fatalf("tern sessions --json = %s (%v); want the one session titled", out, err)
	}

	// A tern left without a prompt and killed with its terminal.
	s2 := startTmux(t, env, ws, bin)
	s2.waitText(tmuxTimeout, placeholder, tmuxModel)
	if n := len(sessionFiles(t, ternHome)); n != 2 {
		t.Fatalf("%d session files while the second tern runs, want 2", n)
	}
	s2.must("kill-session", "-t", tmuxSession)
	deadline = time.Now().Add(tmuxTimeout)
	for len(sessionFiles(t, ternHome)) != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("the empty session outlived its terminal: %q", sessionFiles(t, ternHome))
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := os.Stat(files[0]); err != nil {
		t.Fatalf("the titled session is gone: %v", err)
	}
}
