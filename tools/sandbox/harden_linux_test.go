//go:build linux

package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// hardenProbe reads, from inside the command, what it must not have: its
// capabilities and no_new_privs, and the launcher's (its parent's)
// environment, memory and maps.
const hardenProbe = `grep -E '^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs):' /proc/self/status
cat /proc/$PPID/environ >/dev/null 2>&1 && echo "parent environ readable"
cat /proc/$PPID/maps >/dev/null 2>&1 && echo "parent maps readable"
(exec 3</proc/$PPID/mem) 2>/dev/null && echo "parent mem readable"
echo probed`

// TestLauncherHardensTheCommand runs the probe supervised and confined:
// the launcher, the command's parent, is non-dumpable, so the command
// cannot read it, and as root the command holds no capability and cannot
// gain one (no_new_privs).
func TestLauncherHardensTheCommand(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, confined := range []bool{false, true} {
		name := "supervised"
		if confined {
			name = "confined"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command("bash", "-c", hardenProbe)
			cmd.Dir = f.ws
			var err error
			if confined {
				needLandlock(t)
				err = Wrap(cmd, f.policy)
			} else {
				err = Supervise(cmd, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				t.Fatal(err)
			}
			text := string(out)
			if !strings.Contains(text, "probed") || strings.Contains(text, "readable") {
				t.Errorf("the command could read its launcher, or did not run:\n%s", text)
			}
			if os.Geteuid() != 0 {
				t.Log("not root: the capabilities part needs root")
				return
			}
			for _, field := range []string{"CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"} {
				if !strings.Contains(text, field+":\t0000000000000000\n") {
					t.Errorf("%s is not empty:\n%s", field, text)
				}
			}
			if !strings.Contains(text, "NoNewPrivs:\t1\n") {
				t.Errorf("no_new_privs is not set:\n%s", text)
			}
		})
	}
}
