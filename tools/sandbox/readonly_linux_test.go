//go:build linux

package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadOnlyPaths binds a file and a directory of the workspace
// read-only: the command cannot change them, confined or not, while the
// rest of the workspace stays writable and the binding does not reach the
// system outside the command.
func TestReadOnlyPaths(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("read-only binding needs CAP_SYS_ADMIN: the launcher does it when tern runs as root")
	}
	t.Parallel()
	for _, confined := range []bool{false, true} {
		name := "supervised"
		if confined {
			name = "confined"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			config := filepath.Join(f.ws, ".git", "config")
			hooks := filepath.Join(f.ws, ".git", "hooks")
			if err := os.MkdirAll(hooks, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(config, []byte("[core]\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			readOnly := []string{config, hooks, filepath.Join(f.ws, "missing")}
			cmd := exec.Command("bash", "-c", `echo '[alias] x = !sh' >> .git/config; touch .git/hooks/post-commit; echo fine > other.txt; cat other.txt`)
			cmd.Dir = f.ws
			var err error
			if confined {
				needLandlock(t)
				p := f.policy
				p.ReadOnly = readOnly
				err = Wrap(cmd, p)
			} else {
				err = Supervise(cmd, readOnly)
			}
			if err != nil {
				t.Fatal(err)
			}
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				t.Fatal(err)
			}
			if got := strings.Count(string(out), "Read-only file system"); got != 2 || !strings.Contains(string(out), "fine") {
				t.Errorf("output %q: want both writes refused as read-only and other.txt written", out)
			}
			if data, _ := os.ReadFile(config); string(data) != "[core]\n" {
				t.Errorf(".git/config changed: %q", data)
			}
			if ents, _ := os.ReadDir(hooks); len(ents) > 0 {
				t.Errorf("a hook was written: %v", ents)
			}
			// Outside the command's mount namespace the files stay writable.
			if err := os.WriteFile(config, []byte("[core]\n\tbare = false\n"), 0o644); err != nil {
				t.Errorf("the binding reached the system: %v", err)
			}
		})
	}
}
