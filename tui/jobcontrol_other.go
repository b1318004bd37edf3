//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package tui

import "errors"

// shellJobControl reports that no shell can resume tern after ctrl+z here:
// Bubble Tea suspends only on Unix.
func shellJobControl() bool { return false }

// stopProcessGroup is never reached here: without job control, ctrl+z
// does not stop tern.
func stopProcessGroup() error { return errors.ErrUnsupported }
