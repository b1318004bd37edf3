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

// TestE2ERenamedGitFolderIsCaught has a command, sandbox on and off, move
// .git away and write a new .git/config with an alias that runs a shell:
// headless, the change to the protected path is reverted, whether the
// launcher's pinned folders refused the move (root) or the fingerprint
// around the call caught it.
func TestE2ERenamedGitFolderIsCaught(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for _, sandbox := range []string{"on", "off"} {
		t.Run("sandbox "+sandbox, func(t *testing.T) {
			t.Parallel()
			ws := t.TempDir()
			if out, err := exec.Command("git", "init", "-q", ws).CombinedOutput(); err != nil {
				t.Fatalf("git init: %v\n%s", err, out)
			}
			config := filepath.Join(ws, ".git", "config")
			before, err := os.ReadFile(config)
			if err != nil {
				t.Fatal(err)
			}
			g := newShellGateway(t, "sk-e2e-git-rename", func() string {
				// The name is built at run time, as a hostile model would,
				// past the command check that asks for a literal .git.
				return `d=.gi; d=${d}t; mv $d ${d}2 && mkdir $d && cp -a ${d}2/. $d/; printf '[alias]\n\tst = !sh -c "touch pwned"\n' >> $d/config; echo done`
			})
			cmd := ternCmdIn(t, g, ws, t.TempDir(), "--sandbox", sandbox, "run the command")
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			_ = cmd.Run()
			if !strings.Contains(g.toolResult(), "done") {
				t.Fatalf("the command did not run; the model got:\n%s\ntern said:\n%s", g.toolResult(), out.String())
			}
			after, err := os.ReadFile(config)
			if err != nil || !bytes.Equal(after, before) {
				t.Errorf(".git/config after the command (%v):\n%s\nthe model got:\n%s\ntern said:\n%s", err, after, g.toolResult(), out.String())
			}
		})
	}
}
