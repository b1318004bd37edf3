package agent

import (
	"encoding/json"

	"github.com/ternhq/tern/provider"
)

// ContextBytes breaks down what the next model request will carry, in bytes
// of text, so /context can show where the window goes.
type ContextBytes struct {
	// System is the system prompt without the memory files.
	System int
	// Tools is the JSON of the tool specs sent with every request.
	Tools int
	// Memory is the part of the system prompt that the memory files take.
	Memory int
	// User, Assistant and ToolResults split the conversation by author;
	// Assistant counts the tool calls' names and arguments too.
	User, Assistant, ToolResults int
}

// Total is the sum of all parts.
func (c ContextBytes) Total() int {
	return c.System + c.Tools + c.Memory + c.User + c.Assistant + c.ToolResults
}

// ContextBytes measures the conversation and tool specs the next request
// will send. memoryBytes is the size of the memory files inside the system
// prompt (MemoryBytes of what LoadMemory returned); it is moved from System
// to Memory.
func (a *Agent) ContextBytes(memoryBytes int) ContextBytes {
	var c ContextBytes
	a.mu.Lock()
	specs := a.specs
	a.mu.Unlock()
	if spec, err := json.Marshal(specs); err == nil {
		c.Tools = len(spec)
	}
	for _, m := range a.Messages() {
		switch m.Role {
		case provider.RoleSystem:
			c.System += len(m.Content)
		case provider.RoleUser:
			c.User += len(m.Content)
		case provider.RoleAssistant:
			c.Assistant += len(m.Content)
			for _, tc := range m.ToolCalls {
				c.Assistant += len(tc.Name) + len(tc.Arguments)
			}
		case provider.RoleTool:
			c.ToolResults += len(m.Content)
		}
	}
	c.Memory = min(max(memoryBytes, 0), c.System)
	c.System -= c.Memory
	return c
}
