package tui

import (
	"strings"

	"github.com/ternhq/tern/internal/sanitize"
)

// maxDiagnosticsShown bounds the diagnostics lines an open edit card shows.
const maxDiagnosticsShown = 40

// diagnosticsLines are the lines under an edit's diff when the language
// server reported problems: "⚠ 2 errors, 1 warning", in the error colour
// when there are errors, then, when the card is open, the diagnostics the
// model was given. None when there are none.
func diagnosticsLines(c *toolCard, rc *renderCtx, d cardDetail) []string {
	if c.diagnostics == "" || c.state == cardAwaiting {
		return nil
	}
	style := rc.th.warn
	if strings.Contains(c.diagnostics, "error") {
		style = rc.th.bad
	}
	out := []string{"  " + style.Render("⚠ "+c.diagnostics)}
	if !d.open() {
		return out
	}
	for _, l := range diagnosticsOf(c.result) {
		if len(out) > maxDiagnosticsShown {
			out = append(out, "  "+rc.th.dim.Render("  …"))
			break
		}
		out = append(out, "  "+rc.th.dim.Render("  "+l))
	}
	return out
}

// diagnosticsOf returns the diagnostics part of an edit's result: from its
// first header on, without blank lines.
func diagnosticsOf(result string) []string {
	at := -1
	for _, h := range []string{"\n\nDiagnostics from ", "\n\nErrors in other files "} {
		if i := strings.Index(result, h); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	if at < 0 {
		return nil
	}
	var out []string
	for _, l := range strings.Split(result[at:], "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// setDiagnostics records an edit's diagnostics count, made safe to show.
func (c *toolCard) setDiagnostics(s string) { c.diagnostics = sanitize.Clean(firstLine(s)) }
