package main

import (
	"net/http"
	"strings"
	"testing"
)

// TestTmuxResumePicker records two sessions, then runs `tern -r`: the picker
// lists both, newest-used first; choosing the older one shows its
// transcript, and the next prompt goes to the model with that session's
// history and is appended to its file. No empty session is left behind.
func TestTmuxResumePicker(t *testing.T) {
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
	// Three runs one after the other: two sessions, then the picker.
	s := startTmux(t, env, ws, bin+"; "+bin+"; "+bin+" -r; echo EXITED $?; exec sleep 600")
	for _, prompt := range []string{"alpha prompt", "beta prompt"} {
		s.waitText(tmuxTimeout, placeholder, tmuxModel)
		s.typeText(prompt)
		s.keys("Enter")
		s.waitText(tmuxTimeout, "answer to: "+prompt)
		s.waitFor("the turn to end", tmuxTimeout, func(scr string) bool { return !turnRunning(scr) })
		s.typeText("/exit")
		s.keys("Enter")
		s.waitFor("tern to quit", tmuxTimeout, func(scr string) bool { return !strings.Contains(scr, "answer to: "+prompt) })
	}
	// Counted once the picker is up: by then tern -r has created its own
	// session file too, and the files must be the two runs' and that one.
	scr := s.waitText(tmuxTimeout, "Resume a session", "alpha prompt", "beta prompt")
	files := sessionFiles(t, ternHome)
	var turns int
	for _, f := range files {
		if b := readFile(t, f); strings.Contains(b, `"text":"alpha prompt"`) || strings.Contains(b, `"text":"beta prompt"`) {
			turns++
		}
	}
	if len(files) != 3 || turns != 2 {
		t.Fatalf("session files after two runs and tern -r: %q, %d of them with a turn; want the two runs' and an empty one", files, turns)
	}
	if a, b := strings.Index(scr, "alpha prompt"), strings.Index(scr, "beta prompt"); b > a {
		t.Errorf("the picker does not list the session used last first:\n%s", scr)
	}
	s.keys("Down")
	s.keys("Enter")
	scr = s.waitText(tmuxTimeout, "resumed session", "answer to: alpha prompt")
	if strings.Contains(scr, "beta prompt") {
		t.Errorf("the transcript after choosing alpha shows beta:\n%s", scr)
	}
	s.typeText("gamma prompt")
	s.keys("Enter")
	s.waitText(tmuxTimeout, "answer to: gamma prompt")
	reqs := g.requests()
	last := reqs[len(reqs)-1]
	var users []string
	for _, m := range last.Messages {
		if m.Role == "user" {
			users = append(users, m.text())
		}
	}
	if strings.Join(users, "|") != "alpha prompt|gamma prompt" {
		t.Errorf("the request after resuming carries the user messages %q, want alpha's history and gamma", users)
	}
	s.waitFor("the turn to end", tmuxTimeout, func(scr string) bool { return !turnRunning(scr) })
	s.typeText("/exit")
	s.keys("Enter")
	s.waitText(tmuxTimeout, "EXITED 0")

	files = sessionFiles(t, ternHome)
	if len(files) != 2 {
		t.Fatalf("session files after resuming: %q, want the two (no empty one from tern -r)", files)
	}
	var alpha string
	for _, f := range files {
		if b := readFile(t, f); strings.Contains(b, `"text":"alpha prompt"`) {
			alpha = b
		}
	}
	if !strings.Contains(alpha, `"text":"gamma prompt"`) || strings.Count(alpha, `"type":"header"`) != 1 {
		t.Errorf("the alpha session's file does not hold the gamma turn:\n%s", alpha)
	}
}
