//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the server in a process group of its own, so that
// killProc also ends what it started (npx starts node).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProc kills a stdio server's process group; nil does nothing.
func killProc(cmd *exec.Cmd) {
	if cmd == nil || cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // it may be gone already
}
