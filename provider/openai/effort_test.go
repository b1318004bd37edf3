package openai

import (
	"context"
	"encoding/json"
	"net/url"
	"testing"

	"github.com/ternhq/tern/provider"
)

func TestReasoningEffortInTheBody(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		effort     string
		openRouter bool
		// want is the body's reasoning_effort and reasoning.effort.
		wantField, wantObject string
	}{
		{"chat completions field", "high", false, "high", ""},
		{"OpenRouter's reasoning object", "low", true, "", "low"},
		{"none for a model that does not reason", "", false, "", ""},
		{"none on OpenRouter either", "", true, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := newGateway(t, streamOf(sse(delta(`{"content":"ok"}`), finishChunk("stop"), "[DONE]")))
			p, _ := newProvider(t, g)
			p.cfg.reasoningObject = tc.openRouter
			s, err := p.Stream(context.Background(), provider.Request{
				Messages:        []provider.Message{{Role: provider.RoleUser, Content: "hi"}},
				ReasoningEffort: tc.effort,
			})
			if err != nil {
				t.Fatal(err)
			}
			for s.Next() {
			}
			_ = s.Close()
			var body struct {
				ReasoningEffort string `json:"reasoning_effort"`
				Reasoning       *struct {
					Effort string `json:"effort"`
				} `json:"reasoning"`
				Model string `json:"model"`
			}
			raw := g.request(0).body
			if err := json.Unmarshal([]byte(raw), &body); err != nil {
				t.Fatalf("body is not JSON: %v\n%s", err, raw)
			}
			object := ""
			if body.Reasoning != nil {
				object = body.Reasoning.Effort
			}
			if body.ReasoningEffort != tc.wantField || object != tc.wantObject || body.Model != "test-model" {
				t.Errorf("body = %s; want reasoning_effort %q, reasoning.effort %q", raw, tc.wantField, tc.wantObject)
			}
		})
	}
}

func TestTakesReasoningObject(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]bool{
		"https://openrouter.ai/api/v1": true,
		"https://eu.openrouter.ai/v1":  true,
		"https://api.openai.com/v1":    false,
		"http://localhost:11434/v1":    false,
		"https://notopenrouter.ai/v1":  false,
	} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := takesReasoningObject(u); got != want {
			t.Errorf("takesReasoningObject(%s) = %v, want %v", raw, got, want)
		}
	}
}
