package openai

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth bounds nesting in skipped values, as encoding/json does, so a
// hostile stream cannot exhaust the stack.
const maxDepth = 10000

// decoder is a small JSON reader specialised for chat completion chunks. It
// decodes only the keys tern uses and validates everything it skips, so
// malformed JSON is always an error. It exists because encoding/json costs
// several times as much time and allocation per chunk, most of the per-event
// budget that BenchmarkStream15k measures.
type decoder struct {
	data    []byte
	i       int
	scratch []byte
	depth   int
	// prefix is the start of the last chunk that the next one may share
	// (decode, keepPrefix).
	prefix []byte
	// layout is the shape of the last chunk of a lone piece of text, and
	// text1 where the text of the chunk being decoded stands (layout.go).
	layout layout
	text1  textSpan
}

// fail reports a problem at the current position.
func (d *decoder) fail(msg string) error {
	return fmt.Errorf("at byte %d: %s", d.i, msg)
}

func (d *decoder) ws() {
	if d.i < len(d.data) && d.data[d.i] > ' ' {
		return // the common case: compact JSON
	}
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// open consumes the opening bracket c.
func (d *decoder) open(c byte) error {
	d.ws()
	if d.i >= len(d.data) {
		return d.fail("unexpected end of data")
	}
	if d.data[d.i] != c {
		return d.fail(fmt.Sprintf("expected %q, found %q", c, d.data[d.i]))
	}
	d.i++
	return nil
}

// null consumes a null literal if one comes next.
func (d *decoder) null() bool {
	d.ws()
	if len(d.data)-d.i >= 4 && string(d.data[d.i:d.i+4]) == "null" {
		d.i += 4
		return true
	}
	return false
}

// member advances to the next key of an object whose '{' was consumed and
// consumes the ':' after it; more is false at the closing '}'.
func (d *decoder) member(first bool) (key []byte, more bool, err error) {
	d.ws()
	if d.i < len(d.data) && d.data[d.i] == '}' {
		d.i++
		return nil, false, nil
	}
	if !first {
		if err := d.open(','); err != nil {
			return nil, false, err
		}
		d.ws()
	}
	key, err = d.rawString()
	if err != nil {
		return nil, false, err
	}
	if err := d.open(':'); err != nil {
		return nil, false, err
	}
	return key, true, nil
}

// element advances to the next element of an array whose '[' was consumed;
// more is false at the closing ']'.
func (d *decoder) element(first bool) (more bool, err error) {
	d.ws()
	if d.i < len(d.data) && d.data[d.i] == ']' {
		d.i++
		return false, nil
	}
	if !first {
		if err := d.open(','); err != nil {
			return false, err
		}
	}
	return true, nil
}

// str reads a string value (null reads as "") into a new Go string.
func (d *decoder) str() (string, error) {
	if d.null() {
		return "", nil
	}
	b, err := d.rawString()
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// text appends a string value (null reads as empty) to buf, so a field's
// text is copied into a buffer reused from event to event rather than into
// a new string.
func (d *decoder) text(buf []byte) ([]byte, error) {
	if d.null() {
		return buf, nil
	}
	b, err := d.rawString()
	if err != nil {
		return buf, err
	}
	return append(buf, b...), nil
}

// optText is text for keys that not every gateway uses with the same
// meaning: a value of another type is skipped and reads as empty.
func (d *decoder) optText(buf []byte) ([]byte, error) {
	d.ws()
	if d.i < len(d.data) && d.data[d.i] == '"' {
		return d.text(buf)
	}
	return buf, d.skip()
}

// smallIndex reads any value as an index: a non-negative integer of up to
// nine digits, else -1. It is lenient because the index only tells the
// stream which pieces belong together, and a value tern cannot use was
// never an error.
func (d *decoder) smallIndex() (int, error) {
	d.ws()
	start := d.i
	if err := d.skip(); err != nil {
		return -1, err
	}
	lit := d.data[start:d.i]
	if len(lit) == 0 || len(lit) > 9 {
		return -1, nil
	}
	n := 0
	for _, c := range lit {
		if c < '0' || c > '9' {
			return -1, nil
		}
		n = n*10 + int(c-'0')
	}
	return n, nil
}

// rawString reads a string and returns its unescaped bytes, which alias the
// input or the scratch buffer and are valid until the next call.
func (d *decoder) rawString() ([]byte, error) {
	d.ws()
	if d.i >= len(d.data) || d.data[d.i] != '"' {
		if d.i >= len(d.data) {
			return nil, d.fail("unexpected end of data, expected a string")
		}
		return nil, d.fail(fmt.Sprintf("expected a string, found %q", d.data[d.i]))
	}
	d.i++
	start := d.i
	for i, c := range d.data[start:] {
		if !plain[c] {
			d.i = start + i
			switch c {
			case '"':
				d.i++
				return d.data[start : d.i-1], nil
			case '\\':
				return d.escapedString(start)
			}
			return nil, d.fail("control character in string")
		}
	}
	d.i = len(d.data)
	return nil, d.fail("unterminated string")
}

// plain holds the bytes a string's scan passes over: all but the quote, the
// backslash and control characters.
var plain = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 0x20 && c != '"' && c != '\\'
	}
	return t
}()

// escapedString finishes a string that contains escapes, from its first
// backslash, decoding into the scratch buffer. Invalid UTF-8 passes through
// unchanged: a gateway that splits a character across events needs the bytes
// to reunite when the fragments are joined.
func (d *decoder) escapedString(start int) ([]byte, error) {
	buf := append(d.scratch[:0], d.data[start:d.i]...)
	for d.i < len(d.data) {
		c := d.data[d.i]
		switch {
		case c == '"':
			d.i++
			d.scratch = buf
			return buf, nil
		case c < 0x20:
			return nil, d.fail("control character in string")
		case c != '\\':
			buf = append(buf, c)
			d.i++
			continue
		}
		if d.i+1 >= len(d.data) {
			return nil, d.fail("unterminated string")
		}
		e := d.data[d.i+1]
		d.i += 2
		switch e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, ok := d.hex4()
			if !ok {
				return nil, d.fail("invalid \\u escape")
			}
			if utf16.IsSurrogate(r) {
				r = d.lowSurrogate(r)
			}
			buf = utf8.AppendRune(buf, r)
		default:
			d.i--
			return nil, d.fail(fmt.Sprintf("invalid escape \\%c", e))
		}
	}
	return nil, d.fail("unterminated string")
}

// hex4 reads the four hex digits of a \u escape.
func (d *decoder) hex4() (rune, bool) {
	if len(d.data)-d.i < 4 {
		return 0, false
	}
	var r rune
	for _, c := range d.data[d.i : d.i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	d.i += 4
	return r, true
}

// lowSurrogate completes a surrogate pair when the next escape holds the low
// half; a lone half becomes U+FFFD, as in encoding/json.
func (d *decoder) lowSurrogate(hi rune) rune {
	if len(d.data)-d.i >= 6 && d.data[d.i] == '\\' && d.data[d.i+1] == 'u' {
		save := d.i
		d.i += 2
		if lo, ok := d.hex4(); ok {
			if r := utf16.DecodeRune(hi, lo); r != utf8.RuneError {
				return r
			}
		}
		d.i = save
	}
	return utf8.RuneError
}

// int reads a number (or null, reported as absent) as an int. Fractions are
// truncated; gateways send token counts and indexes as integers.
func (d *decoder) int() (n int, ok bool, err error) {
	if d.null() {
		return 0, false, nil
	}
	start := d.i
	integer, err := d.number()
	if err != nil {
		return 0, false, err
	}
	lit := d.data[start:d.i]
	if integer && len(lit) < 19 {
		neg := lit[0] == '-'
		if neg {
			lit = lit[1:]
		}
		for _, c := range lit {
			n = n*10 + int(c-'0')
		}
		if neg {
			n = -n
		}
		return n, true, nil
	}
	if integer {
		if n, err := strconv.Atoi(string(lit)); err == nil {
			return n, true, nil
		}
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil || f < math.MinInt64 || f >= math.MaxInt64 {
		return 0, false, d.fail("number out of range")
	}
	return int(f), true, nil
}

// number consumes a JSON number and reports whether it is a plain integer.
func (d *decoder) number() (integer bool, err error) {
	d.ws()
	integer = true
	if d.i < len(d.data) && d.data[d.i] == '-' {
		d.i++
	}
	switch {
	case d.i < len(d.data) && d.data[d.i] == '0':
		d.i++
	case d.digits() == 0:
		return false, d.fail("invalid number")
	}
	if d.i < len(d.data) && d.data[d.i] == '.' {
		integer = false
		d.i++
		if d.digits() == 0 {
			return false, d.fail("invalid number")
		}
	}
	if d.i < len(d.data) && (d.data[d.i] == 'e' || d.data[d.i] == 'E') {
		integer = false
		d.i++
		if d.i < len(d.data) && (d.data[d.i] == '+' || d.data[d.i] == '-') {
			d.i++
		}
		if d.digits() == 0 {
			return false, d.fail("invalid number")
		}
	}
	return integer, nil
}

func (d *decoder) digits() int {
	start := d.i
	for d.i < len(d.data) && '0' <= d.data[d.i] && d.data[d.i] <= '9' {
		d.i++
	}
	return d.i - start
}

// skip consumes and validates one value of any type.
func (d *decoder) skip() error {
	d.ws()
	if d.i >= len(d.data) {
		return d.fail("unexpected end of data, expected a value")
	}
	switch c := d.data[d.i]; c {
	case '{':
		return d.skipContainer('}')
	case '[':
		return d.skipContainer(']')
	case '"':
		_, err := d.rawString()
		return err
	case 't':
		return d.literal("true")
	case 'f':
		return d.literal("false")
	case 'n':
		return d.literal("null")
	default:
		if c == '-' || ('0' <= c && c <= '9') {
			_, err := d.number()
			return err
		}
		return d.fail(fmt.Sprintf("unexpected character %q", c))
	}
}

func (d *decoder) skipContainer(closer byte) error {
	d.depth++
	if d.depth > maxDepth {
		return d.fail("nesting too deep")
	}
	d.i++
	for first := true; ; first = false {
		var more bool
		var err error
		if closer == '}' {
			_, more, err = d.member(first)
		} else {
			more, err = d.element(first)
		}
		if err != nil {
			return err
		}
		if !more {
			d.depth--
			return nil
		}
		if err := d.skip(); err != nil {
			return err
		}
	}
}

func (d *decoder) literal(word string) error {
	if len(d.data)-d.i < len(word) || string(d.data[d.i:d.i+len(word)]) != word {
		return d.fail("invalid literal")
	}
	d.i += len(word)
	return nil
}

// object reads an object, calling field for each member with the decoder
// positioned at its value; field must consume the value.
func (d *decoder) object(field func(key []byte) error) error {
	if err := d.open('{'); err != nil {
		return err
	}
	return d.members(field)
}

// members reads the members of an object whose '{' was already consumed.
func (d *decoder) members(field func(key []byte) error) error {
	for first := true; ; first = false {
		key, more, err := d.member(first)
		if err != nil || !more {
			return err
		}
		if err := field(key); err != nil {
			return err
		}
	}
}

// array reads an array, calling elem for each element that is not null, with
// the decoder positioned at it; elem must consume the element.
func (d *decoder) array(elem func() error) error {
	if err := d.open('['); err != nil {
		return err
	}
	for first := true; ; first = false {
		more, err := d.element(first)
		if err != nil || !more {
			return err
		}
		if d.null() {
			continue
		}
		if err := elem(); err != nil {
			return err
		}
	}
}
