//go:build !linux

package sandbox

import (
	"errors"
	"os/exec"
	"runtime"
)

// Available reports whether commands can be confined here; only Linux has
// Landlock, so elsewhere the answer is no, with the reason.
func Available() (abi int, ok bool, why string) {
	return 0, false, "the sandbox uses Linux's Landlock, which " + runtime.GOOS + " does not have"
}

// supervisorOS is false: supervising a command's processes needs Linux's
// child subreaper.
const supervisorOS = false

// setParentDeathSignal does nothing: the launcher runs on Linux only.
func setParentDeathSignal(*exec.Cmd) {}

// launch cannot confine or supervise anything here: after checking its
// arguments like the Linux launcher, it fails.
func launch(args, env []string) (int, error) {
	if _, _, _, _, err := decodeLaunch(args, env); err != nil {
		return 0, err
	}
	_, _, why := Available()
	return 0, errors.New(why)
}

// confine reports that there is no second stage to run.
func confine(_, _ []string) error {
	return errors.New("launcher: commands cannot be confined on this system")
}
