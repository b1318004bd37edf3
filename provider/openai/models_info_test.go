package openai

import (
	"context"
	"reflect"
	"testing"

	"github.com/ternhq/tern/provider"
)

func TestListModelInfoWindows(t *testing.T) {
	t.Parallel()
	g := newGateway(t, response{header: map[string]string{"Content-Type": "application/json"}, parts: []string{`{"object":"list","data":[
		{"id":"or/model","context_length":200000,"top_provider":{"context_length":100000}},
		{"id":"vllm-model","max_model_len":32768},
		{"id":"groq-model","context_window":"131072"},
		{"id":"lmstudio","max_context_length":8192.0},
		{"id":"nested","top_provider":{"context_length":65536}},
		{"id":"plain","object":"model"},
		{"id":"bad","context_length":-5},
		{"id":""}
	]}`}})
	p, _ := newProvider(t, g)
	got, err := p.ListModelInfo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []ModelInfo{
		{ID: "bad"}, {ID: "groq-model", ContextWindow: 131072}, {ID: "lmstudio", ContextWindow: 8192},
		{ID: "nested", ContextWindow: 65536}, {ID: "or/model", ContextWindow: 200000}, {ID: "plain"},
		{ID: "vllm-model", ContextWindow: 32768},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("models = %+v\nwant %+v", got, want)
	}
	if r := g.request(0); r.path != "/v1/models" || r.header.Get("Authorization") != "Bearer sk-test" {
		t.Errorf("request %s with headers %v", r.path, r.header)
	}
}

func TestContextWindow(t *testing.T) {
	t.Parallel()
	list := `{"data":[{"id":"test-model","max_model_len":40960},{"id":"other"}]}`
	for _, tc := range []struct {
		id   string
		want int
	}{{"test-model", 40960}, {"other", 0}, {"missing", 0}} {
		g := newGateway(t, response{header: map[string]string{"Content-Type": "application/json"}, parts: []string{list}})
		p, _ := newProvider(t, g)
		got, err := p.ContextWindow(context.Background(), tc.id)
		if err != nil || got != tc.want {
			t.Errorf("ContextWindow(%q) = %d, %v; want %d", tc.id, got, err, tc.want)
		}
	}
}

func TestListModelInfoErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		resp response
		kind provider.ErrorKind
	}{
		{"401", failWith(401, `{"error":{"message":"invalid key"}}`, nil), provider.ErrAuth},
		{"404", failWith(404, `404 page not found`, map[string]string{"Content-Type": "text/plain"}), provider.ErrBadRequest},
		{"not json", response{header: map[string]string{"Content-Type": "text/html"}, parts: []string{"<!doctype html>"}}, provider.ErrProtocol},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := newGateway(t, tc.resp)
			p, _ := newProvider(t, g)
			_, err := p.ListModelInfo(context.Background())
			providerError(t, err, tc.kind)
		})
	}
}
