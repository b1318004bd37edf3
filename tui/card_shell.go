package tui

// shellCard draws run_shell calls: the command and its output's tail.
type shellCard struct{}

func (shellCard) icon() string { return "$" }

// errorsInBody is true: what failed is in the command's output.
func (shellCard) errorsInBody() bool { return true }

func (shellCard) setArgs(c *toolCard, args map[string]any) {
	c.command = argString(args, "command")
	c.main = firstLine(c.command)
}

func (shellCard) body(c *toolCard, rc *renderCtx, d cardDetail, width int) []string {
	if c.command == "" || c.state == cardAwaiting {
		return resultBody(c, rc, d, width)
	}
	th := rc.th
	open := d.open()
	cmdLines := wrap(c.command, width-2)
	if !open && len(cmdLines) > 3 {
		cmdLines = append(cmdLines[:3], "…")
	}
	var out []string
	for i, l := range cmdLines {
		p := "$ "
		if i > 0 {
			p = "  "
		}
		out = append(out, "  "+th.dim.Render(p)+l)
	}
	text := c.output.String()
	if text == "" && (c.state == cardDone || c.state == cardFailed) {
		text = c.result
	}
	out = append(out, c.tail(rc, text, width, d)...)
	if c.sandboxed {
		for _, l := range wrap(sandboxedLine, width) {
			out = append(out, "  "+th.warn.Render(l))
		}
	}
	return out
}
