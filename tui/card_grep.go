package tui

// grepCard draws grep calls: the pattern and where it is searched.
type grepCard struct{}

func (grepCard) icon() string { return "⌕" }

func (grepCard) setArgs(c *toolCard, args map[string]any) {
	c.main = argString(args, "pattern")
	if p := argString(args, "path"); p != "" {
		c.main += " in " + p
	}
}

func (grepCard) body(c *toolCard, rc *renderCtx, d cardDetail, width int) []string {
	return resultBody(c, rc, d, width)
}
