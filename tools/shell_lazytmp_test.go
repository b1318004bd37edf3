//go:build linux

package tools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShellMakesTempDirAtFirstCommand: with MakeTempDir, run_shell makes
// the session's TMPDIR before its first command, not when it is built, and
// only once; the sandbox lets the command write there, and the note of a
// permission error names it. A failure to make it fails that command and
// is tried again by the next.
func TestShellMakesTempDirAtFirstCommand(t *testing.T) {
	t.Parallel()
	s := newSandboxSetup(t)
	for _, tc := range []struct {
		name   string
		policy bool
	}{
		{"sandboxed", true},
		{"unconfined", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "session-tmp")
			made := 0
			opts := ShellOptions{MakeTempDir: func() (string, error) {
				made++
				return dir, os.Mkdir(dir, 0o700)
			}}
			if tc.policy {
				opts.Sandbox = s.opts.Sandbox
			}
			sh := NewRunShellWith(s.w, append(os.Environ(), "HOME="+s.home), opts)
			_ = sh.Spec()
			if made != 0 {
				t.Fatalf("the temporary directory was made %d times before any command", made)
			}
			for range 2 {
				res := sh.Run(context.Background(), toolArgs(t, map[string]any{"command": `echo "$TMPDIR" && f=$(mktemp) && echo tmp > "$f" && cat "$f"`}), nil)
				if res.Status != StatusOK || res.ExitCode != 0 || !strings.Contains(res.Output, dir+"\n") || !strings.Contains(res.Output, "tmp") {
					t.Fatalf("status %v exit %d:\n%s", res.Status, res.ExitCode, res.Output)
				}
			}
			if made != 1 {
				t.Errorf("made %d times, want once", made)
			}
			if !tc.policy {
				return
			}
			res := sh.Run(context.Background(), toolArgs(t, map[string]any{"command": "echo x > " + s.elsewhere + "/lazy.txt"}), nil)
			if res.ExitCode == 0 || !strings.Contains(res.SandboxNote, dir) {
				t.Errorf("a write outside: exit %d, note %q, want a failure and a note naming %s", res.ExitCode, res.SandboxNote, dir)
			}
		})
	}

	t.Run("failure", func(t *testing.T) {
		t.Parallel()
		tries := 0
		sh := NewRunShellWith(s.w, os.Environ(), ShellOptions{Sandbox: s.opts.Sandbox, MakeTempDir: func() (string, error) {
			tries++
			return "", errors.New("no room in /tmp")
		}})
		for range 2 {
			res := sh.Run(context.Background(), toolArgs(t, map[string]any{"command": "echo ran"}), nil)
			if res.Status == StatusOK || strings.Contains(res.Output, "ran") || !strings.Contains(res.Output, "no room in /tmp") {
				t.Fatalf("status %v:\n%s", res.Status, res.Output)
			}
		}
		if tries != 2 {
			t.Errorf("tried %d times, want 2", tries)
		}
	})
}
