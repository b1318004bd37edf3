package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTmuxTaskCard drives a delegation on the offline provider in a real
// terminal: the task card shows the subagent's call and then its answer,
// and the transcript view (ctrl+t) shows the subagent's conversation.
func TestTmuxTaskCard(t *testing.T) {
	t.Parallel()
	needTmux(t)
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	// No language server: gopls, where CI installed it, would start on the
	// read and write its caches into HOME while the test's cleanup runs.
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("lsp = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "TERN_HOME=" + home,
		"LANG=C.UTF-8", "SHELL=/bin/sh", "MOCK=1"}
	s := startTmux(t, env, ws, shellQuote(ternBin)+"; echo EXITED $?; exec sleep 600")
	s.waitText(tmuxTimeout, placeholder)
	s.typeText("delegate: read main.go")
	s.keys("Enter")
	scr := s.waitText(tmuxTimeout, "◆ Task", "↳ read_file main.go", "answered")
	if !strings.Contains(scr, "main.go") {
		t.Errorf("the task card does not name the subagent's read:\n%s", scr)
	}
	s.waitFor("the turn to end", tmuxTimeout, func(scr string) bool { return !turnRunning(scr) })
	s.keys("C-t")
	// The subagent's prompt, its words and its call's whole output.
	s.waitText(tmuxTimeout, "esc back", "› read main.go", "Let me read", "1  package main")
}
