package tui

// diagnosticsCard draws diagnostics calls: the path (the workspace when
// none) and the result when open.
type diagnosticsCard struct{}

func (diagnosticsCard) icon() string { return "⚠" }

func (diagnosticsCard) setArgs(c *toolCard, args map[string]any) {
	c.main = argString(args, "path")
	if c.main == "" {
		c.main = "the workspace"
	}
}

func (diagnosticsCard) body(c *toolCard, rc *renderCtx, d cardDetail, width int) []string {
	return resultBody(c, rc, d, width)
}
