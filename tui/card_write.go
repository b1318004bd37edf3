package tui

// writeCard draws write_file calls: the file and its new content as a diff.
type writeCard struct{}

func (writeCard) icon() string { return "✎" }

func (writeCard) setArgs(c *toolCard, args map[string]any) {
	c.main = pathOrAnyString(args)
	if c.diff == "" {
		c.diffPending = true // made when first drawn: diffText
	}
}

func (writeCard) body(c *toolCard, rc *renderCtx, d cardDetail, width int) []string {
	return diffBody(c, rc, d, width)
}
