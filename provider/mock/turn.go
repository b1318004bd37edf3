package mock

import (
	"github.com/ternhq/tern/provider"
)

// turn is what a scene sees of the conversation: the last user message, the
// keyword that chose the scene, and the tool results that arrived after that
// message. Scenes decide their next step from these alone, so replaying the
// same conversation always gives the same answer.
type turn struct {
	// user is the text of the last user message ("" when there is none).
	user string
	// match is where the scene's keyword was found in user.
	match match
	// results are the tool results after the last user message, oldest first.
	results []result
	// toolMessages counts every tool result in the conversation; call ids
	// derive from it so they stay unique across turns.
	toolMessages int
	// msgs is the whole conversation, for scenes that look at all of it
	// (the compaction summary).
	msgs []provider.Message
	// planning is true when the request came in plan mode: changes are
	// planned, not made (see asPlan); accepted when the user accepted the
	// plan of the request (see finishPlan).
	planning, accepted bool
	// canPropose is true when the request offers propose_plan (plan mode).
	canPropose bool
	// canTask is true when the request offers the task tool (subagents);
	// agents are the custom subagents its "agent" parameter names.
	canTask bool
	agents  []string
}

func newTurn(msgs []provider.Message) turn {
	t := turn{msgs: msgs}
	lastUser := -1
	for i, m := range msgs {
		switch m.Role {
		case provider.RoleUser:
			lastUser = i
		case provider.RoleTool:
			t.toolMessages++
		case provider.RoleSystem, provider.RoleAssistant:
		}
	}
	if lastUser < 0 {
		return t
	}
	t.user = msgs[lastUser].Content
	if req, ok := compactedRequest(t.user); ok {
		// Compacted in the middle of a turn: the request being worked on
		// is pinned in the summary, and the results after it continue it.
		t.user = req
	}
	calls := make(map[string]provider.ToolCall)
	for _, m := range msgs[lastUser+1:] {
		switch m.Role {
		case provider.RoleAssistant:
			for _, c := range m.ToolCalls {
				calls[c.ID] = c
			}
		case provider.RoleTool:
			c := calls[m.ToolCallID]
			t.results = append(t.results, parseResult(c.Name, c.Arguments, earlierContent(msgs, m.Content)))
		case provider.RoleSystem, provider.RoleUser:
		}
	}
	return t
}

// unchangedSince matches the agent's answer to a re-read of an unchanged
// file, which points at the earlier result instead of repeating it.
var unchangedSince = lazyRegexp(`unchanged since call (\S+?);`)

// earlierContent is content, or, when it says the file is unchanged since
// an earlier call, that call's result: a model reads it from there.
func earlierContent(msgs []provider.Message, content string) string {
	m := unchangedSince().FindStringSubmatch(content)
	if m == nil {
		return content
	}
	for _, msg := range msgs {
		if msg.Role == provider.RoleTool && msg.ToolCallID == m[1] {
			return msg.Content
		}
	}
	return content
}

// last returns the latest result of a call to one of the named tools.
func (t turn) last(names ...string) (result, bool) {
	for i := len(t.results) - 1; i >= 0; i-- {
		for _, n := range names {
			if t.results[i].tool == n {
				return t.results[i], true
			}
		}
	}
	return result{}, false
}
