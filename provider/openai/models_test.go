package openai

import (
	"context"
	"reflect"
	"testing"

	"github.com/ternhq/tern/provider"
)

func TestListModels(t *testing.T) {
	t.Parallel()
	g := newGateway(t, response{header: map[string]string{"Content-Type": "application/json"}, parts: []string{
		`{"object":"list","data":[{"id":"qwen2.5-coder:7b","object":"model"},{"id":"anthropic/claude-sonnet-4","object":"model"},{"id":""},{"id":"qwen2.5-coder:7b"}]}`,
	}})
	p, _ := newProvider(t, g, func(c *Config) { c.Headers = map[string]string{"X-Title": "tern"} })
	got, err := p.ListModels(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"anthropic/claude-sonnet-4", "qwen2.5-coder:7b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("models = %q, want %q", got, want)
	}
	r := g.request(0)
	if r.path != "/v1/models" || r.header.Get("X-Title") != "tern" || r.header.Get("Authorization") != "Bearer sk-test" {
		t.Errorf("request %s with headers %v", r.path, r.header)
	}
}

func TestListModelsErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		resp response
		kind provider.ErrorKind
		says []string
	}{
		{"401", failWith(401, `{"error":{"message":"invalid key"}}`, nil), provider.ErrAuth, []string{"LLM_API_KEY", "tern doctor"}},
		{"404", failWith(404, `404 page not found`, map[string]string{"Content-Type": "text/plain"}), provider.ErrBadRequest, []string{"/v1/models", "base URL"}},
		{"429", failWith(429, `{"error":{"message":"slow"}}`, map[string]string{"Retry-After": "2"}), provider.ErrRateLimited, []string{"slow"}},
		{"html with 200", response{header: map[string]string{"Content-Type": "text/html"}, parts: []string{"<!doctype html><p>hi</p>"}},
			provider.ErrProtocol, []string{"not JSON", "/v1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := newGateway(t, tc.resp)
			p, _ := newProvider(t, g)
			_, err := p.ListModels(context.Background())
			pe := providerError(t, err, tc.kind)
			mustContain(t, pe.Message, tc.says...)
			if g.count.Load() != 1 {
				t.Errorf("%d requests: listing models is not retried", g.count.Load())
			}
		})
	}
}

func TestListModelsRefused(t *testing.T) {
	t.Parallel()
	p, err := New(Config{BaseURL: deadURL(t)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.ListModels(context.Background())
	pe := providerError(t, err, provider.ErrNetwork)
	mustContain(t, pe.Message, "connection refused")
}
