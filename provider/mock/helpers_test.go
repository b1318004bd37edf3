package mock

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ternhq/tern/provider"
)

// toolSpecs are the six real tools' names, as the agent offers them.
func toolSpecs() []provider.ToolSpec {
	var out []provider.ToolSpec
	for _, n := range []string{"read_file", "list_files", "grep", "edit_file", "write_file", "run_shell"} {
		out = append(out, provider.ToolSpec{Name: n, Description: "the " + n + " tool", Parameters: json.RawMessage(`{"type":"object"}`)})
	}
	return out
}

func request(msgs ...provider.Message) provider.Request {
	return provider.Request{Model: "mock", Messages: msgs, Tools: toolSpecs()}
}

func user(text string) provider.Message {
	return provider.Message{Role: provider.RoleUser, Content: text}
}

// collect streams one request to the end and returns its deltas.
func collect(t *testing.T, p *Provider, req provider.Request) []provider.Delta {
	t.Helper()
	s, err := p.Stream(context.Background(), req)
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	defer func() { _ = s.Close() }()
	var out []provider.Delta
	for s.Next() {
		out = append(out, s.Delta())
	}
	if err := s.Err(); err != nil {
		t.Fatalf("Err: %v", err)
	}
	return out
}

func accumulate(ds []provider.Delta) *provider.Accumulator {
	var a provider.Accumulator
	for _, d := range ds {
		a.Add(d)
	}
	return &a
}

// toolFunc plays the agent's tools: it returns the content of the tool
// message that answers c.
type toolFunc func(c provider.ToolCall) string

// converse runs a whole turn the way the agent does: stream, append the
// assistant message, answer every call with tools, repeat until an answer
// has no calls. It returns the assistant messages in order.
func converse(t *testing.T, user string, tools toolFunc) []provider.Message {
	t.Helper()
	p := New(Options{})
	msgs := []provider.Message{{Role: provider.RoleSystem, Content: "system prompt"}, {Role: provider.RoleUser, Content: user}}
	var answers []provider.Message
	for range 10 {
		acc := accumulate(collect(t, p, request(msgs...)))
		m := provider.Message{Role: provider.RoleAssistant, Content: acc.Text(), Reasoning: acc.Reasoning(), ToolCalls: acc.ToolCalls()}
		msgs = append(msgs, m)
		answers = append(answers, m)
		if len(m.ToolCalls) == 0 {
			return answers
		}
		for _, c := range m.ToolCalls {
			msgs = append(msgs, provider.Message{Role: provider.RoleTool, ToolCallID: c.ID, Content: tools(c)})
		}
	}
	t.Fatalf("%q: no final answer after 10 requests", user)
	return nil
}

// arg returns one string argument of a call, failing on invalid JSON.
func arg(t *testing.T, c provider.ToolCall, key string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(c.Arguments), &m); err != nil {
		t.Fatalf("%s arguments %q: %v", c.Name, c.Arguments, err)
	}
	s, _ := m[key].(string)
	return s
}
