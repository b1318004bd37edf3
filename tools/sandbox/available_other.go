//go:build !linux

package sandbox

import (
	"errors"
	"runtime"
)

// Available reports whether commands can be confined here; only Linux has
// Landlock, so elsewhere the answer is no, with the reason.
func Available() (abi int, ok bool, why string) {
	return 0, false, "the sandbox uses Linux's Landlock, which " + runtime.GOOS + " does not have"
}

// launch cannot confine anything without Landlock: after checking its
// arguments like the Linux launcher, it fails.
func launch(args, env []string) error {
	if _, _, _, _, err := decodeLaunch(args, env); err != nil {
		return err
	}
	_, _, why := Available()
	return errors.New(why)
}
