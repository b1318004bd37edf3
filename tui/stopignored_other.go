//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package tui

// stopIgnored cannot tell here whether SIGTSTP is ignored: it says no.
func stopIgnored() bool { return false }
