package openai

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ternhq/tern/provider"
)

// sent streams req through a gateway and returns the JSON body it received.
func sent(t *testing.T, req provider.Request, edit ...func(*Config)) (map[string]any, recorded) {
	t.Helper()
	g := newGateway(t, streamOf(sse(finishChunk("stop"), "[DONE]")))
	p, _ := newProvider(t, g, edit...)
	s, err := p.Stream(context.Background(), req)
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	if _, _, err := drain(t, s); err != nil {
		t.Fatal(err)
	}
	r := g.request(0)
	var body map[string]any
	if err := json.Unmarshal([]byte(r.body), &body); err != nil {
		t.Fatalf("request body %q: %v", r.body, err)
	}
	return body, r
}

func TestRequestConversation(t *testing.T) {
	t.Parallel()
	req := provider.Request{
		Model: "openrouter/anthropic/claude",
		Messages: []provider.Message{
			{Role: provider.RoleSystem, Content: "be brief"},
			{Role: provider.RoleUser, Content: "list files"},
			{Role: provider.RoleAssistant, Reasoning: "I should call ls.", ToolCalls: []provider.ToolCall{
				{ID: "c1", Name: "bash", Arguments: `{"cmd":"ls"}`},
				{ID: "c2", Name: "pwd"},
			}},
			{Role: provider.RoleTool, ToolCallID: "c1", Content: "a.go\nb.go"},
			{Role: provider.RoleTool, ToolCallID: "c2"},
			{Role: provider.RoleAssistant},
		},
		Tools: []provider.ToolSpec{
			{Name: "bash", Description: "run a command", Parameters: json.RawMessage(`{"type":"object","properties":{"cmd":{"type":"string"}}}`)},
			{Name: "pwd", Description: "print the directory"},
		},
	}
	body, r := sent(t, req)
	if r.path != "/v1/chat/completions" {
		t.Errorf("path = %q", r.path)
	}
	want := map[string]any{
		"model":          "openrouter/anthropic/claude",
		"stream":         true,
		"stream_options": map[string]any{"include_usage": true},
		"messages": []any{
			map[string]any{"role": "system", "content": "be brief"},
			map[string]any{"role": "user", "content": "list files"},
			map[string]any{"role": "assistant", "tool_calls": []any{
				map[string]any{"id": "c1", "type": "function", "function": map[string]any{"name": "bash", "arguments": `{"cmd":"ls"}`}},
				map[string]any{"id": "c2", "type": "function", "function": map[string]any{"name": "pwd", "arguments": "{}"}},
			}},
			map[string]any{"role": "tool", "tool_call_id": "c1", "content": "a.go\nb.go"},
			map[string]any{"role": "tool", "tool_call_id": "c2", "content": "(no output)"},
			map[string]any{"role": "assistant", "content": "(no output)"},
		},
		"tools": []any{
			map[string]any{"type": "function", "function": map[string]any{
				"name": "bash", "description": "run a command",
				"parameters": map[string]any{"type": "object", "properties": map[string]any{"cmd": map[string]any{"type": "string"}}},
			}},
			map[string]any{"type": "function", "function": map[string]any{
				"name": "pwd", "description": "print the directory",
				"parameters": map[string]any{"type": "object", "properties": map[string]any{}},
			}},
		},
	}
	if !reflect.DeepEqual(body, want) {
		got, _ := json.MarshalIndent(body, "", "  ")
		t.Errorf("request body:\n%s", got)
	}
}

func TestRequestLimitsAndValidator(t *testing.T) {
	t.Parallel()
	temp := float32(0.25)
	for _, tc := range []struct {
		model string
		want  map[string]any // fields expected; nil value means absent
	}{
		// Any model id go-openai does not recognise: the common fields.
		{"openrouter/anthropic/claude", map[string]any{"max_tokens": 100.0, "max_completion_tokens": nil, "temperature": 0.25}},
		{"qwen2.5-coder:7b", map[string]any{"max_tokens": 100.0, "max_completion_tokens": nil, "temperature": 0.25}},
		// Ids go-openai validates as reasoning models would be refused
		// before sending with max_tokens or a temperature.
		{"gpt-5-mini", map[string]any{"max_tokens": nil, "max_completion_tokens": 100.0, "temperature": nil}},
		{"o3", map[string]any{"max_tokens": nil, "max_completion_tokens": 100.0, "temperature": nil}},
	} {
		t.Run(tc.model, func(t *testing.T) {
			t.Parallel()
			req := userRequest("hi")
			req.Model, req.MaxTokens, req.Temperature = tc.model, 100, &temp
			body, _ := sent(t, req)
			if body["model"] != tc.model {
				t.Errorf("model = %v, want %q verbatim", body["model"], tc.model)
			}
			for k, v := range tc.want {
				if got, ok := body[k]; v == nil && ok {
					t.Errorf("%s = %v, want it absent", k, got)
				} else if v != nil && !reflect.DeepEqual(got, v) {
					t.Errorf("%s = %v, want %v", k, got, v)
				}
			}
		})
	}
}

func TestRequestModelAndHeaders(t *testing.T) {
	t.Parallel()
	body, r := sent(t, userRequest("hi"), func(c *Config) {
		c.Model = "vendor/model:free"
		c.Headers = map[string]string{"HTTP-Referer": "https://tern.dev", "X-Title": "tern"}
	})
	if body["model"] != "vendor/model:free" {
		t.Errorf("model = %v", body["model"])
	}
	if _, ok := body["max_tokens"]; ok {
		t.Errorf("max_tokens sent without a limit")
	}
	for k, v := range map[string]string{"HTTP-Referer": "https://tern.dev", "X-Title": "tern", "Authorization": "Bearer sk-test"} {
		if got := r.header.Get(k); got != v {
			t.Errorf("header %s = %q, want %q", k, got, v)
		}
	}
	_, r = sent(t, userRequest("hi"), func(c *Config) {
		c.APIKey = ""
		c.Headers = map[string]string{"api-key": "azure-style"}
	})
	if r.header.Get("Authorization") != "" || r.header.Get("Api-Key") != "azure-style" {
		t.Errorf("headers = %v", r.header)
	}
}

func TestRequestRejected(t *testing.T) {
	t.Parallel()
	g := newGateway(t, streamOf(sse(finishChunk("stop"))))
	for _, tc := range []struct {
		name  string
		model string
		req   provider.Request
		says  string
	}{
		{"no model", "", userRequest("hi"), "LLM_MODEL"},
		{"bad schema", "m", provider.Request{Tools: []provider.ToolSpec{{Name: "x", Parameters: json.RawMessage(`{"type":`)}}}, `tool "x"`},
		{"unknown role", "m", provider.Request{Messages: []provider.Message{{Role: "narrator"}}}, `unknown role "narrator"`},
		{"go-openai refuses the model", "text-davinci-003", userRequest("hi"), "text-davinci-003"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, _ := newProvider(t, g, func(c *Config) { c.Model = tc.model })
			_, err := p.Stream(context.Background(), tc.req)
			pe := providerError(t, err, provider.ErrBadRequest)
			mustContain(t, pe.Message, tc.says)
		})
	}
	if n := g.count.Load(); n != 0 {
		t.Errorf("%d requests reached the gateway", n)
	}
}
