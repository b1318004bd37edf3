//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package tui

// shellJobControl reports that no shell can resume tern after ctrl+z here:
// Bubble Tea suspends only on Unix.
func shellJobControl() bool { return false }
