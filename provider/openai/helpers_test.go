package openai

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
)

// chunkHead is the envelope OpenAI puts around every streamed delta.
const chunkHead = `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1741570283,"model":"m","system_fingerprint":"fp_1","choices":[{"index":0,"delta":`

// delta wraps a delta object in a full chunk, as OpenAI sends it.
func delta(d string) string {
	return chunkHead + d + `,"logprobs":null,"finish_reason":null}]}`
}

// finishChunk is a chunk with an empty delta and a finish reason.
func finishChunk(reason string) string {
	return chunkHead + `{},"logprobs":null,"finish_reason":"` + reason + `"}]}`
}

// usageChunk is the trailing chunk include_usage adds.
const usageChunk = `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1741570283,"model":"m","choices":[],` +
	`"usage":{"prompt_tokens":120,"completion_tokens":30,"total_tokens":150,"prompt_tokens_details":{"cached_tokens":64}}}`

// sse renders payloads as "data:" events.
func sse(payloads ...string) string {
	var b strings.Builder
	for _, p := range payloads {
		b.WriteString("data: ")
		b.WriteString(p)
		b.WriteString("\n\n")
	}
	return b.String()
}

// gateway is a fake OpenAI-compatible server. Each request is answered by
// the next response in the list (the last one repeats).
type gateway struct {
	t         *testing.T
	srv       *httptest.Server
	mu        sync.Mutex
	responses []response
	requests  []recorded
	count     atomic.Int32
}

// response is one scripted answer: status, headers, and body parts written
// with a flush after each.
type response struct {
	status  int
	header  map[string]string
	parts   []string
	handler http.HandlerFunc // replaces the rest when set
}

// recorded is what the gateway saw of one request.
type recorded struct {
	path   string
	header http.Header
	body   string
}

func newGateway(t *testing.T, responses ...response) *gateway {
	t.Helper()
	g := &gateway{t: t, responses: responses}
	g.srv = httptest.NewServer(http.HandlerFunc(g.serve))
	t.Cleanup(g.srv.Close)
	return g
}

func (g *gateway) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	n := int(g.count.Add(1)) - 1
	g.mu.Lock()
	g.requests = append(g.requests, recorded{path: r.URL.Path, header: r.Header.Clone(), body: string(body)})
	resp := g.responses[min(n, len(g.responses)-1)]
	g.mu.Unlock()
	if resp.handler != nil {
		resp.handler(w, r)
		return
	}
	for k, v := range resp.header {
		w.Header().Set(k, v)
	}
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "text/event-stream")
	}
	w.WriteHeader(cmp.Or(resp.status, http.StatusOK))
	for _, p := range resp.parts {
		_, _ = io.WriteString(w, p)
		w.(http.Flusher).Flush()
	}
}

// request returns the i-th request the gateway saw.
func (g *gateway) request(i int) recorded {
	g.mu.Lock()
	defer g.mu.Unlock()
	if i >= len(g.requests) {
		g.t.Fatalf("gateway saw %d requests, want at least %d", len(g.requests), i+1)
	}
	return g.requests[i]
}

// streamOf is a 200 event-stream response with body parts.
func streamOf(parts ...string) response { return response{parts: parts} }

// failWith is an HTTP error response.
func failWith(status int, body string, header map[string]string) response {
	if header == nil {
		header = map[string]string{}
	}
	if _, ok := header["Content-Type"]; !ok {
		header["Content-Type"] = "application/json"
	}
	return response{status: status, header: header, parts: []string{body}}
}

// newProvider returns a provider for g with quick retries and recorded waits.
func newProvider(t *testing.T, g *gateway, edit ...func(*Config)) (*Provider, *[]time.Duration) {
	t.Helper()
	cfg := Config{BaseURL: g.srv.URL + "/v1", APIKey: "sk-test", Model: "test-model", BaseBackoff: time.Millisecond}
	for _, e := range edit {
		e(&cfg)
	}
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	waits := &[]time.Duration{}
	p.wait = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		*waits = append(*waits, d)
		mu.Unlock()
		return ctx.Err()
	}
	return p, waits
}

// userRequest is a one-message request.
func userRequest(text string) provider.Request {
	return provider.Request{Messages: []provider.Message{{Role: provider.RoleUser, Content: text}}}
}

// drain reads a stream to its end, returning its deltas, the accumulation
// and Err.
func drain(t *testing.T, s provider.Stream) ([]provider.Delta, *provider.Accumulator, error) {
	t.Helper()
	defer func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	}()
	var acc provider.Accumulator
	var ds []provider.Delta
	for s.Next() {
		d := s.Delta()
		ds = append(ds, d)
		acc.Add(d)
	}
	return ds, &acc, s.Err()
}

// run streams userRequest("hi") from p and drains it; a Stream error is
// returned as the error.
func run(t *testing.T, p *Provider) ([]provider.Delta, *provider.Accumulator, error) {
	t.Helper()
	s, err := p.Stream(context.Background(), userRequest("hi"))
	if err != nil {
		return nil, &provider.Accumulator{}, err
	}
	return drain(t, s)
}

// providerError asserts err is a *provider.Error of kind and returns a copy.
func providerError(t *testing.T, err error, kind provider.ErrorKind) provider.Error {
	t.Helper()
	var pe *provider.Error
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *provider.Error", err, err)
	}
	if pe.Kind != kind {
		t.Fatalf("error kind = %s, want %s (%v)", pe.Kind, kind, pe)
	}
	return *pe
}

// mustContain fails unless s contains every part.
func mustContain(t *testing.T, s string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(s, p) {
			t.Errorf("%q does not contain %q", s, p)
		}
	}
}

// kinds lists the kinds of ds, for failure messages.
func kinds(ds []provider.Delta) string {
	var b strings.Builder
	for i, d := range ds {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprint(&b, d.Kind)
	}
	return b.String()
}

// joinedKinds is kinds with runs of text or of reasoning written once: the
// stream may join the pieces of a burst, and how many it joins depends on
// how the bytes arrived.
func joinedKinds(ds []provider.Delta) string {
	var b strings.Builder
	for i, d := range ds {
		if i > 0 && d.Kind == ds[i-1].Kind && (d.Kind == provider.DeltaText || d.Kind == provider.DeltaReasoning) {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprint(&b, d.Kind)
	}
	return b.String()
}

// quoteJSON renders s as a JSON string.
func quoteJSON(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}
