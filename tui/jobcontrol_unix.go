//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package tui

import (
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// shellJobControl reports whether a shell with job control runs tern as a
// foreground job: such a shell puts each job in a process group of its own
// (so ours is not the session's) and makes it the terminal's foreground
// group. Only then does a shell wait to resume tern with `fg`; a stopped
// process with nobody to resume it would hang for good, and so would one
// started with the stop ignored (a shell's empty trap on TSTP): it would wait
// for a SIGCONT that never comes, the terminal given away.
func shellJobControl() bool {
	if stopIgnored() {
		return false
	}
	fg, err := unix.IoctlGetInt(int(os.Stdin.Fd()), unix.TIOCGPGRP)
	if err != nil {
		return false
	}
	sid, err := unix.Getsid(0)
	if err != nil {
		return false
	}
	pgrp := unix.Getpgrp()
	return fg == pgrp && pgrp != sid
}

// stopProcessGroup stops tern's process group, as ctrl+z in a shell does,
// and returns once the shell's fg continues it (Bubble Tea's own suspend
// does the same).
func stopProcessGroup() error {
	cont := make(chan os.Signal, 1)
	signal.Notify(cont, syscall.SIGCONT)
	defer signal.Stop(cont)
	if err := syscall.Kill(0, syscall.SIGTSTP); err != nil {
		return err
	}
	<-cont
	return nil
}
