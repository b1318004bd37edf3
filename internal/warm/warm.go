// Package warm builds, in the background and as early as package
// initialisation allows, the character-width tables that the interface's
// first frame would otherwise wait for. Import it for its side effect from
// the main package.
package warm

import (
	"os"

	"github.com/charmbracelet/x/term"
	"github.com/mattn/go-runewidth"
)

// init starts the build only when stdout is a terminal: the full-screen
// interface needs one, and the sandbox launcher and scripted runs, whose
// output goes to pipes, would only pay for it.
//
// This package imports little on purpose: Go initialises a package as soon
// as its imports are, taking the lexically first ready one, so a package
// with few early imports starts before the heavier ones (the Markdown
// parser's entity table, the model database) that the goroutine then
// overlaps.
func init() {
	if term.IsTerminal(os.Stdout.Fd()) {
		go widths()
	}
}

// widths builds go-runewidth's lookup table, which the first width
// measurement of a character above U+02FF (the interface's box drawing)
// would otherwise build on the way to the first frame: a table of megabytes,
// filled one character at a time. Every width function that uses the table
// waits for the same build, so starting it here only moves it earlier.
func widths() {
	_ = runewidth.RuneWidth('─')
}
