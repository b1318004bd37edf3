package tui

// readCard draws read_file calls: the file read.
type readCard struct{}

func (readCard) icon() string { return "→" }

func (readCard) setArgs(c *toolCard, args map[string]any) { c.main = pathOrAnyString(args) }

func (readCard) body(c *toolCard, rc *renderCtx, d cardDetail, width int) []string {
	return resultBody(c, rc, d, width)
}
