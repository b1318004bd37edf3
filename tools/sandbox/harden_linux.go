//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// Harden makes the calling process non-dumpable, so that processes of the
// same user without CAP_SYS_PTRACE (every command tern runs) cannot read
// its environment, memory or maps under /proc or attach to it, and marks
// every descriptor above 2 close-on-exec, so that no descriptor the process
// inherited (`tern run ... 9>>~/.bashrc`) reaches the programs it starts.
// tern calls it first thing, and the launcher again before the command.
func Harden() error {
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("make the process non-dumpable: %w", err)
	}
	if err := closeOnExecAbove2(); err != nil {
		return fmt.Errorf("mark inherited descriptors close-on-exec: %w", err)
	}
	return nil
}

// closeOnExecAbove2 marks descriptors 3 and up close-on-exec: with
// close_range (Linux 5.11), else one by one as /proc/self/fd lists them.
func closeOnExecAbove2() error {
	if unix.CloseRange(3, math.MaxUint32, unix.CLOSE_RANGE_CLOEXEC) == nil {
		return nil
	}
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return err
	}
	for _, e := range ents {
		fd, err := strconv.Atoi(e.Name())
		if err != nil || fd < 3 {
			continue
		}
		// The listing's own descriptor is closed by now: EBADF is fine.
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETFD, unix.FD_CLOEXEC); err != nil && !errors.Is(err, unix.EBADF) {
			return err
		}
	}
	return nil
}
