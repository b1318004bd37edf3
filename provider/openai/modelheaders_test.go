package openai

import (
	"context"
	"testing"
)

// TestModelHeadersFollowTheRequestModel covers per-model headers chosen per
// request: after the model changes (as /model or a resumed session does),
// the next request carries the new model's headers and none of the old
// one's, and the model list carries the configured model's.
func TestModelHeadersFollowTheRequestModel(t *testing.T) {
	t.Parallel()
	g := newGateway(t, streamOf(sse(finishChunk("stop"), "[DONE]")))
	p, _ := newProvider(t, g, func(c *Config) {
		c.Model = "model-a"
		c.Headers = map[string]string{"X-Common": "all"}
		c.ModelHeaders = map[string]map[string]string{
			"model-a": {"X-Title": "for-a", "X-Only-A": "a"},
			"model-b": {"X-Title": "for-b"},
		}
	})
	for i, model := range []string{"model-a", "model-b", ""} {
		req := userRequest("hi")
		req.Model = model
		s, err := p.Stream(context.Background(), req)
		if err != nil {
			t.Fatalf("request %d: Stream: %v", i, err)
		}
		if _, _, err := drain(t, s); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
	}
	// Only the list request's headers matter here, not its answer.
	_, _ = p.ListModels(context.Background())
	for i, want := range []struct{ title, onlyA string }{
		{"for-a", "a"}, // model-a
		{"for-b", ""},  // switched to model-b: nothing of model-a's
		{"for-a", "a"}, // no model named: the configured one
		{"for-a", "a"}, // the model list: the configured one
	} {
		h := g.request(i).header
		if h.Get("X-Title") != want.title || h.Get("X-Only-A") != want.onlyA || h.Get("X-Common") != "all" {
			t.Errorf("request %d headers = %v, want X-Title %q, X-Only-A %q, X-Common all", i, h, want.title, want.onlyA)
		}
	}
}
