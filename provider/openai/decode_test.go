package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ternhq/tern/provider"
)

func TestDecodeStrings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, want string
	}{
		{`plain`, "plain"},
		{`tab\there \"quoted\" back\\slash \/ \b\f\r\n`, "tab\there \"quoted\" back\\slash / \b\f\r\n"},
		{`\u00e9\u4e2d`, "é中"},
		{`\ud83d\ude00 pair`, "😀 pair"},
		{`\ud83d alone`, "\ufffd alone"},
		{`\ude00 low alone`, "\ufffd low alone"},
		{`\ud83d\u0041`, "\ufffdA"},
		{"raw é and \xff invalid", "raw é and \xff invalid"},
	} {
		var d decoder
		var c chunk
		if err := d.decode([]byte(`{"choices":[{"delta":{"content":"`+tc.in+`"}}]}`), &c); err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if got := string(c.choices[0].content); got != tc.want {
			t.Errorf("%q decoded to %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		``, `[]`, `"x"`, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{,}`, `{"a":1 "b":2}`,
		`{"a":tru}`, `{"a":nul}`, `{"a":01}`, `{"a":1.}`, `{"a":-}`, `{"a":1e}`, `{"a":.5}`, `{"a":+1}`,
		`{"a":"\x"}`, `{"a":"\u12"}`, `{"a":"\u12g4"}`, "{\"a\":\"line\nbreak\"}", `{"a":"open}`,
		`{"a":[1,]}`, `{"a":[,1]}`, `{"a":{"b":[}]}}`, `{"a":1}}`, `{"a":1} x`,
		`{"choices":{}}`, `{"choices":[1]}`, `{"choices":[{"delta":[]}]}`, `{"choices":[{"finish_reason":1}]}`,
		`{"choices":[{"delta":{"tool_calls":{}}}]}`, `{"choices":[{"delta":{"tool_calls":[{"index":"0"}]}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"function":{"arguments":true}}]}}]}`,
		`{"usage":[]}`, `{"usage":{"prompt_tokens":"9"}}`, `{"usage":{"prompt_tokens":1e999}}`, `{"error":5}`,
		strings.Repeat(`{"a":`, maxDepth+5) + "1" + strings.Repeat("}", maxDepth+5),
	} {
		var d decoder
		var c chunk
		if err := d.decode([]byte(in), &c); err == nil {
			t.Errorf("%.60q decoded without error", in)
		}
	}
}

func TestDecodeReuse(t *testing.T) {
	t.Parallel()
	var d decoder
	var c chunk
	first := `{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"x","arguments":"1"}},{"index":1,"id":"b"}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":1},"error":{"message":"m"}}`
	if err := d.decode([]byte(first), &c); err != nil {
		t.Fatal(err)
	}
	if err := d.decode([]byte(`{"choices":[{"delta":{"content":"y"}}]}`), &c); err != nil {
		t.Fatal(err)
	}
	want := []choice{{content: []byte("y")}}
	if len(c.choices) != 1 || string(c.choices[0].content) != "y" || len(c.choices[0].calls) != 0 || c.choices[0].finish != "" || c.hasUsage || c.failed {
		t.Errorf("state leaked from the previous chunk: %+v, want %+v", c, want)
	}
}

// FuzzDecode checks the hand-written decoder against a reference built on
// encoding/json: it never panics, never accepts invalid JSON, and agrees
// with the reference on everything it extracts.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		delta(`{"content":"hi \u00e9"}`),
		delta(`{"reasoning_content":"r","reasoning":"q","refusal":null}`),
		delta(`{"tool_calls":[{"index":1,"id":"c","type":"function","function":{"name":"n","arguments":"{\"a\":1}"}}]}`),
		delta(`{"tool_calls":[{"function":{"arguments":{"cmd":[1,2.5e3,true,null]}}}]}`),
		finishChunk("stop"),
		usageChunk,
		`{"choices":[],"usage":{"prompt_tokens":9,"prompt_cache_hit_tokens":8,"prompt_tokens_details":null}}`,
		`{"error":{"message":"m","code":502,"type":"server_error","status":"429"}}`,
		`{"error":"plain"}`,
		`{"choices":[null,{"message":{"content":"x"},"finish_reason":null}],"choices":[{"delta":null}]}`,
		`{"usage":{"prompt_tokens":12345678901234567890,"completion_tokens":-3.9}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var d decoder
		var c chunk
		err := d.decode(data, &c)
		if err == nil && !json.Valid(data) {
			t.Fatalf("accepted invalid JSON %q", data)
		}
		if !utf8.Valid(data) {
			return // encoding/json rewrites invalid UTF-8; the decoder keeps it
		}
		want, refErr := refDecode(data)
		if (err == nil) != (refErr == nil) {
			t.Fatalf("decoder error %v, reference error %v, for %q", err, refErr, data)
		}
		if err != nil {
			return
		}
		if got := viewOf(&c); !got.equal(want) {
			t.Fatalf("for %q\n got %+v\nwant %+v", data, got, want)
		}
	})
}

// view is a comparable summary of a decoded chunk.
type view struct {
	choices  []choice
	usage    provider.Usage
	hasUsage bool
	failed   bool
	err      streamError
}

func viewOf(c *chunk) view {
	v := view{usage: c.usage, hasUsage: c.hasUsage, failed: c.failed, err: c.err}
	for _, ch := range c.choices {
		ch.calls = append([]provider.ToolCallFragment(nil), ch.calls...)
		v.choices = append(v.choices, ch)
	}
	return v
}

func (v view) equal(w view) bool {
	if len(v.choices) != len(w.choices) || v.usage != w.usage || v.hasUsage != w.hasUsage || v.failed != w.failed ||
		v.err.status != w.err.status || !sameText(v.err.message, w.err.message) || !sameText(v.err.code, w.err.code) ||
		!sameText(v.err.typ, w.err.typ) {
		return false
	}
	for i := range v.choices {
		a, b := v.choices[i], w.choices[i]
		if !bytes.Equal(a.content, b.content) || !bytes.Equal(a.reasoning, b.reasoning) || !bytes.Equal(a.reasoningAlt, b.reasoningAlt) ||
			!bytes.Equal(a.refusal, b.refusal) || a.finish != b.finish || len(a.calls) != len(b.calls) {
			return false
		}
		for j := range a.calls {
			x, y := a.calls[j], b.calls[j]
			if x.Index != y.Index || x.HasIndex != y.HasIndex || x.ID != y.ID || x.Name != y.Name || !sameText(x.Arguments, y.Arguments) {
				return false
			}
		}
	}
	return true
}

// sameText compares texts that may be raw JSON, which the decoder keeps
// verbatim and the reference re-encodes.
func sameText(a, b string) bool {
	if a == b {
		return true
	}
	var x, y any
	return json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil && reflect.DeepEqual(x, y)
}

// jnode is a JSON value with its members in order, duplicates kept, as the
// decoder sees them.
type jnode struct {
	kind byte // o(bject) a(rray) s(tring) n(umber) b(ool) z (null)
	text string
	keys []string
	vals []*jnode
}

var errRef = errors.New("reference: rejected")

func refDecode(data []byte) (view, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	root, err := readNode(dec)
	if err != nil {
		return view{}, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return view{}, errRef
	}
	var v view
	if root.kind != 'o' {
		return v, errRef
	}
	for i, k := range root.keys {
		val := root.vals[i]
		switch k {
		case "choices":
			err = refChoices(val, &v)
		case "usage":
			err = refUsage(val, &v)
		case "error":
			err = refError(val, &v)
		}
		if err != nil {
			return v, err
		}
	}
	return v, nil
}

func readNode(dec *json.Decoder) (*jnode, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch x := tok.(type) {
	case json.Delim:
		n := &jnode{kind: 'a'}
		if x == '{' {
			n.kind = 'o'
		}
		for dec.More() {
			if n.kind == 'o' {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, k.(string))
			}
			val, err := readNode(dec)
			if err != nil {
				return nil, err
			}
			n.vals = append(n.vals, val)
		}
		_, err := dec.Token()
		return n, err
	case string:
		return &jnode{kind: 's', text: x}, nil
	case json.Number:
		return &jnode{kind: 'n', text: string(x)}, nil
	case bool:
		return &jnode{kind: 'b', text: strconv.FormatBool(x)}, nil
	}
	return &jnode{kind: 'z'}, nil
}

// raw re-encodes a node.
func (n *jnode) raw() string {
	switch n.kind {
	case 'o', 'a':
		var b strings.Builder
		b.WriteByte("{["[strings.IndexByte("oa", n.kind)])
		for i, v := range n.vals {
			if i > 0 {
				b.WriteByte(',')
			}
			if n.kind == 'o' {
				b.WriteString(quoteJSON(n.keys[i]) + ":")
			}
			b.WriteString(v.raw())
		}
		b.WriteByte("}]"[strings.IndexByte("oa", n.kind)])
		return b.String()
	case 's':
		return quoteJSON(n.text)
	case 'z':
		return "null"
	}
	return n.text
}

func refStr(n *jnode) (string, error) {
	switch n.kind {
	case 's':
		return n.text, nil
	case 'z':
		return "", nil
	}
	return "", errRef
}

func refOptStr(n *jnode) string {
	if n.kind == 's' {
		return n.text
	}
	return ""
}

func refLoose(n *jnode) string {
	switch n.kind {
	case 's':
		return n.text
	case 'z':
		return ""
	}
	return n.raw()
}

func refInt(n *jnode) (int, bool, error) {
	switch n.kind {
	case 'z':
		return 0, false, nil
	case 'n':
		if i, err := strconv.Atoi(n.text); err == nil {
			return i, true, nil
		}
		f, err := strconv.ParseFloat(n.text, 64)
		if err != nil || f < math.MinInt64 || f >= math.MaxInt64 {
			return 0, false, errRef
		}
		return int(f), true, nil
	}
	return 0, false, errRef
}

func refChoices(n *jnode, v *view) error {
	if n.kind == 'z' {
		return nil
	}
	if n.kind != 'a' {
		return errRef
	}
	for _, e := range n.vals {
		if e.kind == 'z' {
			continue
		}
		if e.kind != 'o' {
			return errRef
		}
		var ch choice
		for i, k := range e.keys {
			var err error
			switch k {
			case "delta", "message":
				err = refDelta(e.vals[i], &ch)
			case "finish_reason":
				ch.finish, err = refStr(e.vals[i])
			}
			if err != nil {
				return err
			}
		}
		v.choices = append(v.choices, ch)
	}
	return nil
}

func refDelta(n *jnode, ch *choice) error {
	if n.kind == 'z' {
		return nil
	}
	if n.kind != 'o' {
		return errRef
	}
	for i, k := range n.keys {
		val := n.vals[i]
		var err error
		switch k {
		case "content":
			var str string
			str, err = refStr(val)
			ch.content = []byte(str)
		case "reasoning_content":
			var str string
			str, err = refStr(val)
			ch.reasoning = []byte(str)
		case "reasoning":
			ch.reasoningAlt = []byte(refOptStr(val))
		case "refusal":
			ch.refusal = []byte(refOptStr(val))
		case "tool_calls":
			err = refCalls(val, ch)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func refCalls(n *jnode, ch *choice) error {
	if n.kind == 'z' {
		return nil
	}
	if n.kind != 'a' {
		return errRef
	}
	for _, e := range n.vals {
		if e.kind == 'z' {
			continue
		}
		if e.kind != 'o' {
			return errRef
		}
		var f provider.ToolCallFragment
		for i, k := range e.keys {
			val := e.vals[i]
			var err error
			switch k {
			case "index":
				f.Index, f.HasIndex, err = refInt(val)
			case "id":
				f.ID, err = refStr(val)
			case "function":
				err = refFunction(val, &f)
			}
			if err != nil {
				return err
			}
		}
		ch.calls = append(ch.calls, f)
	}
	return nil
}

func refFunction(n *jnode, f *provider.ToolCallFragment) error {
	if n.kind == 'z' {
		return nil
	}
	if n.kind != 'o' {
		return errRef
	}
	for i, k := range n.keys {
		val := n.vals[i]
		var err error
		switch k {
		case "name":
			f.Name, err = refStr(val)
		case "arguments":
			if val.kind == 'o' || val.kind == 'a' {
				f.Arguments = val.raw()
			} else {
				f.Arguments, err = refStr(val)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func refUsage(n *jnode, v *view) error {
	if n.kind == 'z' {
		return nil
	}
	if n.kind != 'o' {
		return errRef
	}
	v.hasUsage = true
	cached, hasCached, hit := 0, false, 0
	for i, k := range n.keys {
		val := n.vals[i]
		var err error
		switch k {
		case "prompt_tokens":
			v.usage.PromptTokens, _, err = refInt(val)
		case "completion_tokens":
			v.usage.CompletionTokens, _, err = refInt(val)
		case "prompt_cache_hit_tokens":
			hit, _, err = refInt(val)
		case "prompt_tokens_details":
			cached, hasCached = 0, false
			switch val.kind {
			case 'z':
			case 'o':
				for j, dk := range val.keys {
					if dk == "cached_tokens" {
						if cached, hasCached, err = refInt(val.vals[j]); err != nil {
							return err
						}
					}
				}
			default:
				err = errRef
			}
		}
		if err != nil {
			return err
		}
	}
	if hasCached {
		v.usage.CachedPromptTokens = cached
	} else {
		v.usage.CachedPromptTokens = hit
	}
	return nil
}

func refError(n *jnode, v *view) error {
	switch n.kind {
	case 'z':
		return nil
	case 's':
		v.failed, v.err = true, streamError{message: n.text}
		return nil
	case 'o':
	default:
		return errRef
	}
	v.failed = true
	for i, k := range n.keys {
		val := n.vals[i]
		switch k {
		case "message":
			v.err.message = refLoose(val)
		case "code":
			v.err.code = refLoose(val)
			if s, err := strconv.Atoi(v.err.code); err == nil {
				v.err.status = s
			}
		case "status":
			if s, err := strconv.Atoi(refLoose(val)); err == nil {
				v.err.status = s
			}
		case "type":
			v.err.typ = refLoose(val)
		}
	}
	return nil
}

// TestDecodePrefixReuse: a decoder that skips the envelope a chunk shares
// with the one before decodes it as a fresh decoder would, errors and their
// positions included.
func TestDecodePrefixReuse(t *testing.T) {
	t.Parallel()
	head := `{"id":"c1","object":"chunk","created":17,"model":"m",`
	for _, tc := range []struct{ name, prev, next string }{
		{"same envelope", head + `"choices":[{"delta":{"content":"a"}}]}`, head + `"choices":[{"delta":{"content":"b"}}]}`},
		{"a longer number", head + `"choices":[]}`, `{"id":"c1","object":"chunk","created":170,"model":"m","choices":[]}`},
		{"another model", head + `"choices":[]}`, `{"id":"c1","object":"chunk","created":17,"model":"n","choices":[]}`},
		{"envelope alone, then closed", `{"id":"c1","x":1}`, `{"id":"c1","x":1}`},
		{"then a trailing comma", `{"id":"c1","x":1}`, `{"id":"c1","x":1,}`},
		{"then a missing value", `{"id":"c1","x":1,"y":2}`, `{"id":"c1","x":1,"y":}`},
		{"then a bad choice", head + `"choices":[]}`, head + `"choices":[1]}`},
		{"then garbage after the object", head + `"choices":[]}`, head + `"choices":[]} x`},
		{"spaces", `{ "id" : "c1" , "choices" : [] }`, `{ "id" : "c1" , "choices" : [ { "delta" : { "content" : "z" } } ] }`},
		{"used members first", `{"choices":[],"id":"c1"}`, `{"choices":[],"id":"c1"}`},
		{"usage between", `{"id":"c1","usage":null,"model":"m","choices":[]}`, `{"id":"c1","usage":null,"model":"m","choices":[]}`},
		{"a prefix of the next", `{"id":"c1"}`, `{"id":"c1","choices":[{"delta":{"content":"q"}}]}`},
		{"a token's layout", delta(`{"content":"a"}`), delta(`{"content":"b é
"}`)},
		{"quotes in the next text", delta(`{"content":"a"}`), delta(`{"content":"b","content":"c"}`)},
		{"a backslash before the closing quote", delta(`{"content":"a"}`), delta(`{"content":"b"}`)},
		{"a raw newline in the next text", delta(`{"content":"a"}`), delta("{\"content\":\"b\nc\"}")},
		{"empty next text", delta(`{"content":"a"}`), delta(`{"content":""}`)},
		{"reasoning's layout", delta(`{"reasoning_content":"a"}`), delta(`{"reasoning_content":"bc"}`)},
		{"a layout with a second text member", delta(`{"content":"a","reasoning_content":""}`), delta(`{"content":"a","reasoning_content":"b"}`)},
		{"a null after the text", delta(`{"content":"a","content":null}`), delta(`{"content":"b","content":null}`)},
		{"the layout's text then a finish", delta(`{"content":"a"}`), chunkHead + `{"content":"b"},"logprobs":null,"finish_reason":"stop"}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var reused, fresh decoder
			var c, f chunk
			_ = reused.decode([]byte(tc.prev), &c)
			for range 2 { // the second time with the prefix of next itself
				err := reused.decode([]byte(tc.next), &c)
				want := fresh.decode([]byte(tc.next), &f)
				fresh = decoder{}
				if fmt.Sprint(err) != fmt.Sprint(want) {
					t.Fatalf("error %v, fresh %v", err, want)
				}
				if err == nil && !viewOf(&c).equal(viewOf(&f)) {
					t.Fatalf("got %+v, fresh %+v", viewOf(&c), viewOf(&f))
				}
			}
		})
	}
}

// FuzzDecodeAfter checks that what one decoder remembers of a chunk never
// changes how it decodes the next one.
func FuzzDecodeAfter(f *testing.F) {
	f.Add([]byte(delta(`{"content":"a"}`)), []byte(delta(`{"content":"b"}`)))
	f.Add([]byte(`{"id":"x","created":1,"choices":[]}`), []byte(`{"id":"x","created":12,"choices":[]}`))
	f.Add([]byte(`{"id":"x","n":1}`), []byte(`{"id":"x","n":1,}`))
	f.Add([]byte(delta(`{"content":"a"}`)), []byte(delta(`{"content":"b"}`)))
	f.Add([]byte(delta(`{"reasoning_content":"a"}`)), []byte(delta(`{"reasoning_content":"x","content":"y"}`)))
	f.Fuzz(func(t *testing.T, prev, next []byte) {
		var reused, fresh decoder
		var c, fc chunk
		_ = reused.decode(prev, &c)
		err := reused.decode(next, &c)
		want := fresh.decode(next, &fc)
		if fmt.Sprint(err) != fmt.Sprint(want) {
			t.Fatalf("error %v, fresh %v", err, want)
		}
		if err == nil && !viewOf(&c).equal(viewOf(&fc)) {
			t.Fatalf("got %+v, fresh %+v", viewOf(&c), viewOf(&fc))
		}
	})
}

// TestDecodeLayoutIsUsed: the events of a token each take the short path,
// and one that differs around its text does not.
func TestDecodeLayoutIsUsed(t *testing.T) {
	t.Parallel()
	var d decoder
	var c chunk
	if err := d.decode([]byte(delta(`{"content":"a"}`)), &c); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		next  string
		short bool
	}{
		{delta(`{"content":"b"}`), true},
		{delta(`{"content":"\"c\""}`), true},
		{delta(`{"content":"a","role":"x"}`), false},
		{finishChunk("stop"), false},
	} {
		if got := d.fromLayout([]byte(tc.next), &c); got != tc.short {
			t.Errorf("%s: short path %v, want %v", tc.next, got, tc.short)
		}
	}
}
