package acp

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/hooks"
)

// projector turns one session's agent events into the session/update
// notifications an editor draws. It regroups a tool call's events into one
// tool_call and its tool_call_updates, renames tern's terms into ACP's, and
// drops what an editor has no place for (see docs/acp.md). One projector
// serves one session; it is not safe for concurrent use.
type projector struct {
	cwd string
	// replay is set while a loaded session's history is projected: the
	// user's messages are sent back and nothing is asked.
	replay bool
	turn   int
	// calls are the turn's tool calls by the agent's call id.
	calls map[string]*callState
	// attempt are the call ids the model request in flight started, which
	// a retry that discards partial output drops.
	attempt []string
	// stop is a stop reason an EventError announced for the turn
	// (max_tokens, refusal); "" for none.
	stop sdk.StopReason
	// proposed is the propose_plan call that proposed a plan in the turn;
	// "" for none.
	proposed sdk.ToolCallId
	out      []sdk.SessionUpdate
	// now is the clock live output is paced by.
	now func() time.Time
}

// callState is what the projection remembers of one tool call.
type callState struct {
	id   sdk.ToolCallId
	name string
	args callArgs
	raw  json.RawMessage
	// diff is the call's diff content: from the approval's preview, else
	// from its arguments.
	diff []sdk.ToolCallContent
	// live is the tail of a running command's output; liveSent when it
	// was last sent.
	live     tailBuffer
	liveSent time.Time
	// sub is what a task call's subagent did so far; nil for other calls.
	sub *subagentLines
}

// liveEvery is how often a running command's output is re-sent; liveTail
// is how much of its end is.
const (
	liveEvery = 250 * time.Millisecond
	liveTail  = 8 << 10
)

// tailBuffer keeps the last liveTail bytes written to it, cut at a line
// start where it can be.
type tailBuffer struct{ b []byte }

func (t *tailBuffer) add(s string) {
	t.b = append(t.b, s...)
	if len(t.b) > 2*liveTail {
		t.b = append(t.b[:0], t.b[len(t.b)-liveTail:]...)
	}
}

// String is the tail, from the first line start within the last liveTail
// bytes.
func (t *tailBuffer) String() string {
	b := t.b
	if len(b) > liveTail {
		b = b[len(b)-liveTail:]
		if i := bytes.IndexByte(b, '\n'); i >= 0 && i < len(b)-1 {
			b = b[i+1:]
		}
		return "…\n" + strings.ToValidUTF8(string(b), "")
	}
	return string(b)
}

func newProjector(cwd string) *projector {
	return &projector{cwd: cwd, calls: map[string]*callState{}, now: time.Now}
}

// project returns the notifications for ev; the slice is reused by the
// next call. Approval requests are answered by the session (ask), which
// needs the call this projection keeps: see permission.
func (p *projector) project(ev agent.Event) []sdk.SessionUpdate {
	p.out = p.out[:0]
	switch ev.Kind {
	case agent.EventTurnStarted:
		// A new turn: its calls start afresh. The editor shows the prompt
		// it sent, so only a replay sends it back.
		p.turn = ev.Turn
		clear(p.calls)
		p.attempt = p.attempt[:0]
		p.stop = ""
		p.proposed = ""
		if p.replay && ev.Text != "" {
			p.emit(sdk.UpdateUserMessageText(ev.Text))
		}
	case agent.EventTextDelta:
		if ev.Text != "" {
			p.emit(sdk.UpdateAgentMessageText(ev.Text))
		}
	case agent.EventReasoningDelta:
		if ev.Text != "" {
			p.emit(sdk.UpdateAgentThoughtText(ev.Text))
		}
	case agent.EventToolCallStarted:
		c := p.call(ev.Call)
		if c == nil {
			break
		}
		p.attempt = append(p.attempt, ev.Call.ID)
		p.emit(sdk.StartToolCall(c.id, c.name, sdk.WithStartKind(toolKind(c.name)), sdk.WithStartStatus(sdk.ToolCallStatusPending)))
	case agent.EventToolCallReady:
		c := p.call(ev.Call)
		if c == nil {
			break
		}
		c.raw = ev.Call.Args
		c.args = parseArgs(ev.Call.Args)
		c.diff = argsDiff(p.cwd, c.name, c.args)
		opts := []sdk.ToolCallUpdateOpt{
			sdk.WithUpdateTitle(toolTitle(c.name, c.args)),
			sdk.WithUpdateRawInput(rawInput(c.raw)),
		}
		if loc := locations(p.cwd, c.name, c.args); loc != nil {
			opts = append(opts, sdk.WithUpdateLocations(loc))
		}
		if c.diff != nil {
			opts = append(opts, sdk.WithUpdateContent(c.diff))
		}
		p.emit(sdk.UpdateToolCall(c.id, opts...))
	case agent.EventApprovalRequested:
		// The notification shows what is asked; the request itself goes
		// out from the session (ask), which waits for the answer.
		if ev.Approval == nil {
			break
		}
		c := p.call(&ev.Approval.Call)
		if c == nil {
			break
		}
		if d := previewDiff(p.cwd, ev.Approval.Preview); d != nil {
			c.diff = d
		}
		if c.diff != nil {
			p.emit(sdk.UpdateToolCall(c.id, sdk.WithUpdateContent(c.diff)))
		}
	case agent.EventApprovalResolved:
		// How the call ends says it: a denied call fails with the reason.
	case agent.EventToolRunning:
		if c := p.call(ev.Call); c != nil {
			p.emit(sdk.UpdateToolCall(c.id, sdk.WithUpdateStatus(sdk.ToolCallStatusInProgress)))
		}
	case agent.EventToolOutput:
		// A command's live output: ACP replaces a call's content on each
		// update, so its tail is re-sent at most every liveEvery, not on
		// every chunk (which would cost the square of the output); the
		// whole (capped) output arrives with the completion.
		if c := p.call(ev.Call); c != nil && ev.Text != "" {
			c.live.add(ev.Text)
			if now := p.now(); now.Sub(c.liveSent) >= liveEvery {
				c.liveSent = now
				p.emit(sdk.UpdateToolCall(c.id, sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(fence(c.live.String())))})))
			}
		}
	case agent.EventToolFinished:
		p.finishCall(ev)
	case agent.EventUsage, agent.EventRequest:
		// Metering: in the session log and /cost, not drawn by editors.
	case agent.EventRetrying:
		if ev.Retry != nil && ev.Retry.DiscardPartial {
			p.discardAttempt()
		}
	case agent.EventTurnFinished:
		// Ends the prompt request (stopReason); no notification.
	case agent.EventError:
		switch ev.Text {
		case agent.NoteAnswerCutOff:
			p.stop = sdk.StopReasonMaxTokens
		case agent.NoteAnswerFiltered:
			p.stop = sdk.StopReasonRefusal
		}
	case agent.EventCompactionStarted, agent.EventCompactionFinished:
		// The conversation shrank; the editor's transcript stays as it is.
	case agent.EventHook:
		p.hookWarning(ev.Hook)
	case agent.EventMessageAppended:
		// The conversation's record: the editor already has each part from
		// the chunks and tool calls that streamed it.
	case agent.EventSubagent:
		p.subagent(ev)
	}
	return p.out
}

func (p *projector) emit(u sdk.SessionUpdate) { p.out = append(p.out, u) }

// hookWarning shows a hook run that failed, crashed or timed out as agent
// text; other runs are not shown (a denial reaches the editor as the
// call's result).
func (p *projector) hookWarning(r *hooks.Run) {
	if r != nil && r.Warning() != "" {
		p.emit(sdk.UpdateAgentMessageText("\n> warning: " + r.Warning() + "\n\n"))
	}
}

// call returns the state of c, made on first sight; nil for no call.
func (p *projector) call(c *agent.Call) *callState {
	if c == nil || c.ID == "" {
		return nil
	}
	if s, ok := p.calls[c.ID]; ok {
		return s
	}
	s := &callState{id: sdk.ToolCallId("t" + strconv.Itoa(p.turn) + "-" + c.ID), name: c.Name}
	if len(c.Args) > 0 {
		s.raw = c.Args
		s.args = parseArgs(c.Args)
	}
	p.calls[c.ID] = s
	return s
}

// finishCall completes a tool call: its status, its output, the diff of an
// edit, and for todo_write the plan.
func (p *projector) finishCall(ev agent.Event) {
	c := p.call(ev.Call)
	if c == nil || ev.Result == nil {
		return
	}
	r := ev.Result
	status := sdk.ToolCallStatusFailed
	if r.Status == tools.StatusOK {
		status = sdk.ToolCallStatusCompleted
	}
	var content []sdk.ToolCallContent
	if c.sub != nil && len(c.sub.lines) > 0 {
		content = append(content, sdk.ToolContent(sdk.TextBlock(c.sub.text(false))))
	}
	if r.Status == tools.StatusOK && c.diff != nil {
		content = append(content, c.diff...)
	}
	text := resultText(c.name, r)
	if c.name == agent.ProposePlanTool && r.Status == tools.StatusOK {
		// The plan itself, for the editor to show; the model's result
		// only says it was shown.
		text = c.args.Plan
		p.proposed = c.id
	}
	if text != "" {
		content = append(content, sdk.ToolContent(sdk.TextBlock(text)))
	}
	raw := map[string]any{"status": r.Status.String()}
	if c.name == tools.RunShellName && r.Status == tools.StatusOK {
		raw["exitCode"] = r.ExitCode
	}
	if r.Summary != "" {
		raw["summary"] = r.Summary
	}
	opts := []sdk.ToolCallUpdateOpt{sdk.WithUpdateStatus(status), sdk.WithUpdateRawOutput(raw)}
	if content != nil {
		opts = append(opts, sdk.WithUpdateContent(content))
	}
	p.emit(sdk.UpdateToolCall(c.id, opts...))
	if c.name == tools.TodoWriteName && r.Status == tools.StatusOK {
		p.emit(planUpdate(c.args.Items))
	}
	delete(p.calls, ev.Call.ID)
}

// resultText is the text a finished call shows: a command's output in a
// code block, an edit's summary (its diff is shown), a failure's reason,
// otherwise the output the model received.
func resultText(name string, r *agent.ToolResult) string {
	if r.Status != tools.StatusOK {
		return r.Output
	}
	switch name {
	case tools.RunShellName:
		if r.Output == "" {
			return ""
		}
		return fence(r.Output)
	case tools.EditFileName, tools.WriteFileName:
		return r.Summary
	case tools.TodoWriteName:
		return ""
	}
	return r.Output
}

// fence puts text in a Markdown code block longer than any backtick run in
// it, so the output cannot close it.
func fence(text string) string {
	n, run := 3, 0
	for i := 0; i < len(text); i++ {
		if text[i] == '`' {
			run++
			if run >= n {
				n = run + 1
			}
			continue
		}
		run = 0
	}
	f := strings.Repeat("`", n)
	return f + "\n" + strings.TrimRight(text, "\n") + "\n" + f
}

// discardAttempt fails the calls a retried request had started: the
// retry's answer brings its own.
func (p *projector) discardAttempt() {
	for _, id := range p.attempt {
		c, ok := p.calls[id]
		if !ok {
			continue
		}
		p.emit(sdk.UpdateToolCall(c.id, sdk.WithUpdateStatus(sdk.ToolCallStatusFailed),
			sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock("Dropped: the model's answer broke off and is being retried."))})))
		delete(p.calls, id)
	}
	p.attempt = p.attempt[:0]
	p.emit(sdk.UpdateAgentMessageText("\n\n[the answer broke off; retrying]\n\n"))
}

// planUpdate is todo_write's list as an ACP plan.
func planUpdate(items []tools.TodoItem) sdk.SessionUpdate {
	entries := make([]sdk.PlanEntry, 0, len(items))
	for _, it := range items {
		entries = append(entries, sdk.PlanEntry{Content: it.Text, Priority: sdk.PlanEntryPriorityMedium, Status: planStatus(it.Status)})
	}
	return sdk.SessionUpdate{Plan: &sdk.SessionUpdatePlan{Entries: entries, SessionUpdate: "plan"}}
}

func planStatus(s tools.TodoStatus) sdk.PlanEntryStatus {
	switch s {
	case tools.TodoInProgress:
		return sdk.PlanEntryStatusInProgress
	case tools.TodoDone:
		return sdk.PlanEntryStatusCompleted
	case tools.TodoPending:
		return sdk.PlanEntryStatusPending
	}
	return sdk.PlanEntryStatusPending
}

// rawInput is a call's arguments as JSON for the editor: the object the
// model sent, or the text of arguments that are not valid JSON.
func rawInput(raw json.RawMessage) any {
	if len(raw) == 0 {
		return map[string]any{}
	}
	if json.Valid(raw) {
		return raw
	}
	return map[string]any{"raw_arguments": string(raw)}
}
