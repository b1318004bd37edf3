package mock

import (
	"strings"
	"testing"
)

func TestDelegatedTasks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rest   string
		agents []string
		agent  string
		parts  []string
	}{
		{rest: ": tour the code", parts: []string{"tour the code"}},
		{rest: " to a subagent: read main.go; search for TODO ", parts: []string{"read main.go", "search for TODO"}},
		{rest: " to tester: run go test ./...", agents: []string{"tester"}, agent: "tester", parts: []string{"run go test ./..."}},
		{rest: " to nobody: run it", agents: []string{"tester"}, parts: []string{"to nobody: run it"}},
		{rest: "", parts: nil},
	}
	for _, tt := range tests {
		name, rest := delegatedAgent(tt.rest, tt.agents)
		parts := delegatedParts(rest)
		if name != tt.agent || strings.Join(parts, "|") != strings.Join(tt.parts, "|") {
			t.Errorf("%q: agent %q parts %q, want %q %q", tt.rest, name, parts, tt.agent, tt.parts)
		}
	}
	if d := describe("read the parser and tell me where it starts"); d != "Read the parser and tell me" {
		t.Errorf("describe: %q", d)
	}
}
