package session

import (
	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
)

// replaySubagent returns the events that show a task call's subagent
// conversation again: each message appended, and each of its calls ready
// and finished, wrapped in EventSubagent under call.
func replaySubagent(turn int, call *agent.Call, msgs []Subagent) []agent.Event {
	if len(msgs) == 0 {
		return nil
	}
	var out []agent.Event
	wrap := func(ev agent.Event) {
		ev.Turn = 1
		out = append(out, agent.Event{Kind: agent.EventSubagent, Turn: turn, Call: call, Agent: msgs[0].Agent, Sub: &ev})
	}
	calls := map[string]*agent.Call{}
	for _, m := range msgs {
		msg := provider.Message{Role: provider.Role(m.Role), Content: m.Text, Reasoning: m.Reasoning, ToolCallID: m.ToolCallID}
		switch msg.Role {
		case provider.RoleUser:
			wrap(agent.Event{Kind: agent.EventTurnStarted, Text: m.Text})
		case provider.RoleAssistant:
			for _, c := range m.ToolCalls {
				msg.ToolCalls = append(msg.ToolCalls, provider.ToolCall(c))
			}
			wrap(agent.Event{Kind: agent.EventMessageAppended, Message: &msg, Interrupted: m.Interrupted})
			for _, c := range m.ToolCalls {
				ac := &agent.Call{ID: c.ID, Name: c.Name, Args: []byte(c.Arguments)}
				calls[c.ID] = ac
				wrap(agent.Event{Kind: agent.EventToolCallReady, Call: ac})
			}
		case provider.RoleTool:
			ac := calls[m.ToolCallID]
			if ac == nil {
				ac = &agent.Call{ID: m.ToolCallID, Name: m.Tool}
			}
			status, _ := toolStatus(m.Status)
			res := &agent.ToolResult{Status: status, Output: m.Text, Summary: m.Summary}
			wrap(agent.Event{Kind: agent.EventMessageAppended, Message: &msg, Call: ac, Result: res})
			wrap(agent.Event{Kind: agent.EventToolFinished, Call: ac, Result: res})
		case provider.RoleSystem:
		}
	}
	return out
}
