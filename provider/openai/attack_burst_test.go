package openai

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/ternhq/tern/provider"
)

// Attacks on the joined-burst fast path: a hostile gateway's events, split
// at every byte, must give the answer that one read an event gives and
// that the events say, and a decoder that remembers the last event must
// decode each event as a fresh one would.

// hostilePieces are texts that look like the syntax around them.
var hostilePieces = []string{
	"a", "data: x", "\n\n", "data: [DONE]", `"}`, `","`, `"},"finish_reason":"stop"}]}`, `\`, `\"`, `"`,
	"é", "😀", "\u2028", "\x00", "\t", "{", "}", "[", "]", ":", ",", " ", "\r\n", "finish_reason", `"content":"`,
	"\xff", "\xf0\x9f", "\x98\x80", "\xe2\x82", "\xac", "€", "null", "\U0010FFFF",
}

// encoding is how a generated string is written as a JSON string.
type encoding int

const (
	encPlain   encoding = iota // escapes only what must be (raw UTF-8 and invalid bytes pass)
	encUnicode                 // every non-ASCII rune and every control as \u escapes, pairs above the BMP
	encSolidus                 // like encPlain, with "/" written as "\/" and spaces as \u0020
)

// jsonString writes s as a JSON string in enc; invalid UTF-8 stays raw,
// which the decoder passes through.
func jsonString(s string, enc encoding) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			b.WriteByte(s[i])
			i++
			continue
		}
		i += n
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		case enc == encSolidus && r == '/':
			b.WriteString(`\/`)
		case enc == encSolidus && r == ' ':
			b.WriteString(`\u0020`)
		case enc == encUnicode && r > 0x7e:
			if r > 0xffff {
				hi, lo := utf16.EncodeRune(r)
				fmt.Fprintf(&b, `\u%04X\u%04x`, hi, lo)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// hostileAnswer is a generated answer: its SSE body and the deltas it
// holds, in order, with runs of text (or reasoning) joined.
type hostileAnswer struct {
	body string
	want []provider.Delta
}

// genHostile builds an answer of n events from r: pieces of text and
// reasoning under a changing envelope, with the occasional second choice,
// tool call, empty event, comment and member order change.
func genHostile(r *rand.Rand, n int) hostileAnswer {
	var b strings.Builder
	var want []provider.Delta
	add := func(d provider.Delta) { want = append(want, d) }
	text := func() string {
		var t strings.Builder
		for range 1 + r.IntN(3) {
			t.WriteString(hostilePieces[r.IntN(len(hostilePieces))])
		}
		return t.String()
	}
	ids := []string{"chatcmpl-1", "chatcmpl-2", `chat\"cmpl`}
	models := []string{"m", "m2", "gpt-4o"}
	id, model := ids[0], models[0]
	sp := func() string { return [...]string{"", "", "", " ", "\t"}[r.IntN(5)] }
	envelope := func() string {
		if r.IntN(10) == 0 {
			id = ids[r.IntN(len(ids))]
		}
		if r.IntN(10) == 0 {
			model = models[r.IntN(len(models))]
		}
		members := []string{
			`"id":` + sp() + `"` + id + `"`,
			`"object":"chat.completion.chunk"`,
			`"created":` + [...]string{"1741570283", "1741570284", "17415702830"}[r.IntN(3)],
			`"model":"` + model + `"`,
		}
		if r.IntN(8) == 0 {
			members = append(members, `"system_fingerprint":"fp_`+fmt.Sprint(r.IntN(2))+`"`)
		}
		if r.IntN(10) == 0 {
			r.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
		}
		return strings.Join(members, ","+sp())
	}
	choiceOf := func(index int, delta string, tail string) string {
		idx := fmt.Sprintf(`"index":%d,`, index)
		if index == 0 && r.IntN(6) == 0 {
			idx = ""
		}
		return `{` + idx + `"delta":` + sp() + delta + tail + `}`
	}
	tails := []string{`,"logprobs":null,"finish_reason":null`, `,"finish_reason":null`, ``, `,"logprobs":null,"finish_reason":null,"x":"\"}"`}
	tail := tails[0]
	for range n {
		if r.IntN(12) == 0 {
			tail = tails[r.IntN(len(tails))]
		}
		var choices []string
		switch k := r.IntN(20); {
		case k < 9: // a lone piece of text
			s := text()
			choices = []string{choiceOf(0, `{"content":`+sp()+jsonString(s, encoding(r.IntN(3)))+`}`, tail)}
			add(provider.Delta{Kind: provider.DeltaText, Text: s})
		case k < 13: // a lone piece of reasoning under either key
			s := text()
			key := "reasoning_content"
			if r.IntN(4) == 0 {
				key = "reasoning"
			}
			choices = []string{choiceOf(0, `{"`+key+`":`+jsonString(s, encoding(r.IntN(3)))+`}`, tail)}
			add(provider.Delta{Kind: provider.DeltaReasoning, Text: s})
		case k == 13: // reasoning and content in one event
			rs, cs := text(), text()
			choices = []string{choiceOf(0, `{"reasoning_content":`+jsonString(rs, encPlain)+`,"content":`+jsonString(cs, encPlain)+`}`, tail)}
			add(provider.Delta{Kind: provider.DeltaReasoning, Text: rs})
			add(provider.Delta{Kind: provider.DeltaText, Text: cs})
		case k == 14: // a second choice
			s := text()
			choices = []string{choiceOf(1, `{"content":`+jsonString(s, encPlain)+`}`, tail)}
			add(provider.Delta{Kind: provider.DeltaText, Text: s})
		case k == 15: // two choices in one event
			s0, s1 := text(), text()
			choices = []string{
				choiceOf(0, `{"content":`+jsonString(s0, encPlain)+`}`, tail),
				choiceOf(1, `{"content":`+jsonString(s1, encPlain)+`}`, tail),
			}
			add(provider.Delta{Kind: provider.DeltaText, Text: s0})
			add(provider.Delta{Kind: provider.DeltaText, Text: s1})
		case k == 16: // a tool-call fragment between texts
			args := text()
			choices = []string{choiceOf(0, `{"tool_calls":[{"index":0,"function":{"arguments":`+jsonString(args, encPlain)+`}}]}`, tail)}
			add(provider.Delta{Kind: provider.DeltaToolCall, ToolCall: provider.ToolCallFragment{Index: 0, HasIndex: true, Arguments: args}})
		case k == 17: // nothing: a bare role, empty or null content
			choices = []string{choiceOf(0, [...]string{`{"role":"assistant"}`, `{"content":""}`, `{"content":null}`, `{}`}[r.IntN(4)], tail)}
		case k == 18: // the text in a member the decoder skips
			s := text()
			choices = []string{choiceOf(0, `{"content":`+jsonString(s, encPlain)+`,"extra":`+jsonString(text(), encPlain)+`}`, tail)}
			add(provider.Delta{Kind: provider.DeltaText, Text: s})
		default: // a comment, or an event with no choices
			if r.IntN(2) == 0 {
				b.WriteString(": keep-alive\n\n")
				continue
			}
		}
		b.WriteString("data:" + sp() + "{" + envelope() + `,"choices":[` + strings.Join(choices, ",") + "]}")
		b.WriteString([...]string{"\n\n", "\r\n\r\n", "\n\n"}[r.IntN(3)])
	}
	b.WriteString("data: {" + envelope() + `,"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n")
	b.WriteString("data: " + usageChunk + "\n\ndata: [DONE]\n\n")
	add(provider.Delta{Kind: provider.DeltaFinish, Finish: provider.FinishStop})
	add(provider.Delta{Kind: provider.DeltaUsage})
	return hostileAnswer{body: b.String(), want: joinRuns(want)}
}

// describeExact is describe with texts quoted, so invalid UTF-8, NUL and
// newlines show.
func describeExact(ds []provider.Delta) string {
	parts := make([]string, 0, len(ds))
	for _, d := range ds {
		switch d.Kind {
		case provider.DeltaText, provider.DeltaReasoning:
			parts = append(parts, fmt.Sprintf("%s:%q", d.Kind, d.Text))
		case provider.DeltaToolCall:
			parts = append(parts, fmt.Sprintf("call:%d%q", d.ToolCall.Index, d.ToolCall.Arguments))
		case provider.DeltaFinish:
			parts = append(parts, "finish:"+d.Finish.String())
		case provider.DeltaUsage:
			parts = append(parts, "usage")
		}
	}
	return strings.Join(parts, "\n")
}

// TestAttackBurstHostileAnswersSplitAnywhere: generated hostile answers,
// read whole, one event a read, at random small reads and split in two at
// every byte, give the deltas the events hold.
func TestAttackBurstHostileAnswersSplitAnywhere(t *testing.T) {
	t.Parallel()
	for seed := range uint64(16) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(seed, 0xb005))
			a := genHostile(r, 12+r.IntN(30))
			want := describeExact(a.want)
			check := func(how string, reads []string) {
				t.Helper()
				ds, err := drainScripted(t, reads)
				if err != nil {
					t.Fatalf("%s: error %v\nbody %q", how, err, a.body)
				}
				if got := describeExact(joinRuns(ds)); got != want {
					t.Fatalf("%s: deltas\n%s\nwant\n%s\nbody %q", how, got, want, a.body)
				}
			}
			check("whole", []string{a.body})
			check("one event a read", perEvent(a.body))
			var small []string
			for rest := a.body; rest != ""; {
				n := min(len(rest), 1+r.IntN(97))
				small, rest = append(small, rest[:n]), rest[n:]
			}
			check("small reads", small)
			// Every byte for a few answers, every few bytes for the rest:
			// each read is a stream of its own.
			step := 1
			if seed >= 3 || testing.Short() {
				step = 5 + int(seed%3)
			}
			for i := 1; i < len(a.body); i += step {
				check(fmt.Sprint("split at ", i), []string{a.body[:i], a.body[i:]})
			}
		})
	}
}

// chunkView is what a decoded chunk says, for comparing two decodes.
func chunkView(c *chunk, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	var b strings.Builder
	for _, ch := range c.choices {
		fmt.Fprintf(&b, "choice index=%d content=%q reasoning=%q alt=%q refusal=%q finish=%q calls=%+v\n",
			ch.index, ch.content, ch.reasoning, ch.reasoningAlt, ch.refusal, ch.finish, ch.calls)
	}
	fmt.Fprintf(&b, "usage=%v %+v failed=%v %+v", c.hasUsage, c.usage, c.failed, c.err)
	return b.String()
}

// decoderPairs are events decoded one after the other by one decoder:
// each shortcut's trap follows the event that sets it.
var decoderPairs = []struct {
	name        string
	first, next string
}{
	{"content ending in a quote and brace", delta(`{"content":"a"}`), delta(`{"content":"x\"}"}`)},
	{"content holding the tail", delta(`{"content":"a"}`), delta(`{"content":"x\"},\"logprobs\":null,\"finish_reason\":null}]}"}`)},
	{"a finish after the text", delta(`{"content":"a"}`), delta(`{"content":"x"},"logprobs":null,"finish_reason":"stop"}]}` + `,"logprobs":null,"finish_reason":null}]}`)},
	{"a string closed early", delta(`{"content":"a"}`), chunkHead + `{"content":"x","content":"y"},"logprobs":null,"finish_reason":null}]}`},
	{"reasoning after content", delta(`{"content":"a"}`), delta(`{"content":"x","reasoning_content":"r"}`)},
	{"a second choice in the tail", delta(`{"content":"a"}`), chunkHead + `{"content":"x"},"logprobs":null,"finish_reason":null},{"index":1,"delta":{"content":"y"}}]}`},
	{"a second choice after a comma in the text", delta(`{"content":"a"}`), chunkHead + `{"content":"x"},"logprobs":null,"finish_reason":null}]` + `,"choices":[{"index":1,"delta":{"content":"z"},"logprobs":null,"finish_reason":null}]}`},
	{"usage in the tail", delta(`{"content":"a"}`), chunkHead + `{"content":"x"},"logprobs":null,"finish_reason":null}],"usage":{"prompt_tokens":1},"x":{"a":"b"}}`},
	{"an error after the envelope", delta(`{"content":"a"}`), `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1741570283,"model":"m","system_fingerprint":"fp_1","error":{"message":"boom"}}`},
	{"envelope with a longer number", delta(`{"content":"a"}`), `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":17415702830,"model":"m","choices":[{"delta":{"content":"b"}}]}`},
	{"envelope cut in a number", `{"id":"x","created":12,"choices":[{"delta":{"content":"a"}}]}`, `{"id":"x","created":123,"choices":[{"delta":{"content":"b"}}]}`},
	{"envelope cut in a string", `{"id":"x","model":"m","choices":[{"delta":{"content":"a"}}]}`, `{"id":"x","model":"m\",\"choices\":[]","choices":[{"delta":{"content":"b"}}]}`},
	{"envelope then garbage", `{"id":"x","choices":[{"delta":{"content":"a"}}]}`, `{"id":"x",,"choices":[{"delta":{"content":"b"}}]}`},
	{"envelope without choices", `{"id":"x","choices":[{"delta":{"content":"a"}}]}`, `{"id":"x"}`},
	{"envelope closing early", `{"id":"x","choices":[{"delta":{"content":"a"}}]}`, `{"id":"x"} {"choices":[]}`},
	{"same layout, invalid escape", delta(`{"content":"a"}`), delta(`{"content":"\q"}`)},
	{"same layout, control character", delta(`{"content":"a"}`), delta("{\"content\":\"a\x01b\"}")},
	{"same layout, lone surrogate", delta(`{"content":"a"}`), delta(`{"content":"\ud83d"}`)},
	{"same layout, surrogate pair", delta(`{"content":"a"}`), delta(`{"content":"\ud83d\ude00\u0000"}`)},
	{"same layout, NUL and invalid UTF-8", delta(`{"content":"a"}`), delta("{\"content\":\"\xff\\u0000\xc3\"}")},
	{"same layout, empty", delta(`{"content":"a"}`), delta(`{"content":""}`)},
	{"same layout, number", delta(`{"content":"a"}`), delta(`{"content":1}`)},
	{"layout of reasoning, then content", delta(`{"reasoning_content":"a"}`), delta(`{"content":"b"}`)},
	{"layout shorter than both ends", `{"choices":[{"delta":{"content":"a"}}]}`, `{"choices":[{"delta":{"content":"}}]}`},
	{"index changes", choiceText(0, "a"), choiceText(1, "b")},
	{"index in the tail changes", `{"choices":[{"delta":{"content":"a"},"index":0}]}`, `{"choices":[{"delta":{"content":"b"},"index":1}]}`},
	{"whitespace before the text", delta(`{"content":"a"}`), delta(`{"content": "b"}`)},
	{"member order changes", `{"id":"x","model":"m","choices":[{"delta":{"content":"a"}}]}`, `{"model":"m","id":"x","choices":[{"delta":{"content":"b"}}]}`},
	{"refusal joins the head", delta(`{"content":"a"}`), delta(`{"refusal":"no","content":"b"}`)},
	{"the same event", delta(`{"content":"a"}`), delta(`{"content":"a"}`)},
	{"trailing garbage after the layout", delta(`{"content":"a"}`), delta(`{"content":"a"}`) + "}"},
	{"reasoning alt key", delta(`{"reasoning":"a"}`), delta(`{"reasoning":"b"}`)},
	{"tool call then text", delta(`{"tool_calls":[{"index":0,"function":{"arguments":"{"}}]}`), delta(`{"content":"b"}`)},
	{"text then tool call in the same shape", delta(`{"content":"a"}`), delta(`{"content":"a","tool_calls":[{"index":0,"function":{"arguments":"{"}}]}`)},
}

// TestAttackBurstDecoderRemembersNothingWrong: an event decodes to the
// same chunk, or fails with the same error, after any other event as it
// does in a fresh decoder.
func TestAttackBurstDecoderRemembersNothingWrong(t *testing.T) {
	t.Parallel()
	check := func(t *testing.T, events []string) {
		t.Helper()
		var kept decoder
		var kc chunk
		for i, e := range events {
			err := kept.decode([]byte(e), &kc)
			var fresh decoder
			var fc chunk
			ferr := fresh.decode([]byte(e), &fc)
			if got, want := chunkView(&kc, err), chunkView(&fc, ferr); got != want {
				t.Fatalf("event %d %q after %q:\n%s\nfresh decoder:\n%s", i, e, events[max(0, i-1)], got, want)
			}
		}
	}
	for _, tc := range decoderPairs {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// Twice each way: a shortcut set by the second may spring on
			// the first again.
			check(t, []string{tc.first, tc.next, tc.first, tc.next, tc.next, tc.first})
		})
	}
	t.Run("generated", func(t *testing.T) {
		t.Parallel()
		for seed := range uint64(200) {
			r := rand.New(rand.NewPCG(seed, 0xdec0))
			a := genHostile(r, 30)
			var events []string
			for _, line := range strings.Split(strings.ReplaceAll(a.body, "\r", ""), "\n") {
				if p, ok := strings.CutPrefix(line, "data:"); ok && strings.TrimSpace(p) != "[DONE]" {
					events = append(events, strings.TrimSpace(p))
				}
			}
			// Each event also cut short and with a byte flipped: errors
			// must be the fresh decoder's too.
			var all []string
			for _, e := range events {
				all = append(all, e)
				if r.IntN(4) == 0 {
					all = append(all, e[:r.IntN(len(e))])
				}
				if r.IntN(4) == 0 {
					b := []byte(e)
					b[r.IntN(len(b))] = `"}],\:{ x`[r.IntN(9)]
					all = append(all, string(b))
				}
			}
			check(t, all)
		}
	})
}

// TestAttackBurstJoinStopsAtEverythingElse: a burst of pieces followed by
// each kind of event that must not be joined keeps that event, its deltas
// and its error as one event a read gives them.
func TestAttackBurstJoinStopsAtEverythingElse(t *testing.T) {
	t.Parallel()
	pieces := sse(content("a"), content(`"}`), content(`","`))
	for _, tc := range []struct {
		name, after string
	}{
		{"finish in a piece", sse(`{"choices":[{"index":0,"delta":{"content":"z"},"finish_reason":"length"}]}`, usageChunk)},
		{"usage with a piece", sse(`{"choices":[{"index":0,"delta":{"content":"z"}}],"usage":{"prompt_tokens":3,"completion_tokens":4}}`, finishChunk("stop"))},
		{"error with a piece", sse(`{"choices":[{"index":0,"delta":{"content":"z"}}],"error":{"message":"quota \"gone\"","code":429}}`)},
		{"error string", sse(`{"error":"upstream \u00e9 failed"}`)},
		{"malformed after pieces", sse(`{"choices":[{"index":0,"delta":{"content":"z"}}]`)},
		{"invalid escape in the layout", sse(delta(`{"content":"\x"}`))},
		{"control character in the layout", sse(delta("{\"content\":\"\x01\"}"))},
		{"a named call", sse(delta(`{"tool_calls":[{"index":0,"id":"c1","function":{"name":"read","arguments":""}}]}`), content("z"), finishChunk("stop"))},
		{"a second choice", sse(choiceText(1, "y"), content("z"), finishChunk("stop"))},
		{"reasoning", sse(reasoning("r"), content("z"), finishChunk("stop"))},
		{"the finish alone", sse(finishChunk("content_filter"))},
		{"[DONE] without finish", "data: [DONE]\n\n"},
		{"a line that is not SSE", "<html>\n" + sse(content("z"), finishChunk("stop"))},
		{"the end of the body", ""},
		{"a line without its newline", "data: " + content("z")},
		{"a long line", sse(content(strings.Repeat("L", 200<<10)), finishChunk("stop"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			body := pieces + tc.after
			joined, jerr := drainScripted(t, []string{body})
			single, serr := drainScripted(t, perEvent(body))
			if !sameAnswer(joined, single) {
				t.Errorf("joined\n%s\none event a read\n%s", describeExact(joinRuns(joined)), describeExact(joinRuns(single)))
			}
			if fmt.Sprint(jerr) != fmt.Sprint(serr) {
				t.Errorf("error %v\none event a read %v", jerr, serr)
			}
			if len(joined) == 0 || joined[0].Text != `a"}","` {
				t.Errorf("first delta %+v, want the three pieces joined", joined)
			}
		})
	}
}

// TestAttackBurstJoinedTextIsNotAliased: a joined delta's text stays what
// it was after the stream reads on and reuses its buffers.
func TestAttackBurstJoinedTextIsNotAliased(t *testing.T) {
	t.Parallel()
	var reads []string
	var want []string
	for i := range 50 {
		a, b := strings.Repeat(string(rune('a'+i%26)), 1+i), strings.Repeat(string(rune('A'+i%26)), 2+i)
		reads = append(reads, sse(content(a), content(b)))
		want = append(want, a+b)
	}
	reads = append(reads, sse(finishChunk("stop")))
	s := scriptedStream(t, context.Background(), &scriptedBody{reads: reads})
	defer func() { _ = s.Close() }()
	var got []string
	for s.Next() {
		if d := s.Delta(); d.Kind == provider.DeltaText {
			got = append(got, d.Text)
		}
	}
	if s.Err() != nil {
		t.Fatal(s.Err())
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("texts changed after delivery:\n%q\nwant\n%q", got, want)
	}
}

// TestAttackBurstWatchdogAfterABurst: after a burst that joins, a stream
// that goes silent, drips events that carry nothing (each with a burst of
// empties joined after a piece of nothing), or drips one piece at a time
// slower than the idle limit still ends at stream_idle_timeout, with the
// text of the burst delivered before; one that drips faster than the
// limit finishes.
func TestAttackBurstWatchdogAfterABurst(t *testing.T) {
	t.Parallel()
	burst := sse(content("a"), content(`"}`), content("b"), `{"choices":[]}`, content("c"))
	for _, tc := range []struct {
		name  string
		every time.Duration // 0: silent
		drip  string
		fails bool
	}{
		{"silent", 0, "", true},
		{"empties", 5 * time.Millisecond, sse(`{"choices":[]}`, delta(`{"content":""}`), delta(`{"role":"assistant"}`)), true},
		{"pieces slower than the limit", 250 * time.Millisecond, sse(content("d")), true},
		{"pieces faster than the limit", 20 * time.Millisecond, sse(content("d")), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := newGateway(t, response{handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				_, _ = io.WriteString(w, burst)
				w.(http.Flusher).Flush()
				if tc.every == 0 {
					<-r.Context().Done()
					return
				}
				for i := 0; tc.fails || i < 20; i++ {
					select {
					case <-r.Context().Done():
						return
					case <-time.After(tc.every):
					}
					_, _ = io.WriteString(w, tc.drip)
					w.(http.Flusher).Flush()
				}
				_, _ = io.WriteString(w, sse(finishChunk("stop")))
			}})
			t.Cleanup(g.srv.CloseClientConnections)
			p, _ := newProvider(t, g, func(c *Config) {
				c.MaxAttempts = 1
				c.StreamIdleTimeout = 150 * time.Millisecond
			})
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			s, err := p.Stream(ctx, userRequest("hi"))
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			_, acc, err := drain(t, s)
			if !strings.HasPrefix(acc.Text(), `a"}bc`) {
				t.Errorf("text %q, want the burst first", acc.Text())
			}
			if !tc.fails {
				if err != nil || acc.Text() != `a"}bc`+strings.Repeat("d", 20) {
					t.Errorf("text %q, error %v", acc.Text(), err)
				}
				return
			}
			pe := providerError(t, err, provider.ErrNetwork)
			mustContain(t, pe.Message, "stream_idle_timeout")
			if took := time.Since(start); took > 3*time.Second {
				t.Errorf("the idle limit of 150ms fired after %v", took)
			}
		})
	}
}

// FuzzAttackBurstDecoderState: an event decoded after others (which set
// the envelope and layout shortcuts) decodes as a fresh decoder decodes
// it, error included.
func FuzzAttackBurstDecoderState(f *testing.F) {
	for _, tc := range decoderPairs {
		f.Add(tc.first, tc.first, tc.next)
	}
	f.Fuzz(func(t *testing.T, a, b, c string) {
		var kept decoder
		var kc chunk
		for _, e := range []string{a, b, c, a, c} {
			err := kept.decode([]byte(e), &kc)
			var fresh decoder
			var fc chunk
			ferr := fresh.decode([]byte(e), &fc)
			if got, want := chunkView(&kc, err), chunkView(&fc, ferr); got != want {
				t.Fatalf("event %q after %q, %q:\n%s\nfresh decoder:\n%s", e, a, b, got, want)
			}
		}
	})
}
