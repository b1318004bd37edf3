//go:build !unix

package mcp

import "os/exec"

// ownGroup does nothing where process groups are unknown.
func ownGroup(*exec.Cmd) {}

// killProc kills a stdio server's process; nil does nothing.
func killProc(cmd *exec.Cmd) {
	if cmd == nil || cmd.Process == nil {
		return
	}
	_ = cmd.Process.Kill() // it may be gone already
}
