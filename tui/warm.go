package tui

import "github.com/charmbracelet/x/ansi"

// Warm starts, in the background, one-time work the first frame would
// otherwise wait for, so that it overlaps the caller's start-up: measuring
// the first non-ASCII character builds go-runewidth's width tables, about
// 10-15 ms on the machines tern is measured on, and the renderer measures
// the box drawing of the first frame. Call it as early as possible before
// Run; it is safe to call more than once.
func Warm() {
	go func() { _ = ansi.StringWidthWc("─›◆·") }()
}
