package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/provider/mock"
	"github.com/ternhq/tern/provider/openai"
	"github.com/ternhq/tern/tools"
)

// envelopeMax bounds what a request body holds besides the messages and
// tool specs the meter counts: the model id, stream options, token limit.
const envelopeMax = 200

// meterGateway is an OpenAI-compatible gateway that records each request
// body. It answers a conversation without tool results with a read_file
// call, and one with results with text. With usage it reports usage
// (prompt = bytes/4, as a stand-in), else none.
type meterGateway struct {
	usage bool
	delay time.Duration

	mu     sync.Mutex
	bodies [][]byte
}

func (g *meterGateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	g.mu.Lock()
	g.bodies = append(g.bodies, body)
	g.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(s string) {
		_, _ = fmt.Fprintf(w, "data: %s\n\n", s)
		w.(http.Flusher).Flush()
	}
	time.Sleep(g.delay)
	if bytes.Contains(body, []byte(`"role":"tool"`)) {
		chunk(`{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"It holds <main> & more."},"finish_reason":null}]}`)
		chunk(`{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`)
	} else {
		chunk(`{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"a.go\"}"}}]},"finish_reason":null}]}`)
		chunk(`{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`)
	}
	if g.usage {
		chunk(fmt.Sprintf(`{"id":"c","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":%d,"completion_tokens":7,"prompt_tokens_details":{"cached_tokens":64}}}`, len(body)/4))
	}
	chunk("[DONE]")
}

func (g *meterGateway) body(i int) []byte {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.bodies[i]
}

// gatewayHarness runs an agent on the openai provider against g, with a
// read_file tool whose output has characters JSON escapes.
func gatewayHarness(t *testing.T, g *meterGateway) *harness {
	t.Helper()
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	p, err := openai.New(openai.Config{BaseURL: srv.URL + "/v1", APIKey: "sk-test", Model: "test-model"})
	if err != nil {
		t.Fatal(err)
	}
	read, _, _ := fakeTools()
	read.run = func(context.Context, json.RawMessage, func(string)) tools.Result {
		return tools.Result{Status: tools.StatusOK, Output: "1\tpackage main\n2\t// a < b && c > d, \"quoted\"\n3\tfunc main() {}\n"}
	}
	h := newHarness(t, tools.NewRegistry(read), func(o *Options) { o.Provider = p })
	h.metered = true
	return h
}

// bodyParts decodes what a request body carries.
type bodyParts struct {
	Messages []json.RawMessage `json:"messages"`
	Tools    []json.RawMessage `json:"tools"`
}

func decodeBody(t *testing.T, b []byte) bodyParts {
	t.Helper()
	var p bodyParts
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatalf("request body: %v", err)
	}
	return p
}

func TestMeterAgainstGateway(t *testing.T) {
	t.Parallel()
	for _, reports := range []bool{true, false} {
		t.Run(fmt.Sprintf("usage reported %v", reports), func(t *testing.T) {
			t.Parallel()
			g := &meterGateway{usage: reports, delay: 5 * time.Millisecond}
			h := gatewayHarness(t, g)
			evs := h.turn("what is in a.go?", nil)
			reqs, uses := eventsOf(evs, EventRequest), eventsOf(evs, EventUsage)
			if len(reqs) != 2 || len(uses) != 2 {
				t.Fatalf("%d request and %d usage events, want 2 and 2: %s", len(reqs), len(uses), kindsString(kinds(evs)))
			}
			var prevMsgs []byte
			for i, ev := range reqs {
				info := ev.Request
				body := g.body(i)
				parts := decodeBody(t, body)
				// The messages and tools as the gateway received them, each
				// exactly as encoded: the meter counts these bytes.
				msgs := []byte("[" + string(bytes.Join(rawBytes(parts.Messages), []byte(","))) + "]")
				toolsJSON := []byte("[" + string(bytes.Join(rawBytes(parts.Tools), []byte(","))) + "]")
				if got, want := info.Bytes, len(msgs)+len(toolsJSON); got != want {
					t.Errorf("request %d: Bytes = %d, the body's messages and tools are %d", i+1, got, want)
				}
				if env := len(body) - info.Bytes; env < 0 || env > envelopeMax {
					t.Errorf("request %d: body %d bytes, metered %d: the envelope is not %d bytes", i+1, len(body), info.Bytes, env)
				}
				if info.Messages != len(parts.Messages) || info.ToolsBytes != len(toolsJSON) || info.Step != i+1 || info.Attempt != 1 {
					t.Errorf("request %d: %+v; body has %d messages, tools %d bytes", i+1, *info, len(parts.Messages), len(toolsJSON))
				}
				toolBytes, results := 0, 0
				for _, m := range parts.Messages {
					if bytes.Contains(m, []byte(`"role":"tool"`)) {
						toolBytes += len(m)
						results++
					}
				}
				if info.ToolResultBytes != toolBytes || info.ToolResults != results {
					t.Errorf("request %d: tool results %d in %d bytes, the body has %d in %d", i+1, info.ToolResults, info.ToolResultBytes, results, toolBytes)
				}
				if prevMsgs != nil {
					if !bytes.HasPrefix(msgs, prevMsgs[:len(prevMsgs)-1]) {
						t.Errorf("request %d does not start with the previous request's messages", i+1)
					}
					if info.PrefixBytes != len(prevMsgs)-1 {
						t.Errorf("request %d: PrefixBytes = %d, want %d", i+1, info.PrefixBytes, len(prevMsgs)-1)
					}
				}
				prevMsgs = msgs
				u := uses[i]
				if u.Response == nil || u.Response.Estimated == reports {
					t.Fatalf("request %d: response %+v with usage reported %v", i+1, u.Response, reports)
				}
				if ft, d := u.Response.FirstToken, u.Response.Duration; ft < 5*time.Millisecond || d < ft {
					t.Errorf("request %d: first token after %v of %v; the gateway waited 5ms", i+1, ft, d)
				}
				switch {
				case reports && (u.Usage.PromptTokens != len(body)/4 || u.Usage.CachedPromptTokens != 64 || u.Usage.CompletionTokens != 7):
					t.Errorf("request %d: usage %+v is not the gateway's", i+1, u.Usage)
				case !reports && (u.Usage.PromptTokens != info.Tokens || u.Usage.CompletionTokens < 1 || u.Usage.CachedPromptTokens != 0):
					t.Errorf("request %d: estimated usage %+v for %d estimated tokens", i+1, u.Usage, info.Tokens)
				}
				// The estimate counts the text at 4 bytes a token plus framing:
				// more than the text alone, less than the whole body.
				if est := info.Tokens; est*BytesPerToken < textBytes(t, body) || est*BytesPerToken > len(body) {
					t.Errorf("request %d: %d tokens estimated for %d bytes of text in a body of %d", i+1, est, textBytes(t, body), len(body))
				}
			}
			fin := finishOf(t, evs)
			if fin.Requests != 2 {
				t.Errorf("Finish.Requests = %d", fin.Requests)
			}
			if reports != (fin.Estimated == provider.Usage{}) || reports == (fin.Usage == provider.Usage{}) {
				t.Errorf("finish usage %+v, estimated %+v, with usage reported %v", fin.Usage, fin.Estimated, reports)
			}
		})
	}
}

func rawBytes(ms []json.RawMessage) [][]byte {
	out := make([][]byte, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return out
}

// TestContextBytesMatchRequestBody checks /context's figures against the
// body the gateway receives: each part is the text the body carries for it.
func TestContextBytesMatchRequestBody(t *testing.T) {
	t.Parallel()
	g := &meterGateway{usage: true}
	h := gatewayHarness(t, g)
	h.turn("what is in a.go?", nil)
	cb := h.a.ContextBytes(0)
	const next = "and b.go?"
	h.turn(next, nil)
	var body struct {
		Messages []struct {
			Role      string `json:"role"`
			Content   string `json:"content"`
			ToolCalls []struct {
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
		Tools []struct {
			Function json.RawMessage `json:"function"`
		} `json:"tools"`
	}
	raw := g.body(2) // the first request of the second turn
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatal(err)
	}
	var got ContextBytes
	for _, m := range body.Messages {
		switch m.Role {
		case "system":
			got.System += len(m.Content)
		case "user":
			got.User += len(m.Content)
		case "assistant":
			got.Assistant += len(m.Content)
			for _, c := range m.ToolCalls {
				got.Assistant += len(c.Function.Name) + len(c.Function.Arguments)
			}
		case "tool":
			got.ToolResults += len(m.Content)
		}
	}
	want := cb
	want.User += len(next)
	want.Tools = 0
	if got != want {
		t.Errorf("the body carries %+v, /context counted %+v", got, want)
	}
	// The tool specs: the same objects, wrapped in {"type":"function","function":...}.
	specs := 0
	for _, tl := range body.Tools {
		specs += len(tl.Function)
	}
	if want := specs + len(body.Tools) - 1 + 2; cb.Tools != want {
		t.Errorf("tool specs: /context counted %d bytes, the body's are %d", cb.Tools, want)
	}
	if total := cb.Total() + len(next); total != textBytes(t, raw)+cb.Tools {
		t.Errorf("/context's total %d bytes, the body's text %d and tool specs %d", total, textBytes(t, raw), cb.Tools)
	}
}

// textBytes is the text a request body carries in its messages: contents,
// call names and arguments, as decoded.
func textBytes(t *testing.T, body []byte) int {
	t.Helper()
	var b struct {
		Messages []wireMessage `json:"messages"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range b.Messages {
		n += len(m.Content)
		for _, c := range m.ToolCalls {
			n += len(c.Function.Name) + len(c.Function.Arguments)
		}
	}
	return n
}

func TestEncodeMessagesEscapesLikeTheProvider(t *testing.T) {
	t.Parallel()
	msgs := []provider.Message{
		{Role: provider.RoleSystem, Content: "sys"},
		{Role: provider.RoleAssistant, Reasoning: "never sent", ToolCalls: []provider.ToolCall{{ID: "c1", Name: "read_file"}}},
		{Role: provider.RoleTool, ToolCallID: "c1"},
		{Role: provider.RoleAssistant},
		{Role: provider.RoleUser, Content: "a < b & c"},
	}
	want := `[{"role":"system","content":"sys"},` +
		`{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"read_file","arguments":"{}"}}]},` +
		`{"role":"tool","content":"(no output)","tool_call_id":"c1"},` +
		`{"role":"assistant","content":"(no output)"},` +
		`{"role":"user","content":"a \u003c b \u0026 c"}]`
	if got := string(EncodeMessages(msgs)); got != want {
		t.Errorf("encoded\n got %s\nwant %s", got, want)
	}
}

func TestMeterReusesAndFindsPrefix(t *testing.T) {
	t.Parallel()
	var m meter
	base := []provider.Message{{Role: provider.RoleSystem, Content: "sys"}, {Role: provider.RoleUser, Content: "hi"}}
	first := m.measure(provider.Request{Messages: base})
	if first.PrefixBytes != 0 || first.Messages != 2 {
		t.Fatalf("first request: %+v", first)
	}
	grown := append(append([]provider.Message(nil), base...), provider.Message{Role: provider.RoleAssistant, Content: "hello"})
	second := m.measure(provider.Request{Messages: grown})
	if want := len(EncodeMessages(base)) - 1; second.PrefixBytes != want {
		t.Errorf("grown conversation: prefix %d, want %d", second.PrefixBytes, want)
	}
	rewritten := []provider.Message{{Role: provider.RoleSystem, Content: "sys"}, {Role: provider.RoleUser, Content: "summary"}}
	third := m.measure(provider.Request{Messages: rewritten})
	if want := len(`[{"role":"system","content":"sys"},{"role":"user","content":"`); third.PrefixBytes != want {
		t.Errorf("rewritten conversation: prefix %d, want %d", third.PrefixBytes, want)
	}
	if third.Bytes != len(EncodeMessages(rewritten)) {
		t.Errorf("a reused encoding changed the size: %d, want %d", third.Bytes, len(EncodeMessages(rewritten)))
	}
}

func TestEstimatedUsageWithoutGatewayUsage(t *testing.T) {
	t.Parallel()
	read, _, _ := fakeTools()
	silent := script{Deltas: []provider.Delta{text("It is "), text("main."), finish(provider.FinishStop)}}
	h := newHarness(t, tools.NewRegistry(read), nil, calls("read_file", `{"path":"a.go"}`), silent)
	h.metered = true
	evs := h.turn("go", nil)
	uses := eventsOf(evs, EventUsage)
	if len(uses) != 2 {
		t.Fatalf("%d usage events: %s", len(uses), kindsString(kinds(evs)))
	}
	// The first answer reported usage (calls() scripts it); the second did not.
	if uses[0].Response.Estimated || !uses[1].Response.Estimated {
		t.Errorf("estimated: %v, %v", uses[0].Response.Estimated, uses[1].Response.Estimated)
	}
	if u := uses[1].Usage; u.CompletionTokens != tokensOf(len("It is main.")) || u.PromptTokens == 0 {
		t.Errorf("estimate %+v", u)
	}
	fin := finishOf(t, evs)
	if fin.Estimated != uses[1].Usage || fin.Usage != uses[0].Usage {
		t.Errorf("finish usage %+v estimated %+v", fin.Usage, fin.Estimated)
	}
}

func TestRetryIsMeteredAsASecondAttempt(t *testing.T) {
	t.Parallel()
	broken := script{Deltas: []provider.Delta{text("par")}, Err: &provider.Error{Kind: provider.ErrNetwork, Message: "reset"}}
	h := newHarness(t, tools.NewRegistry(), nil, broken, answer("whole"))
	h.metered = true
	evs := h.turn("go", nil)
	reqs := eventsOf(evs, EventRequest)
	if len(reqs) != 2 || reqs[0].Request.Attempt != 1 || reqs[1].Request.Attempt != 2 || reqs[1].Request.Step != 1 {
		t.Fatalf("requests: %s", kindsString(kinds(evs)))
	}
	if fin := finishOf(t, evs); fin.Requests != 2 || fin.Steps != 1 {
		t.Errorf("finish %+v", fin)
	}
	if !strings.Contains(kindsString(kinds(evs)), "request text_delta retrying request") {
		t.Errorf("order: %s", kindsString(kinds(evs)))
	}
}

// tourFiles are stable files of this repository (contracts that do not
// change) that the 20-step tour reads: real Go code, with the <, > and &
// that JSON escaping inflates.
var tourFiles = []string{
	"../provider/provider.go", "../provider/delta.go", "../provider/errors.go", "../provider/accumulate.go",
	"../tools/tool.go", "../tools/registry.go", "../tools/workspace.go", "../tools/filestate.go",
}

// TestTwentyStepTour runs the offline provider's 20-request tour (list the
// files, read them one per request, summarise) and reports what the
// requests sent: total bytes, the share of tool results, and the share
// that is tool results sent again. It checks that every request's messages
// start with the previous request's, byte for byte (the prompt-cache
// prefix). Run it with -v to see the report.
func TestTwentyStepTour(t *testing.T) {
	t.Parallel()
	h, rec := tourHarness(t, nil)
	evs := h.turn("tour the code", nil)
	fin := finishOf(t, evs)
	reqs := eventsOf(evs, EventRequest)
	if fin.Reason != FinishDone || len(reqs) != mock.TourSteps {
		t.Fatalf("finish %+v after %d requests, want done after %d", fin, len(reqs), mock.TourSteps)
	}
	r := tourReport(t, rec.requests(), reqs)
	t.Logf("20-step tour: %d requests, %d bytes sent (%d unescaped), tool results %.0f%%, tool results sent again %.0f%%, prefix stable in %d of %d requests",
		len(reqs), r.total, r.unescaped, 100*float64(r.tool)/float64(r.total), 100*float64(r.repeated)/float64(r.total), r.stable, len(reqs)-1)
	if r.stable != len(reqs)-1 {
		t.Errorf("the prefix changed in %d requests", len(reqs)-1-r.stable)
	}
	if r.repeated == 0 || r.repeated >= r.tool {
		t.Errorf("repeated tool results %d of %d", r.repeated, r.tool)
	}
}

type tourFigures struct {
	total, unescaped, tool, repeated, stable int
}

// tourReport adds up the requests and checks each one's prefix against
// the messages the provider received.
func tourReport(t *testing.T, sent []provider.Request, reqs []Event) tourFigures {
	t.Helper()
	if len(sent) != len(reqs) {
		t.Fatalf("%d requests sent, %d metered", len(sent), len(reqs))
	}
	var f tourFigures
	var prev []byte
	prevTool := 0
	for i, ev := range reqs {
		info := ev.Request
		body := EncodeMessages(sent[i].Messages)
		f.total += info.Bytes
		f.tool += info.ToolResultBytes
		f.repeated += prevTool
		f.unescaped += info.Bytes - len(body) + unescapedSize(t, sent[i].Messages)
		if prev != nil && bytes.HasPrefix(body, prev[:len(prev)-1]) && info.PrefixBytes == len(prev)-1 {
			f.stable++
		}
		prev, prevTool = body, info.ToolResultBytes
	}
	return f
}

// unescapedSize is the size of the messages array encoded without HTML
// escaping (<, > and & as themselves rather than \u003c...).
func unescapedSize(t *testing.T, msgs []provider.Message) int {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	n := 1
	for i, m := range msgs {
		b.Reset()
		if err := enc.Encode(toWire(m)); err != nil {
			t.Fatal(err)
		}
		n += b.Len() - 1 // Encode adds a newline
		if i > 0 {
			n++
		}
	}
	return n + 1
}

// tourHarness runs an agent on the offline provider with the real read
// tools in a workspace holding tourFiles.
func tourHarness(t *testing.T, opt func(*Options)) (*harness, *recordingProvider) {
	t.Helper()
	dir := t.TempDir()
	for _, f := range tourFiles {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.DefaultRegistry(ws, nil)
	prov := &recordingProvider{p: mock.New(mock.Options{})}
	o := Options{Provider: prov, Model: "mock", Tools: reg, Workspace: ws, System: "You are tern, a coding agent.", Policy: PolicyReadOnly}
	if opt != nil {
		opt(&o)
	}
	a, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	h := &harness{t: t, a: a, ws: ws, stop: cancel, done: make(chan struct{}), metered: true}
	go func() {
		a.Run(ctx)
		close(h.done)
	}()
	t.Cleanup(func() {
		cancel()
		for range a.Events() {
		}
		<-h.done
	})
	return h, prov
}

// recordingProvider records the requests it passes on.
type recordingProvider struct {
	p    provider.Provider
	mu   sync.Mutex
	reqs []provider.Request
}

func (r *recordingProvider) Stream(ctx context.Context, req provider.Request) (provider.Stream, error) {
	r.mu.Lock()
	r.reqs = append(r.reqs, req)
	r.mu.Unlock()
	return r.p.Stream(ctx, req)
}

func (r *recordingProvider) requests() []provider.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]provider.Request(nil), r.reqs...)
}

// BenchmarkMeterMeasure measures one request of a long conversation, the
// meter's cost per model request: the messages the previous request had
// are not encoded again.
func BenchmarkMeterMeasure(b *testing.B) {
	code := strings.Repeat("\tif a < b && c > d {\n\t\treturn fmt.Errorf(\"x: %w\", err)\n\t}\n", 60)
	msgs := []provider.Message{{Role: provider.RoleSystem, Content: strings.Repeat("You are tern. ", 200)}, {Role: provider.RoleUser, Content: "tour"}}
	for i := range 40 {
		id := fmt.Sprintf("call_%d", i)
		msgs = append(msgs,
			provider.Message{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: id, Name: "read_file", Arguments: `{"path":"a.go"}`}}},
			provider.Message{Role: provider.RoleTool, ToolCallID: id, Content: code})
	}
	var m meter
	m.measure(provider.Request{Messages: msgs[:len(msgs)-2]})
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		// Alternate between two lengths so every round adds messages.
		n := len(msgs) - 2*(i%2)
		m.measure(provider.Request{Messages: msgs[:n]})
	}
}

func TestMeterPrefixMatchesTheBodies(t *testing.T) {
	t.Parallel()
	sys := provider.Message{Role: provider.RoleSystem, Content: "sys"}
	u1 := provider.Message{Role: provider.RoleUser, Content: "one"}
	u2 := provider.Message{Role: provider.RoleUser, Content: "two"}
	u3 := provider.Message{Role: provider.RoleUser, Content: "onf"}
	cases := [][2][]provider.Message{
		{{sys, u1}, {sys, u1, u2}},
		{{sys, u1}, {sys, u1}},
		{{sys, u1, u2}, {sys, u1}},
		{{sys, u1, u2}, {sys, u3, u2}},
		{{sys}, {}},
		{{}, {}},
		{{}, {sys}},
		{{u1}, {u2}},
	}
	for _, c := range cases {
		var m meter
		m.measure(provider.Request{Messages: c[0]})
		got := m.measure(provider.Request{Messages: c[1]}).PrefixBytes
		if want := commonPrefix(EncodeMessages(c[0]), EncodeMessages(c[1])); got != want {
			t.Errorf("%d then %d messages: prefix %d, the bodies share %d", len(c[0]), len(c[1]), got, want)
		}
	}
}
