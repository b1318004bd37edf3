package session

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Decoding the JSON of the records was most of resuming a long session
// (pprof of `tern -c` on a 2,000-turn, 18 MB log: encoding/json's Unmarshal
// was 30% of the CPU, a third of it checkValid scanning each line before
// decoding it again through reflection). The records that make up nearly all
// of a log (tool results, answers, usage, prompts) are therefore read here in
// one pass over the line as the Writer lays them out: no whitespace, the
// fields the types declare. Anything else (another field, a null, a number
// with a fraction, whitespace, an image list) makes fastBody decline, and
// json.Unmarshal decodes the line as before, so what is accepted and what it
// decodes to are exactly json.Unmarshal's (TestFastBodyMatchesJSON).

// fastBody decodes the body of a record of type typ from its line, or
// returns ok false to leave the line to json.Unmarshal.
func fastBody(typ Type, line []byte) (b Body, ok bool) {
	s := &scanner{b: line}
	switch typ {
	case TypeToolResult:
		var r ToolResult
		ok = s.object(func(key []byte) bool {
			switch string(key) {
			case "call_id":
				return s.str(&r.CallID)
			case "tool":
				return s.str(&r.Tool)
			case "status":
				return s.str((*string)(&r.Status))
			case "output":
				return s.str(&r.Output)
			case "summary":
				return s.str(&r.Summary)
			case "exit_code":
				return s.integer(&r.ExitCode)
			case "duration_ms":
				return s.int64(&r.DurationMS)
			}
			return s.envelope(key)
		})
		b = r
	case TypeAssistantMessage:
		var m AssistantMessage
		ok = s.object(func(key []byte) bool {
			switch string(key) {
			case "stream":
				return s.str(&m.Stream)
			case "text":
				return s.str(&m.Text)
			case "reasoning":
				return s.str(&m.Reasoning)
			case "interrupted":
				return s.boolean(&m.Interrupted)
			case "tool_calls":
				return s.toolCalls(&m.ToolCalls)
			}
			return s.envelope(key)
		})
		b = m
	case TypeUsage:
		var u Usage
		ok = s.object(func(key []byte) bool {
			switch string(key) {
			case "prompt":
				return s.integer(&u.Prompt)
			case "completion":
				return s.integer(&u.Completion)
			case "cached":
				return s.integer(&u.Cached)
			case "estimated":
				return s.boolean(&u.Estimated)
			case "first_token_ms":
				return s.int64(&u.FirstTokenMS)
			case "duration_ms":
				return s.int64(&u.DurationMS)
			case "task":
				return s.str(&u.Task)
			}
			return s.envelope(key)
		})
		b = u
	case TypeUserMessage:
		var m UserMessage
		ok = s.object(func(key []byte) bool {
			switch string(key) {
			case "turn":
				return s.integer(&m.Turn)
			case "text":
				return s.str(&m.Text)
			}
			return s.envelope(key)
		})
		b = m
	case TypeAssistantDelta, TypeApproval, TypeGrant, TypeModelChange, TypePolicyChange, TypePlanMode,
		TypeCompaction, TypeRewind, TypeError, TypeCheckpoint, TypeSnapshot, TypeRequest, TypeTitle, TypeSubagent:
		return nil, false // rare in a log: encoding/json reads them
	}
	if !ok {
		return nil, false
	}
	return b, true
}

// scanner reads one line of JSON strictly: it accepts a subset of JSON
// (no whitespace, no nulls, integers only) and decodes it as json.Unmarshal
// would, and fails on anything else.
type scanner struct {
	b []byte
	i int
}

// next consumes c if it comes next.
func (s *scanner) next(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// object reads an object that must end the line, calling field after each
// key to read its value.
func (s *scanner) object(field func(key []byte) bool) bool {
	if !s.objectIn(field) {
		return false
	}
	return s.i == len(s.b)
}

// objectIn reads an object whose keys are plain ASCII, calling field after
// each key and its colon.
func (s *scanner) objectIn(field func(key []byte) bool) bool {
	if !s.next('{') {
		return false
	}
	if s.next('}') {
		return true
	}
	for {
		key, ok := s.key()
		if !ok || !s.next(':') || !field(key) {
			return false
		}
		if s.next(',') {
			continue
		}
		return s.next('}')
	}
}

// key reads a key made of printable ASCII without escapes, not copied.
func (s *scanner) key() ([]byte, bool) {
	if !s.next('"') {
		return nil, false
	}
	start := s.i
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			k := s.b[start:s.i]
			s.i++
			return k, true
		case c < 0x20 || c == '\\' || c >= 0x80:
			return nil, false
		}
		s.i++
	}
	return nil, false
}

// envelope skips the value of the fields every record has (and a body
// type ignores); any other key fails, since json.Unmarshal would match it
// case-insensitively or ignore it.
func (s *scanner) envelope(key []byte) bool {
	var str string
	var n int64
	switch string(key) {
	case "type", "t":
		return s.str(&str)
	case "seq":
		return s.int64(&n)
	}
	return false
}

// toolCalls reads an array of tool calls.
func (s *scanner) toolCalls(dst *[]ToolCall) bool {
	if !s.next('[') {
		return false
	}
	calls := make([]ToolCall, 0, 1)
	if s.next(']') {
		*dst = calls
		return true
	}
	for {
		var c ToolCall
		ok := s.objectIn(func(key []byte) bool {
			switch string(key) {
			case "id":
				return s.str(&c.ID)
			case "name":
				return s.str(&c.Name)
			case "arguments":
				return s.str(&c.Arguments)
			}
			return false
		})
		if !ok {
			return false
		}
		calls = append(calls, c)
		if s.next(',') {
			continue
		}
		if !s.next(']') {
			return false
		}
		*dst = calls
		return true
	}
}

// boolean reads true or false.
func (s *scanner) boolean(dst *bool) bool {
	rest := s.b[s.i:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		*dst, s.i = true, s.i+4
		return true
	case len(rest) >= 5 && string(rest[:5]) == "false":
		*dst, s.i = false, s.i+5
		return true
	}
	return false
}

// integer reads an integer into an int.
func (s *scanner) integer(dst *int) bool {
	var n int64
	if !s.int64(&n) || int64(int(n)) != n {
		return false
	}
	*dst = int(n)
	return true
}

// int64 reads a JSON number without fraction or exponent: -?(0|[1-9][0-9]*).
func (s *scanner) int64(dst *int64) bool {
	start := s.i
	s.next('-')
	digits := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	if s.i == digits || (s.b[digits] == '0' && s.i > digits+1) {
		return false
	}
	if s.i < len(s.b) && (s.b[s.i] == '.' || s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		return false
	}
	n, err := strconv.ParseInt(string(s.b[start:s.i]), 10, 64)
	if err != nil {
		return false
	}
	*dst = n
	return true
}

// str reads a string, unquoted as encoding/json does: invalid UTF-8 and
// unpaired surrogates become U+FFFD, control characters fail.
func (s *scanner) str(dst *string) bool {
	if !s.next('"') {
		return false
	}
	start := s.i
	end := s.stringEnd()
	if end < 0 {
		return false
	}
	raw := s.b[start:end]
	if bytes.IndexByte(raw, '\\') < 0 && textRun(raw) {
		*dst = string(raw)
		s.i = end + 1
		return true
	}
	// Unquoted, a string is never longer than quoted but for invalid bytes
	// (each becomes the three of U+FFFD): one allocation, no copy at the end.
	var b strings.Builder
	b.Grow(len(raw))
	// One pass: runs of plain bytes are copied whole, escapes and invalid
	// bytes are written as they decode.
	i, run := s.i, s.i
	for i < end {
		c := s.b[i]
		if c >= 0x20 && c < utf8.RuneSelf && c != '\\' {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(s.b[i:end])
			if r != utf8.RuneError || size != 1 {
				i += size // valid UTF-8 stays in the run
				continue
			}
		}
		b.Write(s.b[run:i])
		switch {
		case c == '\\':
			s.i = i
			if !s.escape(&b) {
				return false
			}
			i = s.i
		case c < 0x20:
			return false
		default:
			b.WriteRune(unicode.ReplacementChar)
			i++
		}
		run = i
	}
	b.Write(s.b[run:i])
	if i != end {
		return false
	}
	*dst = b.String()
	s.i = end + 1
	return true
}

// textRun reports whether b holds no control character and is valid
// UTF-8, eight bytes at a time: a byte below 0x20 sets the high bit of its
// lane in x-0x20… where x's own high bit is clear (the lowest such byte
// always does; a lane flagged by a borrow is checked byte by byte).
func textRun(b []byte) bool {
	const lo, hi = 0x2020202020202020, 0x8080808080808080
	ascii := true
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		if (x-lo)&^x&hi != 0 {
			for _, c := range b[i : i+8] {
				if c < 0x20 {
					return false
				}
			}
		}
		if x&hi != 0 {
			ascii = false
		}
	}
	for _, c := range b[i:] {
		if c < 0x20 {
			return false
		}
		if c >= utf8.RuneSelf {
			ascii = false
		}
	}
	return ascii || utf8.Valid(b)
}

// stringEnd returns the index of the quote that closes the string starting
// at s.i, or -1.
func (s *scanner) stringEnd() int {
	for i := s.i; ; {
		q := bytes.IndexByte(s.b[i:], '"')
		if q < 0 {
			return -1
		}
		q += i
		n := 0
		for k := q - 1; k >= s.i && s.b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return q
		}
		i = q + 1
	}
}

// escape reads the escape at s.i (a backslash) and writes what it stands
// for to b.
func (s *scanner) escape(b *strings.Builder) bool {
	if s.i+1 >= len(s.b) {
		return false
	}
	c := s.b[s.i+1]
	switch c {
	case '"', '\\', '/':
		b.WriteByte(c)
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'u':
		r, ok := hex4(s.b[s.i+2:])
		if !ok {
			return false
		}
		s.i += 6
		if utf16.IsSurrogate(r) {
			if s.i+1 < len(s.b) && s.b[s.i] == '\\' && s.b[s.i+1] == 'u' {
				r2, ok := hex4(s.b[s.i+2:])
				if !ok {
					return false // encoding/json rejects the bad escape there
				}
				if dec := utf16.DecodeRune(r, r2); dec != unicode.ReplacementChar {
					s.i += 6
					b.WriteRune(dec)
					return true
				}
			}
			r = unicode.ReplacementChar
		}
		b.WriteRune(r)
		return true
	default:
		return false
	}
	s.i += 2
	return true
}

// hex4 reads four hex digits.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r*16 + rune(c)
	}
	return r, true
}
