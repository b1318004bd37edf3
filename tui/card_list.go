package tui

// listCard draws list_files calls: the folder and the pattern.
type listCard struct{}

func (listCard) icon() string { return "≡" }

func (listCard) setArgs(c *toolCard, args map[string]any) {
	c.main = argString(args, "path")
	if c.main == "" {
		c.main = "."
	}
	if p := argString(args, "pattern"); p != "" {
		c.main += " " + p
	}
}

func (listCard) body(c *toolCard, rc *renderCtx, d cardDetail, width int) []string {
	return resultBody(c, rc, d, width)
}
