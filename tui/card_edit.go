package tui

// editCard draws edit_file calls: the file and the change as a diff.
type editCard struct{}

func (editCard) icon() string { return "✎" }

func (editCard) setArgs(c *toolCard, args map[string]any) {
	c.main = pathOrAnyString(args)
	if c.diff == "" {
		c.diffPending = true // made when first drawn: diffText
	}
}

func (editCard) body(c *toolCard, rc *renderCtx, d cardDetail, width int) []string {
	return diffBody(c, rc, d, width)
}
