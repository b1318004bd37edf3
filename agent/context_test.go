package agent

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ternhq/tern/tools"
)

// TestContextBytesCountsEachPart checks ContextBytes against figures
// counted by hand from the conversation the harness scripts, before any turn
// and after two.
func TestContextBytesCountsEachPart(t *testing.T) {
	t.Parallel()
	read, _, _ := fakeTools()
	read.run = func(_ context.Context, _ json.RawMessage, _ func(string)) tools.Result {
		return tools.Result{Status: tools.StatusOK, Output: "file contents, forty bytes of them......"}
	}
	const system = "system prompt\n## AGENTS.md\nbe brief\n" // 14 + 13 + 9 bytes
	h := newHarness(t, tools.NewRegistry(read), func(o *Options) { o.System = system },
		calls("read_file", `{"path":"a.go"}`), answer("it is ", "fine"), answer("second"))
	// The one tool's spec as the request carries it: 173 bytes.
	const specs = `[{"name":"read_file","description":"fake read_file","parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}}]`

	if got, want := h.a.ContextBytes(0), (ContextBytes{System: 36, Tools: len(specs)}); got != want {
		t.Fatalf("before any turn: ContextBytes = %+v, want %+v", got, want)
	}

	h.turn("look at a.go", nil)
	h.turn("again", nil)
	got := h.a.ContextBytes(22) // "## AGENTS.md\nbe brief\n"
	want := ContextBytes{
		System:    14,              // "system prompt\n"
		Tools:     len(specs),      // 173
		Memory:    22,              // moved out of the system prompt
		User:      12 + 5,          // "look at a.go", "again"
		Assistant: 9 + 15 + 10 + 6, // read_file, {"path":"a.go"}, "it is fine", "second"
		// The tool's 40-byte output in the wrapper the model reads:
		// <tool_result name="read_file" status="ok">\n (43), \n</tool_result> (15).
		ToolResults: 43 + 40 + 15,
	}
	if got != want {
		t.Fatalf("ContextBytes = %+v, want %+v", got, want)
	}
	if got.Total() != 14+173+22+17+40+98 {
		t.Fatalf("Total = %d, want %d", got.Total(), 14+173+22+17+40+98)
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
