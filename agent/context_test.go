package agent

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// requestBytes splits a request the way ContextBytes does, from what was
// actually sent.
func requestBytes(t *testing.T, req provider.Request) (c ContextBytes) {
	t.Helper()
	spec, err := json.Marshal(req.Tools)
	if err != nil {
		t.Fatal(err)
	}
	c.Tools = len(spec)
	for _, m := range req.Messages {
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
	return c
}

func TestContextBytesMatchesTheNextRequest(t *testing.T) {
	t.Parallel()
	read, _, _ := fakeTools()
	read.run = func(_ context.Context, _ json.RawMessage, _ func(string)) tools.Result {
		return tools.Result{Status: tools.StatusOK, Output: "file contents, forty bytes of them......"}
	}
	const system = "system prompt\n## AGENTS.md\nbe brief\n"
	h := newHarness(t, tools.NewRegistry(read), func(o *Options) { o.System = system },
		calls("read_file", `{"path":"a.go"}`), answer("it is ", "fine"), answer("second"))

	empty := h.a.ContextBytes(0)
	if empty.User+empty.Assistant+empty.ToolResults != 0 || empty.System != len(system) || empty.Tools == 0 {
		t.Fatalf("before any turn: %+v", empty)
	}

	h.turn("look at a.go", nil)
	const memory = len("## AGENTS.md\nbe brief\n")
	got := h.a.ContextBytes(memory)
	if got.Memory != memory || got.System != len(system)-memory {
		t.Fatalf("memory not split out of the system prompt: %+v", got)
	}

	h.turn("again", nil)
	reqs := h.prov.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	sent := requestBytes(t, reqs[2])
	sent.User -= len("again") // the one part the next request adds
	sent.Memory, sent.System = memory, sent.System-memory
	if got != sent {
		t.Fatalf("ContextBytes = %+v\nthe next request sent %+v", got, sent)
	}
	if got.ToolResults == 0 || got.Assistant == 0 || got.User == 0 {
		t.Fatalf("a part is missing: %+v", got)
	}
	if got.Total() != got.System+got.Tools+got.Memory+got.User+got.Assistant+got.ToolResults {
		t.Fatalf("Total = %d", got.Total())
	}
}

func TestContextBytesClampsMemory(t *testing.T) {
	t.Parallel()
	read, _, _ := fakeTools()
	h := newHarness(t, tools.NewRegistry(read), nil)
	tests := []struct{ in, memory int }{
		{-5, 0},
		{0, 0},
		{4, 4},
		{1 << 20, len("system prompt")},
	}
	for _, tt := range tests {
		c := h.a.ContextBytes(tt.in)
		if c.Memory != tt.memory || c.System+c.Memory != len("system prompt") {
			t.Errorf("ContextBytes(%d) = %+v, want memory %d", tt.in, c, tt.memory)
		}
	}
}
