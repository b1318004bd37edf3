//go:build !linux

package tui

import (
	"errors"
	"os"
)

// openTTY opens nothing here: Bubble Tea reads and writes the terminal
// itself (ttyfile_linux.go says why tern does on Linux).
func openTTY(*os.File, bool) (terminalFile, error) { return nil, errors.ErrUnsupported }
