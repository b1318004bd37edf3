package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"
)

// timeLayout is how record times are written: RFC 3339 in UTC with
// milliseconds, so lines sort and compare as text.
const timeLayout = "2006-01-02T15:04:05.000Z07:00"

// encoder turns records into lines. It is not safe for concurrent use; the
// writer goroutine owns one.
type encoder struct {
	scratch bytes.Buffer
	enc     *json.Encoder
}

func newEncoder() *encoder {
	e := &encoder{}
	e.enc = json.NewEncoder(&e.scratch)
	// Code is full of <, > and &; escaping them would only bloat the log.
	e.enc.SetEscapeHTML(false)
	return e
}

// appendRecord appends r as one line, "type", "t" and "seq" first, to out.
// An answer's text (an assistant message without calls, a delta) is
// written straight into out (appendAnswer), the same bytes encoding/json
// writes; every other record goes through encoding/json.
func (e *encoder) appendRecord(out []byte, r Record) ([]byte, error) {
	switch b := r.Body.(type) {
	case AssistantMessage:
		if len(b.ToolCalls) == 0 {
			return appendAnswer(out, r, b.Stream, true, b.Text, b.Reasoning, "interrupted", b.Interrupted), nil
		}
	case AssistantDelta:
		return appendAnswer(out, r, b.Stream, false, b.Text, b.Reasoning, "discard", b.Discard), nil
	}
	return e.appendJSON(out, r)
}

// appendJSON is appendRecord through encoding/json, for any record.
func (e *encoder) appendJSON(out []byte, r Record) ([]byte, error) {
	e.scratch.Reset()
	if err := e.enc.Encode(r.Body); err != nil {
		return out, fmt.Errorf("encode %s record %d: %w", r.Body.Type(), r.Seq, err)
	}
	body := bytes.TrimSpace(e.scratch.Bytes()) // {...}
	out = appendHead(out, r)
	if len(body) > 2 {
		out = append(out, ',')
		out = append(out, body[1:]...)
	} else {
		out = append(out, '}')
	}
	return append(out, '\n'), nil
}

// appendHead appends the start of r's line, up to its sequence number.
func appendHead(out []byte, r Record) []byte {
	out = append(out, `{"type":"`...)
	out = append(out, r.Body.Type()...)
	out = append(out, `","t":"`...)
	out = r.T.UTC().AppendFormat(out, timeLayout)
	out = append(out, `","seq":`...)
	return strconv.AppendInt(out, r.Seq, 10)
}

// appendAnswer writes the line of an assistant message without calls or of
// a delta: "stream" (when not empty, or always unless omitStream), "text"
// and "reasoning" when not empty, and the flag named flag when set, the
// bytes encoding/json writes for those structs. It grows out once for the whole
// line: encoding/json built a long answer's line in three buffers, each
// grown by doubling, and on a fresh process every one of their pages is
// touched for the first time (the log's line was the largest share of the
// first answer's page faults: about 130 of 900, 17 µs each on these VMs).
func appendAnswer(out []byte, r Record, stream string, omitStream bool, text, reasoning, flag string, set bool) []byte {
	n := len(stream) + len(text) + len(reasoning)
	b := slices.Grow(out, n+n/8+128) // a little room for escapes; more grows it once
	b = appendHead(b, r)
	if stream != "" || !omitStream {
		b = append(b, `,"stream":`...)
		b = appendJSONString(b, stream)
	}
	if text != "" {
		b = append(b, `,"text":`...)
		b = appendJSONString(b, text)
	}
	if reasoning != "" {
		b = append(b, `,"reasoning":`...)
		b = appendJSONString(b, reasoning)
	}
	if set {
		b = append(b, `,"`...)
		b = append(b, flag...)
		b = append(b, `":true`...)
	}
	return append(b, '}', '\n')
}

// appendHeader appends h as the first line of a session to out.
func (e *encoder) appendHeader(out []byte, h Header) ([]byte, error) {
	e.scratch.Reset()
	if err := e.enc.Encode(headerLine{Type: headerType, Header: h}); err != nil {
		return out, fmt.Errorf("encode session header: %w", err)
	}
	return append(out, e.scratch.Bytes()...), nil
}

// stamp is the time a record gets: UTC, milliseconds, no monotonic reading.
func stamp(t time.Time) time.Time {
	return t.UTC().Truncate(time.Millisecond)
}
