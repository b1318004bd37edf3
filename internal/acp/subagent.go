package acp

import (
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tools"
)

// subagentLines is what a task call's subagent did, as the task's tool
// call shows it: a line per call it made, then the answer it is writing.
// Nothing of the subagent becomes a tool call of its own, except a call
// that asks (the permission request needs one).
type subagentLines struct {
	lines  []string
	answer strings.Builder
}

// maxSubagentLines bounds the lines a task's content keeps: the editor is
// sent them again with every update.
const maxSubagentLines = 40

// text is the lines, and with answer the answer so far.
func (s *subagentLines) text(answer bool) string {
	out := strings.Join(s.lines, "\n")
	if answer && s.answer.Len() > 0 {
		out += "\n\n" + s.answer.String()
	}
	return out
}

// subagent projects an event of a task call's subagent into the content of
// the task's tool call: a line when one of its calls ends, the answer when
// its turn ends. Content is replaced on each update, so it is sent at
// those points only, not on every delta.
func (p *projector) subagent(ev agent.Event) {
	c := p.call(ev.Call)
	if c == nil || ev.Sub == nil {
		return
	}
	if c.sub == nil {
		c.sub = &subagentLines{}
	}
	sub := ev.Sub
	switch sub.Kind {
	case agent.EventToolFinished:
		if sub.Call == nil || sub.Result == nil {
			return
		}
		mark := "✓"
		if sub.Result.Status != tools.StatusOK {
			mark = "✗"
		}
		line := "↳ " + toolTitle(sub.Call.Name, parseArgs(sub.Call.Args)) + " " + mark
		if sub.Result.Summary != "" {
			line += " " + firstLine(sub.Result.Summary)
		}
		if len(c.sub.lines) == maxSubagentLines {
			c.sub.lines = append(c.sub.lines[1:], line)
		} else {
			c.sub.lines = append(c.sub.lines, line)
		}
	case agent.EventTextDelta:
		c.sub.answer.WriteString(sub.Text)
		return
	case agent.EventRetrying:
		if sub.Retry != nil && sub.Retry.DiscardPartial {
			c.sub.answer.Reset()
		}
		return
	case agent.EventTurnFinished:
		// The answer arrives whole with the task's result.
		c.sub.answer.Reset()
	case agent.EventHook:
		// A warning of a hook its calls ran shows like the session's.
		p.hookWarning(sub.Hook)
		return
	case agent.EventTurnStarted, agent.EventReasoningDelta, agent.EventToolCallStarted, agent.EventToolCallReady,
		agent.EventApprovalRequested, agent.EventApprovalResolved, agent.EventToolRunning, agent.EventToolOutput,
		agent.EventUsage, agent.EventRequest, agent.EventError, agent.EventCompactionStarted,
		agent.EventCompactionFinished, agent.EventMessageAppended, agent.EventSubagent:
		// Drawn by the lines above, asked by the session (approvals), or
		// the subagent's own bookkeeping.
		return
	}
	p.emit(sdk.UpdateToolCall(c.id, sdk.WithUpdateStatus(sdk.ToolCallStatusInProgress),
		sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(c.sub.text(false)))})))
}
