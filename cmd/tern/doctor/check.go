// Package doctor implements `tern doctor`: one line per check of the
// configuration and the gateway, each failure with its fix.
package doctor

import (
	"fmt"
	"io"
	"strings"

	"github.com/ternhq/tern/internal/sanitize"
)

// Mark is a check's outcome; the set is closed.
type Mark int

// The outcomes.
const (
	// Pass means the check succeeded.
	Pass Mark = iota + 1
	// Fail means the check failed; Fix says what to do.
	Fail
	// Skip means the check could not run because an earlier one failed, or
	// does not apply.
	Skip
)

// Symbol is how the mark is printed.
func (m Mark) Symbol() string {
	switch m {
	case Pass:
		return "✓"
	case Fail:
		return "✗"
	case Skip:
		return "-"
	}
	return "?"
}

// Check is one line of the report.
type Check struct {
	Mark Mark
	// Name is the short label, e.g. "base URL" or "streaming".
	Name string
	// Detail says what was found.
	Detail string
	// Fix says what to do about a failure.
	Fix string
}

// Failed reports whether any check failed.
func Failed(checks []Check) bool {
	for _, c := range checks {
		if c.Mark == Fail {
			return true
		}
	}
	return false
}

// Write prints the report, one line per check, with a summary at the end.
func Write(w io.Writer, checks []Check) error {
	width := 0
	for _, c := range checks {
		width = max(width, len(c.Name))
	}
	var b strings.Builder
	failed := 0
	for _, c := range checks {
		fmt.Fprintf(&b, "%s %-*s  %s", c.Mark.Symbol(), width, c.Name, oneLine(c.Detail))
		if c.Mark == Fail {
			failed++
			if c.Fix != "" {
				fmt.Fprintf(&b, " — fix: %s", oneLine(c.Fix))
			}
		}
		b.WriteByte('\n')
	}
	switch failed {
	case 0:
		b.WriteString("all checks passed\n")
	case 1:
		b.WriteString("1 check failed\n")
	default:
		fmt.Fprintf(&b, "%d checks failed\n", failed)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// oneLine keeps a message on its line and strips anything a terminal would
// interpret: details quote gateways' answers, which are not trusted.
func oneLine(s string) string {
	return strings.Join(strings.Fields(sanitize.Clean(s)), " ")
}
