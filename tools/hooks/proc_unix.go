//go:build unix

package hooks

import (
	"os/exec"
	"syscall"
)

// setGroup starts the hook in a process group of its own, killed whole on
// the timeout, so a script's children do not outlive it.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
