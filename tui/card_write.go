package tui

import "github.com/ternhq/tern/internal/sanitize"

// writeCard draws write_file calls: the file and its new content as a diff.
type writeCard struct{}

func (writeCard) icon() string { return "✎" }

func (writeCard) setArgs(c *toolCard, args map[string]any) {
	c.main = pathOrAnyString(args)
	if c.diff == "" {
		c.diff = sanitize.Visible(diffFromArgs(c.name, args))
	}
}

func (writeCard) body(c *toolCard, rc *renderCtx, d cardDetail, width int) []string {
	return diffBody(c, rc, d, width)
}
