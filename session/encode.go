package session

import (
	"bytes"
	"encoding/json"
	"fmt"
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

// appendRecord writes r as one line, "type", "t" and "seq" first, to out.
func (e *encoder) appendRecord(out *bytes.Buffer, r Record) error {
	e.scratch.Reset()
	if err := e.enc.Encode(r.Body); err != nil {
		return fmt.Errorf("encode %s record %d: %w", r.Body.Type(), r.Seq, err)
	}
	body := bytes.TrimSpace(e.scratch.Bytes()) // {...}
	var tb [40]byte
	out.WriteString(`{"type":"`)
	out.WriteString(string(r.Body.Type()))
	out.WriteString(`","t":"`)
	out.Write(r.T.UTC().AppendFormat(tb[:0], timeLayout))
	out.WriteString(`","seq":`)
	out.Write(strconv.AppendInt(tb[:0], r.Seq, 10))
	if len(body) > 2 {
		out.WriteByte(',')
		out.Write(body[1:])
	} else {
		out.WriteByte('}')
	}
	out.WriteByte('\n')
	return nil
}

// appendHeader writes h as the first line of a session to out.
func (e *encoder) appendHeader(out *bytes.Buffer, h Header) error {
	e.scratch.Reset()
	if err := e.enc.Encode(headerLine{Type: headerType, Header: h}); err != nil {
		return fmt.Errorf("encode session header: %w", err)
	}
	out.Write(e.scratch.Bytes())
	return nil
}

// stamp is the time a record gets: UTC, milliseconds, no monotonic reading.
func stamp(t time.Time) time.Time {
	return t.UTC().Truncate(time.Millisecond)
}
