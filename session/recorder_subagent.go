package session

import (
	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
)

// subagentLocked records an event of a task call's subagent: each message
// it appends as a subagent record, its requests and usage with the task's
// call id, its approvals. Its streamed deltas are not written: the
// messages hold what it kept. It reports whether the log must be synced.
func (r *Recorder) subagentLocked(ev agent.Event) bool {
	sub, call := ev.Sub, ev.Call
	if sub == nil || call == nil {
		return false
	}
	switch sub.Kind {
	case agent.EventMessageAppended:
		if sub.Message == nil {
			return false
		}
		r.appendLocked(subagentRecord(call.ID, ev.Agent, sub))
		return sub.Message.Role == provider.RoleTool
	case agent.EventUsage:
		rec := Usage{Prompt: sub.Usage.PromptTokens, Completion: sub.Usage.CompletionTokens, Cached: sub.Usage.CachedPromptTokens, Task: call.ID}
		if rs := sub.Response; rs != nil {
			rec.Estimated = rs.Estimated
			rec.FirstTokenMS, rec.DurationMS = rs.FirstToken.Milliseconds(), rs.Duration.Milliseconds()
		}
		r.appendLocked(rec)
	case agent.EventRequest:
		if q := sub.Request; q != nil {
			r.appendLocked(Request{
				Step: q.Step, Attempt: q.Attempt, Bytes: q.Bytes, Messages: q.Messages,
				ToolResults: q.ToolResults, ToolResultBytes: q.ToolResultBytes, ToolsBytes: q.ToolsBytes,
				PrefixBytes: q.PrefixBytes, Tokens: q.Tokens, Task: call.ID,
			})
		}
	case agent.EventApprovalResolved:
		// The subagent's grants are its own: the approval is kept, no
		// grant record that a resume would hand the session.
		rec := Approval{Decision: decisionOf(sub.Decision.Kind), Auto: sub.Decision.Auto, Message: sub.Decision.Message}
		if sub.Call != nil {
			rec.CallID, rec.Tool = sub.Call.ID, sub.Call.Name
		}
		if sub.Approval != nil {
			rec.RequestID, rec.Scope = sub.Approval.ID, sub.Approval.Scope.Key
		}
		r.appendLocked(rec)
	case agent.EventTurnStarted, agent.EventTextDelta, agent.EventReasoningDelta, agent.EventToolCallStarted,
		agent.EventToolCallReady, agent.EventApprovalRequested, agent.EventToolRunning, agent.EventToolOutput,
		agent.EventToolFinished, agent.EventRetrying, agent.EventTurnFinished, agent.EventError,
		agent.EventCompactionStarted, agent.EventCompactionFinished, agent.EventHook, agent.EventSubagent:
		// Progress, or held in the messages; the task's result says how
		// the subagent ended.
	}
	return false
}

// subagentRecord is the record of a message a subagent appended.
func subagentRecord(callID, name string, ev *agent.Event) Subagent {
	m := ev.Message
	rec := Subagent{CallID: callID, Agent: name, Role: string(m.Role), Text: m.Content, Reasoning: m.Reasoning, Interrupted: ev.Interrupted}
	for _, c := range m.ToolCalls {
		rec.ToolCalls = append(rec.ToolCalls, ToolCall(c))
	}
	if m.Role == provider.RoleTool {
		rec.ToolCallID = m.ToolCallID
		if ev.Call != nil {
			rec.Tool = ev.Call.Name
		}
		if res := ev.Result; res != nil {
			rec.Text, rec.Status, rec.Summary = res.Output, statusOf(res.Status), res.Summary
		}
	}
	return rec
}
