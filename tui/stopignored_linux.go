package tui

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// stopIgnored reports whether SIGTSTP is ignored, as a process inherits it
// from one that ignored it. Go's os/signal cannot tell (signal.Ignored only
// knows of signals it was asked about), the kernel's status line can.
func stopIgnored() bool {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return false
	}
	for line := range bytes.Lines(b) {
		mask, ok := bytes.CutPrefix(line, []byte("SigIgn:"))
		if !ok {
			continue
		}
		bits, err := strconv.ParseUint(string(bytes.TrimSpace(mask)), 16, 64)
		return err == nil && bits&(1<<(uint(syscall.SIGTSTP)-1)) != 0
	}
	return false
}
