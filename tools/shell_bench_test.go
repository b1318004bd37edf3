//go:build linux

package tools

import (
	"context"
	"os"
	"testing"
)

// BenchmarkRunShellSandboxed is one confined run_shell call of `true`, end
// to end: the launcher starting, confining and supervising bash, and the
// call's own bookkeeping.
func BenchmarkRunShellSandboxed(b *testing.B) {
	s := newSandboxSetup(b)
	sh := NewRunShellWith(s.w, append(os.Environ(), "HOME="+s.home), s.opts)
	args := []byte(`{"command":"true"}`)
	for b.Loop() {
		if res := sh.Run(context.Background(), args, nil); res.ExitCode != 0 {
			b.Fatalf("exit %d: %s", res.ExitCode, res.Output)
		}
	}
}

// BenchmarkRunShellPlain is the same call without the sandbox.
func BenchmarkRunShellPlain(b *testing.B) {
	sh := NewRunShell(shellWorkspace(b), os.Environ())
	args := []byte(`{"command":"true"}`)
	for b.Loop() {
		if res := sh.Run(context.Background(), args, nil); res.ExitCode != 0 {
			b.Fatalf("exit %d: %s", res.ExitCode, res.Output)
		}
	}
}
