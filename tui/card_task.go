package tui

import (
	"fmt"
	"strings"

	"github.com/ternhq/tern/provider"
)

// taskCard draws task calls: the task's description, a line per tool call
// of its subagent as it works, its tokens, then its answer; the transcript
// view shows the subagent's whole conversation.
type taskCard struct{}

func (taskCard) icon() string { return "◆" }

func (taskCard) title() string { return "Task" }

func (taskCard) setArgs(c *toolCard, args map[string]any) {
	c.main = argString(args, "description")
	if name := argString(args, "agent"); name != "" {
		c.main = name + ": " + c.main
	}
}

// taskResultLines is how many lines of the answer the collapsed card shows.
const taskResultLines = 4

func (taskCard) body(c *toolCard, rc *renderCtx, d cardDetail, width int) []string {
	if d == detailFull {
		return taskConversation(c, rc, width)
	}
	var out []string
	if v := c.task; v != nil {
		calls := v.calls
		if n := collapsedOutput; !d.open() && len(calls) > n {
			out = append(out, "  "+rc.th.dim.Render(fmt.Sprintf("… %d earlier calls", len(calls)-n)))
			calls = calls[len(calls)-n:]
		}
		for _, l := range calls {
			out = append(out, taskCallLine(rc, l, width))
		}
		out = append(out, "  "+rc.th.dim.Render(taskMeter(v)))
	}
	if c.state == cardDone && c.result != "" {
		lines := wrap(strings.TrimRight(c.result, "\n"), width-2)
		if !d.open() && len(lines) > taskResultLines {
			lines = append(lines[:taskResultLines], rc.th.dim.Render(fmt.Sprintf("… %d more lines (ctrl+o, or the transcript view)", len(lines)-taskResultLines)))
		}
		bar := rc.th.dim.Render("│ ")
		for _, l := range lines {
			out = append(out, "  "+bar+l)
		}
	}
	return out
}

// taskMeter sums up what the subagent did.
func taskMeter(v *taskView) string {
	s := plural(len(v.calls), "tool call")
	if v.requests > 0 {
		// A resumed session's tasks come without their requests.
		s += fmt.Sprintf(" · %s tokens · %s", kilo(v.tokens), plural(v.requests, "request"))
	}
	if v.answered {
		// Its result joins the conversation with those of the calls
		// running beside it, in their order.
		s += " · answered"
	}
	return s
}

// taskCallLine is one of the subagent's calls: its tool, main argument and
// state.
func taskCallLine(rc *renderCtx, l taskLine, width int) string {
	th := rc.th
	var state string
	switch l.state {
	case cardStreaming, cardReady:
		state = th.dim.Render("…")
	case cardAwaiting:
		state = th.warn.Render("⏸ awaiting approval")
	case cardRunning:
		state = th.info.Render(rc.spin)
	case cardDone:
		state = th.ok.Render("✓ " + l.summary)
	case cardFailed:
		state = th.bad.Render("✗ " + l.summary)
	case cardDenied:
		state = th.bad.Render("⊘ denied")
	case cardCancelled:
		state = th.warn.Render("⊘ cancelled")
	}
	head := "  ↳ " + l.name
	room := width - stringWidth(head) - stringWidth(state) - 2
	if l.main != "" && room > 4 {
		head += " " + th.cardArg.Render(truncate(l.main, room))
	}
	return head + "  " + state
}

// taskConversation is the subagent's whole conversation, for the
// transcript view: its prompt, its answers, each call with its result,
// and its final answer as the task's result.
func taskConversation(c *toolCard, rc *renderCtx, width int) []string {
	th := rc.th
	v := c.task
	if v == nil {
		return resultBody(c, rc, detailFull, width)
	}
	bar := th.dim.Render("│ ")
	var out []string
	for _, m := range v.conv {
		switch m.role {
		case provider.RoleUser:
			for i, l := range wrap(m.text, width-4) {
				lead := "    "
				if i == 0 {
					lead = "  › "
				}
				out = append(out, lead+th.bold.Render(l))
			}
		case provider.RoleAssistant:
			for _, l := range wrap(m.text, width-4) {
				out = append(out, "    "+l)
			}
		case provider.RoleTool:
			head := "  ↳ " + strings.TrimSpace(m.tool)
			if m.summary != "" {
				head += "  " + th.dim.Render(m.summary)
			}
			out = append(out, truncate(head, width))
			shown := lastLines(m.text, maxTaskResultLines)
			if total := strings.Count(strings.TrimRight(m.text, "\n"), "\n") + 1; len(shown) < total {
				out = append(out, "    "+th.dim.Render(fmt.Sprintf("… %d earlier lines", total-len(shown))))
			}
			for _, l := range shown {
				out = append(out, "    "+bar+truncate(l, width-6))
			}
		case provider.RoleSystem:
		}
	}
	return append(out, "  "+th.dim.Render(taskMeter(v)))
}

// maxTaskResultLines bounds each subagent result in the transcript view.
const maxTaskResultLines = 40
