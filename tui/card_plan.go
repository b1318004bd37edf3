package tui

import "github.com/ternhq/tern/internal/sanitize"

// planCard draws propose_plan calls: the plan is what the user decides on,
// so it is shown whole, as Markdown, even while awaiting approval.
type planCard struct{}

func (planCard) icon() string { return "⚙" }

func (planCard) title() string { return "Plan" }

func (planCard) setArgs(c *toolCard, args map[string]any) {
	c.plan = sanitize.Clean(argString(args, "plan"))
}

func (planCard) body(c *toolCard, rc *renderCtx, d cardDetail, width int) []string {
	if c.plan == "" {
		return resultBody(c, rc, d, width)
	}
	var out []string
	for _, l := range planLines(rc, c.plan, width) {
		out = append(out, "  "+l)
	}
	return out
}

// planLines renders a proposed plan's Markdown for width columns.
func planLines(rc *renderCtx, plan string, width int) []string {
	if r := rc.md(width); r != nil {
		if lines, err := r.Lines(plan); err == nil {
			return lines
		}
	}
	return wrap(plan, width)
}
