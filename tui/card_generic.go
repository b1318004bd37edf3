package tui

import "github.com/ternhq/tern/internal/sanitize"

// genericCard draws the cards of tools tern has no renderer for: the path,
// else any string argument, as the main argument, and the result when open.
type genericCard struct{}

func (genericCard) icon() string { return "⚙" }

func (genericCard) setArgs(c *toolCard, args map[string]any) { c.main = pathOrAnyString(args) }

func (genericCard) body(c *toolCard, rc *renderCtx, d cardDetail, width int) []string {
	return resultBody(c, rc, d, width)
}

// pathOrAnyString is the main argument of a tool that names a file: its
// path, or for unknown tools any string argument, which tells something.
func pathOrAnyString(args map[string]any) string {
	if p := argString(args, "path"); p != "" {
		return p
	}
	for _, v := range args {
		if s, ok := v.(string); ok {
			return firstLine(sanitize.Visible(s))
		}
	}
	return ""
}

// resultBody is the body most cards have: nothing while the approval dialog
// shows the whole preview, the result's last lines when open.
func resultBody(c *toolCard, rc *renderCtx, d cardDetail, width int) []string {
	if c.state == cardAwaiting {
		return nil
	}
	// A failed call's result is its error, drawn below in the error colour.
	if d.open() && c.result != "" && (c.state != cardFailed || c.errText != c.result) {
		return c.tail(rc, c.result, width, d)
	}
	return nil
}
