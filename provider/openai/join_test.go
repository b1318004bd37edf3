package openai

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/ternhq/tern/provider"
)

// scriptedBody returns one read of the script per Read call, so a test
// decides what the stream finds buffered.
type scriptedBody struct {
	reads []string
	// before, when set, runs before each Read with the number of reads
	// made so far.
	before func(n int)
	n      int
}

func (b *scriptedBody) Read(p []byte) (int, error) {
	if b.before != nil {
		b.before(b.n)
	}
	b.n++
	if len(b.reads) == 0 {
		return 0, io.EOF
	}
	n := copy(p, b.reads[0])
	if b.reads[0] = b.reads[0][n:]; b.reads[0] == "" {
		b.reads = b.reads[1:]
	}
	return n, nil
}

// scriptedStream is a stream over body without a connection: one attempt,
// no retries.
func scriptedStream(t *testing.T, ctx context.Context, body io.Reader) *stream {
	t.Helper()
	p, err := New(Config{BaseURL: "http://127.0.0.1:9/v1", Model: "m", MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	return &stream{p: p, ctx: ctx, actx: ctx, attempt: 1, sse: newSSEReader(body)}
}

// describe writes deltas compactly: "text:ab reasoning:r call:0 finish:stop usage".
func describe(ds []provider.Delta) string {
	parts := make([]string, 0, len(ds))
	for _, d := range ds {
		switch d.Kind {
		case provider.DeltaText, provider.DeltaReasoning:
			parts = append(parts, fmt.Sprintf("%s:%s", d.Kind, d.Text))
		case provider.DeltaToolCall:
			parts = append(parts, fmt.Sprintf("call:%d%s%s", d.ToolCall.Index, d.ToolCall.Name, d.ToolCall.Arguments))
		case provider.DeltaFinish:
			parts = append(parts, "finish:"+d.Finish.String())
		case provider.DeltaUsage:
			parts = append(parts, "usage")
		}
	}
	return strings.Join(parts, " ")
}

// perEvent splits an SSE body into one read per event, which the stream
// cannot join: what it delivered before joining existed.
func perEvent(body string) []string {
	var reads []string
	for body != "" {
		i := strings.Index(body, "\n\n")
		if i < 0 {
			return append(reads, body)
		}
		reads = append(reads, body[:i+2])
		body = body[i+2:]
	}
	return reads
}

func content(s string) string   { return delta(`{"content":` + quoteJSON(s) + `}`) }
func reasoning(s string) string { return delta(`{"reasoning_content":` + quoteJSON(s) + `}`) }

// choiceText is a chunk of text for the choice at index.
func choiceText(index int, s string) string {
	return fmt.Sprintf(`{"id":"c","choices":[{"index":%d,"delta":{"content":%s},"finish_reason":null}]}`, index, quoteJSON(s))
}

// TestJoinBufferedPieces: the text (or reasoning) pieces of the events
// already read are one delta, and everything else keeps its place, its
// kind and its error message. Each case also runs with one read per event,
// which cannot join: the text, the other deltas and the error must be
// what that run gives.
func TestJoinBufferedPieces(t *testing.T) {
	t.Parallel()
	done := "data: [DONE]\n\n"
	for _, tc := range []struct {
		name  string
		reads []string
		want  string
		err   string // part of the error's message; "" for none
	}{
		{"one read", []string{sse(content("a"), content("b"), content("c"), finishChunk("stop")) + done},
			"text:abc finish:stop", ""},
		{"an event split across reads", []string{
			sse(content("a"), content("b")) + `data: {"choices":[{"index":0,"delta":{"content":"c`,
			`"}}]}` + "\n\n" + sse(content("d"), finishChunk("stop")) + done},
			"text:ab text:cd finish:stop", ""},
		{"a line split before its newline", []string{sse(content("a")) + "data: " + content("b"), "\n\n" + sse(finishChunk("stop"))},
			"text:a text:b finish:stop", ""},
		{"text then reasoning then text", []string{sse(content("a"), reasoning("r1"), reasoning("r2"), content("b"), content("c"), finishChunk("stop"))},
			"text:a reasoning:r1r2 text:bc finish:stop", ""},
		{"text then a tool call", []string{sse(content("a"), content("b"),
			delta(`{"tool_calls":[{"index":0,"id":"x","type":"function","function":{"name":"read","arguments":""}}]}`),
			delta(`{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]}`), content("c"), finishChunk("tool_calls"))},
			"text:ab call:0read call:0{} text:c finish:tool_calls", ""},
		{"text then an error event", []string{sse(content("a"), content("b"), `{"error":{"message":"upstream failed","type":"server_error"}}`, content("c"))},
			"text:ab", "upstream failed"},
		{"text then the finish in one buffer", []string{sse(content("a"), content("b"),
			`{"choices":[{"index":0,"delta":{"content":"c"},"finish_reason":"stop"}]}`, usageChunk) + done},
			"text:ab text:c finish:stop usage", ""},
		{"a malformed event after good ones", []string{sse(content("a"), content("b"), `{"choices":[{"delta":{"content":"c"}}]`, content("d"))},
			"text:ab", "malformed stream event"},
		{"an event cut at the end of the body", []string{sse(content("a"), content("b")) + `data: {"choices":[{"delta":{"content":"c`},
			"text:ab", "ended early"},
		{"the choices of several", []string{sse(choiceText(0, "a"), choiceText(0, "b"), choiceText(1, "x"), choiceText(1, "y"), choiceText(0, "c"), finishChunk("stop"))},
			"text:ab text:xy text:c finish:stop", ""},
		{"two choices in one event", []string{sse(content("a"),
			`{"choices":[{"index":0,"delta":{"content":"b"}},{"index":1,"delta":{"content":"x"}}]}`, content("c"), finishChunk("stop"))},
			"text:a text:b text:x text:c finish:stop", ""},
		{"empty events and comments in a burst", []string{sse(content("a"), `{"choices":[]}`, delta(`{"role":"assistant"}`)) +
			": keep-alive\n\nevent: message\nid: 7\n" + sse(content("b"), finishChunk("stop"))},
			"text:ab finish:stop", ""},
		{"text and reasoning of two choices in one event", []string{sse(content("a"),
			`{"choices":[{"index":0,"delta":{"content":"b"}},{"index":1,"delta":{"reasoning_content":"r"}}]}`, content("c"), finishChunk("stop"))},
			"text:a text:b reasoning:r text:c finish:stop", ""},
		{"content and refusal in one event", []string{sse(content("a"), delta(`{"content":"b","refusal":"no"}`), content("c"), finishChunk("stop"))},
			"text:a text:b text:no text:c finish:stop", ""},
		{"refusals", []string{sse(delta(`{"refusal":"I "}`), delta(`{"refusal":"can't"}`), finishChunk("stop"))},
			"text:I can't finish:stop", ""},
		{"reasoning under either key", []string{sse(reasoning("a"), delta(`{"reasoning":"b"}`), delta(`{"reasoning":"c","reasoning_content":"d"}`), content("e"), finishChunk("stop"))},
			"reasoning:abd text:e finish:stop", ""},
		{"[DONE] ends a burst", []string{sse(content("a"), content("b")) + done},
			"text:ab finish:stop", ""},
		{"a stray line ends a burst", []string{sse(content("a")) + "oops\n" + sse(content("b"), finishChunk("stop"))},
			"text:a text:b finish:stop", ""},
		{"escapes and split characters", []string{sse(delta(`{"content":"\u00e9\n"}`), delta("{\"content\":\"\xf0\x9f\"}"), delta("{\"content\":\"\x98\x80\"}"), finishChunk("stop"))},
			"text:é\n😀 finish:stop", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			joined, jerr := drainScripted(t, tc.reads)
			if got := describe(joined); got != tc.want {
				t.Errorf("deltas %s\nwant   %s", got, tc.want)
			}
			if (jerr == nil) != (tc.err == "") || (jerr != nil && !strings.Contains(jerr.Error(), tc.err)) {
				t.Errorf("error %v, want one saying %q", jerr, tc.err)
			}
			single, serr := drainScripted(t, perEvent(strings.Join(tc.reads, "")))
			if !sameAnswer(joined, single) {
				t.Errorf("joined %s\none read an event %s", describe(joined), describe(single))
			}
			if fmt.Sprint(jerr) != fmt.Sprint(serr) {
				t.Errorf("error %v, with one read an event %v", jerr, serr)
			}
		})
	}
}

func drainScripted(t *testing.T, reads []string) ([]provider.Delta, error) {
	t.Helper()
	s := scriptedStream(t, context.Background(), &scriptedBody{reads: append([]string(nil), reads...)})
	defer func() { _ = s.Close() }()
	var ds []provider.Delta
	for s.Next() {
		ds = append(ds, s.Delta())
	}
	return ds, s.Err()
}

// sameAnswer reports whether two delta sequences hold the same answer:
// the same deltas once consecutive text (or reasoning) pieces are joined.
func sameAnswer(a, b []provider.Delta) bool {
	return describe(joinRuns(a)) == describe(joinRuns(b))
}

func joinRuns(ds []provider.Delta) []provider.Delta {
	var out []provider.Delta
	for _, d := range ds {
		if n := len(out); n > 0 && d.Kind == out[n-1].Kind && (d.Kind == provider.DeltaText || d.Kind == provider.DeltaReasoning) {
			out[n-1].Text += d.Text
			continue
		}
		out = append(out, d)
	}
	return out
}

// TestJoinNeverWaitsForTheNetwork: a burst ends with what was read; the
// next piece, which needs another read, is a delta of its own, delivered
// only after the first.
func TestJoinNeverWaitsForTheNetwork(t *testing.T) {
	t.Parallel()
	got := make(chan string, 4)
	body := &scriptedBody{reads: []string{sse(content("a"), content("b")), sse(content("c"), finishChunk("stop"))}}
	body.before = func(n int) {
		if n == 1 {
			// The second read begins only once the first burst was
			// delivered whole.
			if d := <-got; d != "ab" {
				t.Errorf("first delta %q before the second read, want ab", d)
			}
		}
	}
	s := scriptedStream(t, context.Background(), body)
	defer func() { _ = s.Close() }()
	var ds []provider.Delta
	for s.Next() {
		ds = append(ds, s.Delta())
		if len(ds) == 1 {
			got <- s.Delta().Text
		}
	}
	if s.Err() != nil || describe(ds) != "text:ab text:c finish:stop" {
		t.Errorf("deltas %s, error %v", describe(ds), s.Err())
	}
}

// TestJoinCancelledMidBurst: cancelling after a joined delta ends the
// stream at once, with the buffered rest undelivered.
func TestJoinCancelledMidBurst(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := scriptedStream(t, ctx, &scriptedBody{reads: []string{sse(content("a"), content("b"), delta(`{"tool_calls":[{"index":0,"id":"x","function":{"name":"n"}}]}`), content("c"), finishChunk("stop"))}})
	defer func() { _ = s.Close() }()
	if !s.Next() || s.Delta().Text != "ab" {
		t.Fatalf("first delta %+v", s.Delta())
	}
	cancel()
	if s.Next() {
		t.Fatalf("Next after cancel delivered %+v", s.Delta())
	}
	var pe *provider.Error
	if err := s.Err(); !errors.As(err, &pe) || pe.Kind != provider.ErrCancelled {
		t.Errorf("error %v, want a cancellation", err)
	}
}
