package session

import (
	"errors"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// Replay returns the transcript as the agent events that produced it, so an
// interface that renders live events shows a resumed session with the same
// code: per turn TurnStarted, the answer's ReasoningDelta and TextDelta,
// each call's ToolCallReady, ApprovalResolved and ToolFinished, errors as
// EventError, and TurnFinished (cancelled when the turn's last answer was
// interrupted), and compactions as EventCompactionFinished. No approval is
// left pending. Two Usage events end the
// replay: together they sum to the session's token totals, and the last is
// the last request's. Notices (EntryNotice) have no event; render them from
// Entries.
func (st *State) Replay() []agent.Event {
	// Sized up front: grown by doubling, the slice of ~50,000 events of a
	// long session was copied and cleared over and over (pprof of tern -c:
	// growslice was most of Replay).
	out := make([]agent.Event, 0, replayCap(st.Entries))
	for ev := range st.ReplayEach {
		out = append(out, ev)
	}
	return out
}

// ReplayEach yields the events of Replay one at a time, so a long session's
// are never all held at once (about 12 MB of events for 2,000 turns, written
// into memory touched for the first time: pprof of tern -c). Its method
// value is an iter.Seq[agent.Event].
func (st *State) ReplayEach(yield func(agent.Event) bool) {
	ok := true
	emit := func(ev agent.Event) {
		if ok {
			ok = yield(ev)
		}
	}
	var call []agent.Event // one call's events, reused
	open, turn, interrupted := false, 0, false
	end := func() {
		if !open {
			return
		}
		reason := agent.FinishDone
		if interrupted {
			reason = agent.FinishCancelled
		}
		emit(agent.Event{Kind: agent.EventTurnFinished, Turn: turn, Finish: &agent.Finish{Reason: reason}})
		open = false
	}
	for _, e := range st.Entries {
		if !ok {
			return
		}
		switch e.Kind {
		case EntryUser:
			end()
			open, turn, interrupted = true, e.Turn, false
			emit(agent.Event{Kind: agent.EventTurnStarted, Turn: turn, Text: e.Text})
		case EntryAssistant:
			if e.Reasoning != "" {
				emit(agent.Event{Kind: agent.EventReasoningDelta, Turn: turn, Text: e.Reasoning})
			}
			if e.Text != "" {
				emit(agent.Event{Kind: agent.EventTextDelta, Turn: turn, Text: e.Text})
			}
			interrupted = e.Interrupted
		case EntryTool:
			call = appendCall(call[:0], turn, e.Tool)
			for _, ev := range call {
				emit(ev)
			}
			clear(call) // no pointers kept past their use
		case EntryError:
			emit(agent.Event{Kind: agent.EventError, Turn: turn, Text: e.Text, Err: errors.New(e.Text)})
		case EntryNotice:
		case EntryCompaction:
			c := &agent.Compaction{Auto: e.Auto, Message: e.Text}
			if p, ok := agent.ParseCompactMessage(e.Text); ok {
				c.Summary = p.Summary
			}
			emit(agent.Event{Kind: agent.EventCompactionFinished, Turn: turn, Compaction: c})
		}
	}
	// Estimated usage is replayed apart, marked, so it stays marked.
	last := st.LastUsage
	est := st.Estimated
	if st.LastEstimated {
		est = subUsage(est, last)
	}
	rest := subUsage(subUsage(st.Usage, last), est)
	emit(agent.Event{Kind: agent.EventUsage, Turn: turn, Usage: rest})
	if est != (provider.Usage{}) {
		emit(agent.Event{Kind: agent.EventUsage, Turn: turn, Usage: est, Response: &agent.ResponseInfo{Estimated: true}})
	}
	lastEv := agent.Event{Kind: agent.EventUsage, Turn: turn, Usage: last}
	if st.LastEstimated {
		lastEv.Response = &agent.ResponseInfo{Estimated: true}
	}
	emit(lastEv)
	end()
}

// subUsage returns a less b.
func subUsage(a, b provider.Usage) provider.Usage {
	return provider.Usage{
		PromptTokens:       a.PromptTokens - b.PromptTokens,
		CompletionTokens:   a.CompletionTokens - b.CompletionTokens,
		CachedPromptTokens: a.CachedPromptTokens - b.CachedPromptTokens,
	}
}

// replayCap is about how many events Replay makes of entries (a subagent's
// calls can add a few more).
func replayCap(entries []Entry) int {
	n := 4 // the usage events and the last turn's end
	for _, e := range entries {
		switch e.Kind {
		case EntryUser, EntryAssistant:
			n += 2
		case EntryTool:
			n += 4
			if e.Tool != nil {
				n += 2 * len(e.Tool.Subagent)
			}
		case EntryError, EntryNotice, EntryCompaction:
			n++
		}
	}
	return n
}

// appendCall appends the events of one tool call to out.
func appendCall(out []agent.Event, turn int, t *ToolEntry) []agent.Event {
	if t == nil {
		return out
	}
	call := &agent.Call{ID: t.CallID, Name: t.Name}
	if t.Args != "" {
		call.Args = []byte(t.Args)
	}
	// Started before Ready, as live: consumers close the answer in progress
	// when a call starts, so text after the call does not join the text before it.
	started := &agent.Call{ID: t.CallID, Name: t.Name}
	out = append(out,
		agent.Event{Kind: agent.EventToolCallStarted, Turn: turn, Call: started},
		agent.Event{Kind: agent.EventToolCallReady, Turn: turn, Call: call},
	)
	if a := t.Approval; a != nil {
		d := agent.Decision{Kind: decisionKind(a.Decision), Auto: a.Auto, Message: a.Message}
		req := agent.NewApprovalRequest(a.RequestID, *call, 0, tools.Preview{}, agent.Scope{Key: a.Scope})
		req.Reply(d) // answered long ago: nothing waits on it
		out = append(out, agent.Event{Kind: agent.EventApprovalResolved, Turn: turn, Call: call, Approval: req, Decision: d})
	}
	out = append(out, replaySubagent(turn, call, t.Subagent)...)
	if r := t.Result; r != nil {
		status, _ := toolStatus(r.Status)
		out = append(out, agent.Event{Kind: agent.EventToolFinished, Turn: turn, Call: call, Result: &agent.ToolResult{
			Status: status, Output: r.Output, Summary: r.Summary, ExitCode: r.ExitCode,
			Duration: time.Duration(r.DurationMS) * time.Millisecond,
		}})
	}
	return out
}

// decisionKind reads a logged decision back.
func decisionKind(d Decision) agent.DecisionKind {
	switch d {
	case DecisionAllowOnce:
		return agent.AllowOnce
	case DecisionAllowSession:
		return agent.AllowSession
	case DecisionDenied:
		return agent.Deny
	case DecisionDeniedWithMessage:
		return agent.DenyWithMessage
	case DecisionCancelled:
		return agent.Cancelled
	}
	return agent.Deny
}
