package headless

import "github.com/ternhq/tern/agent"

// TypeItemSubagent is the type of the lines that carry a subagent's events.
const TypeItemSubagent = "item.subagent"

// ItemSubagent nests one line of a subagent's own stream under the item of
// the task call that started it: Event is that line as the subagent's
// stream would have it (turn.started with the task's prompt, its items,
// request.completed, turn.completed), its turn numbering the subagent's.
type ItemSubagent struct {
	Type    string `json:"type"`
	Version int    `json:"version"`
	Turn    int    `json:"turn"`
	// ItemID is the task call's item.
	ItemID string `json:"item_id"`
	// Agent names a custom subagent; omitted for the default one.
	Agent string  `json:"agent,omitempty"`
	Event Message `json:"event"`
}

// MessageType returns the line's "type".
func (ItemSubagent) MessageType() string { return TypeItemSubagent }

// subagent projects a subagent's event with a projector of its own and
// nests what it gives under the task's item.
func (p *Projector) subagent(ev agent.Event) []Message {
	if ev.Sub == nil || ev.Call == nil {
		return nil
	}
	if p.children == nil {
		p.children = map[string]*Projector{}
	}
	child := p.children[ev.Call.ID]
	if child == nil {
		child = NewProjector(p.session)
		p.children[ev.Call.ID] = child
	}
	// The task call started when the agent kept the answer that asked
	// for it, before the call ran.
	c := p.call(ev.Call)
	var out []Message
	for _, m := range child.Project(*ev.Sub) {
		out = append(out, ItemSubagent{Type: TypeItemSubagent, Version: Version, Turn: p.turn, ItemID: c.id, Agent: ev.Agent, Event: m})
	}
	return out
}
