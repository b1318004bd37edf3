package tui

// todoCard draws todo_write calls; the list itself is pinned above the
// input (todo.go), so the card only says the call happened.
type todoCard struct{}

func (todoCard) icon() string { return "☑" }

func (todoCard) setArgs(c *toolCard, args map[string]any) { c.main = pathOrAnyString(args) }

func (todoCard) body(c *toolCard, rc *renderCtx, d cardDetail, width int) []string {
	return resultBody(c, rc, d, width)
}
