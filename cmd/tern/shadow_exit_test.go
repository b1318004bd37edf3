package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// processesWithEnv returns the pids of running processes whose environment
// holds entry: the children a process started inherit its environment.
func processesWithEnv(t *testing.T, entry string) []string {
	t.Helper()
	dirs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil {
		t.Fatal(err)
	}
	var pids []string
	for _, d := range dirs {
		env, err := os.ReadFile(filepath.Join(d, "environ"))
		if err != nil {
			continue // gone, or not ours to read
		}
		if slices.Contains(strings.Split(string(env), "\x00"), entry) {
			pids = append(pids, filepath.Base(d))
		}
	}
	return pids
}

// TestRunLeavesNoGitBehind checks that a run shorter than git's start-up
// waits for the snapshot repository it opens in the background: before the
// fix every such run exited with git still running, and writing under
// TERN_HOME, which is how it was found (a test's temporary directory could
// not be removed).
func TestRunLeavesNoGitBehind(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("no /proc to look for processes in")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "main.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git := exec.Command("git", "init", "-q")
	git.Dir = ws
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	home := filepath.Join(t.TempDir(), ".tern")
	for i := range 3 {
		r := tern(t, ws, map[string]string{"TERN_HOME": home}, "", "run", "hello")
		if r.code != exitOK {
			t.Fatalf("tern run: exit %d\n%s", r.code, r.stderr)
		}
		if pids := processesWithEnv(t, "TERN_HOME="+home); len(pids) > 0 {
			t.Fatalf("run %d: processes %v that tern started still run after it exited", i+1, pids)
		}
	}
}
