package openai

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/ternhq/tern/provider"
)

// Each test here replays the bytes of one gateway quirk.

func TestStreamTextReasoningUsage(t *testing.T) {
	t.Parallel()
	g := newGateway(t, streamOf(sse(
		delta(`{"role":"assistant","content":"","reasoning_content":"Let me "}`),
		delta(`{"reasoning_content":"think."}`),
		delta(`{"content":"Hello"}`),
		delta(`{"content":", wörld \ud83d\ude00\n"}`),
		finishChunk("stop"),
		usageChunk,
		"[DONE]",
	)))
	p, _ := newProvider(t, g)
	ds, acc, err := run(t, p)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := joinedKinds(ds), "reasoning text finish usage"; got != want {
		t.Errorf("delta kinds = %s, want %s", got, want)
	}
	if acc.Reasoning() != "Let me think." || acc.Text() != "Hello, wörld 😀\n" {
		t.Errorf("reasoning %q, text %q", acc.Reasoning(), acc.Text())
	}
	if acc.Finish() != provider.FinishStop {
		t.Errorf("finish = %s", acc.Finish())
	}
	u, ok := acc.Usage()
	if want := (provider.Usage{PromptTokens: 120, CompletionTokens: 30, CachedPromptTokens: 64}); !ok || u != want {
		t.Errorf("usage = %+v (%v), want %+v", u, ok, want)
	}
}

func TestQuirkReasoningKey(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, delta, want string
	}{
		{"reasoning only", `{"reasoning":"plan"}`, "plan"},
		{"both keys are not doubled", `{"reasoning":"plan","reasoning_content":"plan"}`, "plan"},
		{"reasoning object is ignored", `{"reasoning":{"effort":"low"},"reasoning_content":"plan"}`, "plan"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := newGateway(t, streamOf(sse(delta(tc.delta), finishChunk("stop"), "[DONE]")))
			p, _ := newProvider(t, g)
			_, acc, err := run(t, p)
			if err != nil {
				t.Fatal(err)
			}
			if acc.Reasoning() != tc.want {
				t.Errorf("reasoning = %q, want %q", acc.Reasoning(), tc.want)
			}
		})
	}
}

func TestQuirkTinyArgumentFragments(t *testing.T) {
	t.Parallel()
	args := `{"path":"internal/server/handler.go","start":10,"end":42,"note":"a \"quoted\" word"}`
	events := []string{delta(`{"role":"assistant","tool_calls":[{"index":0,"id":"call_A","type":"function","function":{"name":"read_file","arguments":""}}]}`)}
	for i := 0; i < len(args); i += 2 {
		piece := args[i:min(i+2, len(args))]
		events = append(events, delta(`{"tool_calls":[{"index":0,"function":{"arguments":`+quoteJSON(piece)+`}}]}`))
	}
	events = append(events, finishChunk("tool_calls"), usageChunk, "[DONE]")
	g := newGateway(t, streamOf(sse(events...)))
	p, _ := newProvider(t, g)
	ds, acc, err := run(t, p)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(kinds(ds), "tool_call"); n != 1+(len(args)+1)/2 {
		t.Errorf("%d tool-call deltas, want one per event", n)
	}
	want := []provider.ToolCall{{ID: "call_A", Name: "read_file", Arguments: args}}
	if got := acc.ToolCalls(); !reflect.DeepEqual(got, want) {
		t.Errorf("calls = %+v, want %+v", got, want)
	}
	if acc.Finish() != provider.FinishToolCalls {
		t.Errorf("finish = %s", acc.Finish())
	}
}

func TestQuirkParallelCallsInterleaved(t *testing.T) {
	t.Parallel()
	g := newGateway(t, streamOf(sse(
		delta(`{"tool_calls":[{"index":0,"id":"call_A","type":"function","function":{"name":"read_file","arguments":""}}]}`),
		delta(`{"tool_calls":[{"index":1,"id":"call_B","type":"function","function":{"name":"grep","arguments":""}}]}`),
		delta(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"path\":"}}]}`),
		delta(`{"tool_calls":[{"index":1,"function":{"arguments":"{\"pattern\":"}}]}`),
		delta(`{"tool_calls":[{"index":0,"function":{"arguments":"\"a.go\"}"}}]}`),
		delta(`{"tool_calls":[{"index":1,"function":{"arguments":"\"TODO\"}"}}]}`),
		finishChunk("tool_calls"),
		"[DONE]",
	)))
	p, _ := newProvider(t, g)
	ds, acc, err := run(t, p)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if d.Kind == provider.DeltaToolCall && !d.ToolCall.HasIndex {
			t.Errorf("fragment %+v lost its index", d.ToolCall)
		}
	}
	want := []provider.ToolCall{
		{ID: "call_A", Name: "read_file", Arguments: `{"path":"a.go"}`},
		{ID: "call_B", Name: "grep", Arguments: `{"pattern":"TODO"}`},
	}
	if got := acc.ToolCalls(); !reflect.DeepEqual(got, want) {
		t.Errorf("calls = %+v, want %+v", got, want)
	}
}

func TestQuirkCallWithoutIndex(t *testing.T) {
	t.Parallel()
	g := newGateway(t, streamOf(sse(
		delta(`{"tool_calls":[{"id":"call_A","type":"function","function":{"name":"read_file","arguments":"{\"path\":"}}]}`),
		delta(`{"tool_calls":[{"function":{"arguments":"\"a.go\"}"}}]}`),
		delta(`{"tool_calls":[{"id":"call_B","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"b.go\"}"}}]}`),
		finishChunk("tool_calls"),
		"[DONE]",
	)))
	p, _ := newProvider(t, g)
	ds, acc, err := run(t, p)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if d.Kind == provider.DeltaToolCall && d.ToolCall.HasIndex {
			t.Errorf("fragment %+v has an index the gateway did not send", d.ToolCall)
		}
	}
	want := []provider.ToolCall{
		{ID: "call_A", Name: "read_file", Arguments: `{"path":"a.go"}`},
		{ID: "call_B", Name: "read_file", Arguments: `{"path":"b.go"}`},
	}
	if got := acc.ToolCalls(); !reflect.DeepEqual(got, want) {
		t.Errorf("calls = %+v, want %+v", got, want)
	}
}

func TestQuirkWholeCallWithStop(t *testing.T) {
	t.Parallel()
	// llama.cpp-style: the whole call in one chunk, finish_reason "stop".
	g := newGateway(t, streamOf(sse(
		chunkHead+`{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"bash","arguments":"{\"cmd\":\"ls\"}"}}]},"finish_reason":"stop"}]}`,
		"[DONE]",
	)))
	p, _ := newProvider(t, g)
	_, acc, err := run(t, p)
	if err != nil {
		t.Fatal(err)
	}
	want := []provider.ToolCall{{ID: "call_1", Name: "bash", Arguments: `{"cmd":"ls"}`}}
	if got := acc.ToolCalls(); !reflect.DeepEqual(got, want) {
		t.Errorf("calls = %+v, want %+v", got, want)
	}
	if acc.Finish() != provider.FinishToolCalls {
		t.Errorf("finish = %s, want tool_calls (the calls must still be run)", acc.Finish())
	}
}

func TestQuirkArgumentsAsObject(t *testing.T) {
	t.Parallel()
	g := newGateway(t, streamOf(sse(
		delta(`{"tool_calls":[{"index":0,"id":"c","function":{"name":"bash","arguments":{"cmd":"ls -l"}}}]}`),
		finishChunk("tool_calls"),
	)))
	p, _ := newProvider(t, g)
	_, acc, err := run(t, p)
	if err != nil {
		t.Fatal(err)
	}
	if got := acc.ToolCalls(); len(got) != 1 || got[0].Arguments != `{"cmd":"ls -l"}` {
		t.Errorf("calls = %+v", got)
	}
}

func TestQuirkUsage(t *testing.T) {
	t.Parallel()
	want := provider.Usage{PromptTokens: 120, CompletionTokens: 30, CachedPromptTokens: 64}
	for _, tc := range []struct {
		name   string
		events []string
		want   provider.Usage
	}{
		{"final chunk with empty choices", []string{delta(`{"content":"hi"}`), finishChunk("stop"), usageChunk, "[DONE]"}, want},
		{"inside the last content chunk", []string{
			delta(`{"content":"h"}`),
			chunkHead + `{"content":"i"},"finish_reason":"stop"}],"usage":{"prompt_tokens":120,"completion_tokens":30,"prompt_tokens_details":{"cached_tokens":64}}}`,
			"[DONE]",
		}, want},
		{"null usage on every chunk", []string{
			chunkHead + `{"content":"hi"},"finish_reason":null}],"usage":null}`,
			chunkHead + `{},"finish_reason":"stop"}],"usage":null}`,
			`{"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":1,"prompt_tokens_details":null}}`,
		}, provider.Usage{PromptTokens: 5, CompletionTokens: 1}},
		{"deepseek cache hits", []string{
			finishChunk("stop"),
			`{"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":2,"prompt_cache_hit_tokens":8,"prompt_cache_miss_tokens":1}}`,
		}, provider.Usage{PromptTokens: 9, CompletionTokens: 2, CachedPromptTokens: 8}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := newGateway(t, streamOf(sse(tc.events...)))
			p, _ := newProvider(t, g)
			_, acc, err := run(t, p)
			if err != nil {
				t.Fatal(err)
			}
			if u, ok := acc.Usage(); !ok || u != tc.want {
				t.Errorf("usage = %+v (reported %v), want %+v", u, ok, tc.want)
			}
		})
	}
}

func TestQuirkKeepAlivesBeforeFirstToken(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for range 500 {
		b.WriteString(": PROCESSING\n\n")
	}
	g := newGateway(t, streamOf(b.String(), "event: message\nid: 1\nretry: 10\n", sse(delta(`{"content":"ok"}`), finishChunk("stop"), "[DONE]")))
	p, _ := newProvider(t, g)
	_, acc, err := run(t, p)
	if err != nil {
		t.Fatal(err)
	}
	if acc.Text() != "ok" {
		t.Errorf("text = %q", acc.Text())
	}
}

func TestQuirkErrorInsideStream(t *testing.T) {
	t.Parallel()
	keepAlives := strings.Repeat(": OPENROUTER PROCESSING\n\n", 3)
	for _, tc := range []struct {
		name string
		body string
		kind provider.ErrorKind
		says []string
	}{
		{"context too long", sse(`{"error": {"message": "This model's maximum context length is 8192 tokens.", "type": "invalid_request_error", "code": "context_length_exceeded"}}`),
			provider.ErrContextTooLong, []string{"maximum context length is 8192", "new conversation"}},
		{"after keep-alive comments", keepAlives + sse(`{"error":{"message":"Rate limit exceeded","code":429}}`),
			provider.ErrRateLimited, []string{"Rate limit exceeded"}},
		{"error key with space", sse(`{ "error" : { "message" : "upstream failed", "type" : "server_error" } }`),
			provider.ErrServer, []string{"upstream failed"}},
		{"openrouter mid-stream", sse(delta(`{"content":"Hel"}`),
			`{"id":"x","object":"chat.completion.chunk","error":{"code":"server_error","message":"Provider disconnected"},"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}]}`),
			provider.ErrServer, []string{"Provider disconnected"}},
		{"error as a string", sse(`{"error":"invalid model id"}`), provider.ErrServer, []string{"invalid model id"}},
		{"bare JSON error without SSE framing", "{\n  \"error\": {\"message\": \"Incorrect API key\", \"code\": 401}\n}\n",
			provider.ErrAuth, []string{"Incorrect API key", "LLM_API_KEY", "tern doctor"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := newGateway(t, streamOf(tc.body))
			p, _ := newProvider(t, g, func(c *Config) { c.MaxAttempts = 1 })
			_, _, err := run(t, p)
			pe := providerError(t, err, tc.kind)
			mustContain(t, pe.Message, tc.says...)
			if pe.Status != 0 {
				t.Errorf("status = %d, want 0: the HTTP status was 200", pe.Status)
			}
		})
	}
}

func TestQuirkNotAnEventStream(t *testing.T) {
	t.Parallel()
	g := newGateway(t, response{header: map[string]string{"Content-Type": "text/html"}, parts: []string{"<html><body>Welcome to nginx!</body></html>\n"}})
	p, _ := newProvider(t, g, func(c *Config) { c.MaxAttempts = 1 })
	_, _, err := run(t, p)
	pe := providerError(t, err, provider.ErrProtocol)
	mustContain(t, pe.Message, "Welcome to nginx", "/v1")
}

func TestQuirkEndedEarly(t *testing.T) {
	t.Parallel()
	g := newGateway(t, streamOf(sse(delta(`{"content":"The answer is"}`), delta(`{"content":" 4"}`))))
	p, _ := newProvider(t, g)
	ds, acc, err := run(t, p)
	pe := providerError(t, err, provider.ErrNetwork)
	mustContain(t, pe.Message, "ended early")
	if acc.Text() != "The answer is 4" || joinedKinds(ds) != "text" {
		t.Errorf("deltas %s, text %q", kinds(ds), acc.Text())
	}
	if n := g.count.Load(); n != 1 {
		t.Errorf("%d requests: a stream that delivered deltas must not be retried", n)
	}
}

func TestQuirkCutMidEvent(t *testing.T) {
	t.Parallel()
	g := newGateway(t, streamOf(sse(delta(`{"content":"ok"}`)), `data: {"choices":[{"delta":{"content":"tru`))
	p, _ := newProvider(t, g)
	_, _, err := run(t, p)
	pe := providerError(t, err, provider.ErrNetwork)
	mustContain(t, pe.Message, "ended early")
}

func TestQuirkFinishWithoutDone(t *testing.T) {
	t.Parallel()
	g := newGateway(t, streamOf(sse(delta(`{"content":"ok"}`), finishChunk("length"), usageChunk)))
	p, _ := newProvider(t, g)
	ds, acc, err := run(t, p)
	if err != nil {
		t.Fatalf("finish then EOF must end cleanly: %v", err)
	}
	if acc.Finish() != provider.FinishLength || kinds(ds) != "text finish usage" {
		t.Errorf("finish %s, deltas %s", acc.Finish(), kinds(ds))
	}
}

func TestQuirkDoneWithoutFinish(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		events []string
		want   provider.FinishReason
	}{
		{"text", []string{delta(`{"content":"ok"}`), "[DONE]"}, provider.FinishStop},
		{"tool call", []string{delta(`{"tool_calls":[{"index":0,"id":"c","function":{"name":"ls","arguments":"{}"}}]}`), "[DONE]"}, provider.FinishToolCalls},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := newGateway(t, streamOf(sse(tc.events...)))
			p, _ := newProvider(t, g)
			_, acc, err := run(t, p)
			if err != nil {
				t.Fatal(err)
			}
			if acc.Finish() != tc.want {
				t.Errorf("finish = %s, want %s", acc.Finish(), tc.want)
			}
		})
	}
}

func TestQuirkMalformedChunk(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, event, says string
	}{
		{"truncated object", `{"choices":[{"delta":{"content":"hi"}}]`, "unexpected end"},
		{"single quotes", `{'choices': []}`, "expected a string"},
		{"content not a string", `{"choices":[{"delta":{"content":42}}]}`, "expected a string"},
		{"trailing garbage", `{"choices":[]} {"choices":[]}`, "after the JSON object"},
		{"python repr", `{"choices": [{"delta": {"content": None}}]}`, "expected a string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := newGateway(t, streamOf(sse(delta(`{"content":"a"}`), tc.event, finishChunk("stop"))))
			p, _ := newProvider(t, g)
			_, acc, err := run(t, p)
			pe := providerError(t, err, provider.ErrProtocol)
			mustContain(t, pe.Message, "malformed", tc.says, tc.event[:10])
			if acc.Text() != "a" {
				t.Errorf("text = %q", acc.Text())
			}
		})
	}
}

func TestQuirkCRLFAndNoSpace(t *testing.T) {
	t.Parallel()
	body := "data:" + delta(`{"content":"a"}`) + "\r\n\r\n" + "data: " + finishChunk("stop") + "\r\n\r\ndata: [DONE]\r\n\r\n"
	g := newGateway(t, streamOf(body))
	p, _ := newProvider(t, g)
	_, acc, err := run(t, p)
	if err != nil || acc.Text() != "a" || acc.Finish() != provider.FinishStop {
		t.Errorf("text %q, finish %s, err %v", acc.Text(), acc.Finish(), err)
	}
}

func TestQuirkLongEvent(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 3*readBufferSize+17)
	g := newGateway(t, streamOf(sse(delta(`{"content":"`+big+`"}`), finishChunk("stop"))))
	p, _ := newProvider(t, g)
	_, acc, err := run(t, p)
	if err != nil || acc.Text() != big {
		t.Errorf("text of %d bytes, want %d; err %v", len(acc.Text()), len(big), err)
	}
}

func TestQuirkNonStreamingAnswer(t *testing.T) {
	t.Parallel()
	// A server that ignores stream:true and answers with one JSON document.
	g := newGateway(t, response{status: http.StatusOK, header: map[string]string{"Content-Type": "application/json"}, parts: []string{
		`{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"whole"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":1}}`,
	}})
	p, _ := newProvider(t, g, func(c *Config) { c.MaxAttempts = 1 })
	_, acc, err := run(t, p)
	if err != nil || acc.Text() != "whole" {
		t.Errorf("text %q, err %v", acc.Text(), err)
	}
}
