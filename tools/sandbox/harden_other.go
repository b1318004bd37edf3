//go:build !linux

package sandbox

// Harden does nothing here: non-dumpable processes and close_range are
// Linux's; elsewhere commands rely on the operating system's defaults.
func Harden() error { return nil }
