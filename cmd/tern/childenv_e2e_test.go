//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EChildrenDoNotInheritTheKey runs tern in a git workspace with a
// git that records its environment: the programs tern starts itself (git
// for checkpoints, the editor, the clipboard tool) are dumpable, so a
// command of the same user (sandbox off) could read their
// /proc/PID/environ while they run. None may carry tern's key.
func TestE2EChildrenDoNotInheritTheKey(t *testing.T) {
	t.Parallel()
	realGit, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	bin := t.TempDir()
	log := filepath.Join(t.TempDir(), "git-env")
	script := "#!/bin/sh\nenv >> " + log + "\nexec " + realGit + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	const key = "sk-e2e-child-env-key"
	g := newShellGateway(t, key, func() string { return "echo hi > f.txt" })
	ws := t.TempDir()
	if out, err := exec.Command(realGit, "init", "-q", ws).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	cmd := ternCmdIn(t, g, ws, t.TempDir(), "--sandbox", "off", "run the command")
	cmd.Env = append(cmd.Env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "OPENAI_API_KEY="+key)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("tern run: %v\n%s", err, out.String())
	}
	if !strings.Contains(g.toolResult(), "exit code: 0") {
		t.Fatalf("the command did not run; the model got:\n%s\ntern said:\n%s", g.toolResult(), out.String())
	}
	data, err := os.ReadFile(log)
	if err != nil || len(data) == 0 {
		t.Fatalf("tern started no git (%v): the test proves nothing\n%s", err, out.String())
	}
	if bytes.Contains(data, []byte(key)) {
		t.Errorf("a git tern started had the key in its environment:\n%s", grepLines(string(data), key))
	}
}

// grepLines returns the lines of s holding sub.
func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
