// Package sanitize strips terminal control sequences from text that came from
// a model or a tool, so that nothing it says can move the cursor, set the
// window title, clear the screen or write the clipboard.
//
// What survives is printable UTF-8 plus newline and tab. ESC sequences (CSI,
// OSC, DCS, SOS, PM, APC and two-byte escapes) are dropped whole, as are their
// 8-bit C1 forms; other C0 and C1 controls and DEL are dropped; invalid UTF-8
// becomes U+FFFD. CRLF becomes LF and a lone CR becomes LF, so progress
// output stays readable line by line. Bidirectional controls and the
// zero-width characters nothing needs are dropped too, so text cannot be
// reordered or split unseen; emoji joiners stay.
//
// Where the user must see exactly what a string holds, a command to approve,
// a path, a file name, Visible keeps everything and shows what would be
// invisible or would act on the terminal as an escape such as ⟨U+202E⟩.
package sanitize

import (
	"strings"
	"unicode/utf8"
)

// state is where the scanner is inside a control sequence.
type state uint8

const (
	ground    state = iota
	escape          // after ESC
	escInter        // after ESC and intermediate bytes
	csi             // inside a control sequence introducer
	str             // inside OSC/DCS/SOS/PM/APC, until BEL or ST
	strEscape       // ESC seen inside a string: ST if the next byte is '\'
)

// Sanitizer cleans a stream of text that may arrive in arbitrary pieces: a
// sequence or a UTF-8 rune split across two writes is handled as if it had
// arrived whole. The zero value is ready to use.
type Sanitizer struct {
	st      state
	pending []byte // an incomplete UTF-8 rune or a CR waiting for its LF
}

// Clean returns s with every control sequence and control character, and
// every bidirectional control and needless zero-width character, removed.
func Clean(s string) string {
	if isClean(s) {
		return s
	}
	var z Sanitizer
	return z.Write(s) + z.Flush()
}

// isClean reports whether s needs no work: valid UTF-8 with no control bytes
// other than LF and tab, no C1 code points (whose UTF-8 lead byte is 0xC2)
// and nothing isDropped removes (whose lead bytes are 0xD8, 0xE2 and 0xEF).
// It runs over every tool output a resumed session replays (pprof of tern -c
// on 2,000 turns: a tenth of the interface's replay), so the bytes to look at
// are found through a table, not a chain of comparisons.
func isClean(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !suspect[c] {
			continue
		}
		if c != 0xd8 && c != 0xe2 && c != 0xef {
			return false
		}
		if r, _ := utf8.DecodeRuneInString(s[i:]); isDropped(r) {
			return false
		}
	}
	return utf8.ValidString(s)
}

// suspect marks the bytes isClean must look at: control bytes but LF and
// tab, DEL, 0xC2, and the lead bytes of what isDropped removes. Never
// written after it is built.
var suspect = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = c != '\n' && c != '\t'
	}
	for _, c := range []byte{0x7f, 0xc2, 0xd8, 0xe2, 0xef} {
		t[c] = true
	}
	return t
}()

// Write cleans the next piece of the stream and returns what can be shown now.
func (z *Sanitizer) Write(s string) string {
	if len(z.pending) == 0 && z.st == ground && isClean(s) {
		return s
	}
	data := s
	if len(z.pending) > 0 {
		data = string(z.pending) + s
		z.pending = z.pending[:0]
	}
	var b strings.Builder
	b.Grow(len(data))
	for i := 0; i < len(data); {
		c := data[i]
		switch z.st {
		case ground:
			n := z.ground(&b, data, i)
			if n == 0 { // incomplete rune or CR at the end: wait for more
				z.pending = append(z.pending, data[i:]...)
				return b.String()
			}
			i += n
			continue
		case escape:
			switch {
			case c == '[':
				z.st = csi
			case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
				z.st = str
			case c >= 0x20 && c <= 0x2f:
				z.st = escInter
			case c >= 0x30 && c <= 0x7e:
				z.st = ground
			default: // not a sequence after all: look at this byte again
				z.st = ground
				continue
			}
		case escInter:
			switch {
			case c >= 0x20 && c <= 0x2f:
			case c >= 0x30 && c <= 0x7e:
				z.st = ground
			default:
				z.st = ground
				continue
			}
		case csi:
			switch {
			case c >= 0x20 && c <= 0x3f: // parameters and intermediates
			case c >= 0x40 && c <= 0x7e:
				z.st = ground
			default: // malformed: drop what we have, reprocess this byte
				z.st = ground
				continue
			}
		case str:
			switch c {
			case 0x07:
				z.st = ground
			case 0x1b:
				z.st = strEscape
			case '\n': // a runaway string must not swallow the rest of the text
				z.st = ground
				continue
			}
		case strEscape:
			if c == '\\' {
				z.st = ground
			} else {
				z.st = str
				continue
			}
		}
		i++
	}
	return b.String()
}

// ground handles data[i] outside any sequence and returns how many bytes it
// consumed, or 0 when data ends in the middle of something.
func (z *Sanitizer) ground(b *strings.Builder, data string, i int) int {
	c := data[i]
	switch {
	case c == '\n' || c == '\t':
		b.WriteByte(c)
		return 1
	case c == '\r':
		if i+1 == len(data) {
			return 0
		}
		b.WriteByte('\n')
		if data[i+1] == '\n' {
			return 2
		}
		return 1
	case c == 0x1b:
		z.st = escape
		return 1
	case c < 0x20 || c == 0x7f:
		return 1
	case c < 0x80:
		b.WriteByte(c)
		return 1
	}
	if !utf8.FullRuneInString(data[i:]) {
		return 0
	}
	r, n := utf8.DecodeRuneInString(data[i:])
	switch {
	case r == utf8.RuneError:
		b.WriteRune(utf8.RuneError)
	case r == 0x9b: // 8-bit CSI
		z.st = csi
	case r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f: // OSC, DCS, SOS, PM, APC
		z.st = str
	case r >= 0x80 && r <= 0x9f:
	case isDropped(r):
	default:
		b.WriteString(data[i : i+n])
	}
	return n
}

// Flush ends the stream: it returns what a final incomplete piece stands for
// (a lone CR is a line break, a truncated rune is U+FFFD) and resets z.
func (z *Sanitizer) Flush() string {
	p := z.pending
	z.pending, z.st = nil, ground
	switch {
	case len(p) == 0:
		return ""
	case len(p) == 1 && p[0] == '\r':
		return "\n"
	}
	return string(utf8.RuneError)
}
