package tui

import (
	"strings"

	"github.com/ternhq/tern/internal/sanitize"
)

// diagnosticsLine is the compact line under an edit's diff when the
// language server reported problems: "⚠ 2 errors, 1 warning", in the
// error colour when there are errors. "" when there are none.
func diagnosticsLine(c *toolCard, rc *renderCtx) string {
	if c.diagnostics == "" || c.state == cardAwaiting {
		return ""
	}
	style := rc.th.warn
	if strings.Contains(c.diagnostics, "error") {
		style = rc.th.bad
	}
	return "  " + style.Render("⚠ "+c.diagnostics)
}

// setDiagnostics records an edit's diagnostics count, made safe to show.
func (c *toolCard) setDiagnostics(s string) { c.diagnostics = sanitize.Clean(firstLine(s)) }
