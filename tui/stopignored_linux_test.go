package tui

import (
	"os/signal"
	"syscall"
	"testing"
)

// TestStopIgnored: an ignored SIGTSTP is seen, and then there is no job
// control to suspend with (ctrl+z stopped nothing and waited for good for
// a SIGCONT: tern hung with the terminal given away, deaf to ctrl+c).
// Not parallel: it changes the process's disposition of SIGTSTP.
func TestStopIgnored(t *testing.T) {
	if stopIgnored() {
		t.Skip("SIGTSTP is ignored by whoever started the tests")
	}
	signal.Ignore(syscall.SIGTSTP)
	defer signal.Reset(syscall.SIGTSTP)
	if !stopIgnored() {
		t.Error("SIGTSTP ignored, not seen")
	}
	if shellJobControl() {
		t.Error("job control reported with SIGTSTP ignored")
	}
}
