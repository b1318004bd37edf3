package headless

import (
	"fmt"
	"io"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// EscapeInvisible rewrites JSON text written by encoding/json so that DEL,
// every C1 control and every invisible formatting character (Unicode
// category Cf: the bidirectional controls, zero-width characters, the soft
// hyphen, tag characters; and the line and paragraph separators) is
// written as a \u escape, as encoding/json already writes C0 controls in
// strings. It leaves the others raw, and a terminal acts on them when the
// JSON is printed with cat. Outside strings JSON holds only ASCII
// punctuation, letters, digits and white space, so every such character is
// inside a string, where its escape decodes to the same text; the newline
// ending each JSON line stays.
func EscapeInvisible(b []byte) []byte {
	i := 0
	for i < len(b) && !needsEscape(b[i:]) {
		// Step over whole characters: a continuation byte met on its own
		// is invalid UTF-8 (a lone 0x9b is CSI to an 8-bit terminal).
		if b[i] < utf8.RuneSelf {
			i++
		} else {
			_, n := utf8.DecodeRune(b[i:])
			i += n
		}
	}
	if i == len(b) {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	out = append(out, b[:i]...)
	for i < len(b) {
		c := b[i]
		if c < utf8.RuneSelf {
			if c == 0x7f {
				out = fmt.Appendf(out, `\u%04x`, c)
			} else {
				out = append(out, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			out = append(out, `\ufffd`...)
		case escapedRune(r):
			if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
				out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
		default:
			out = append(out, b[i:i+n]...)
		}
		i += n
	}
	return out
}

// needsEscape reports whether the character b starts with is one
// EscapeInvisible rewrites; a cheap test for the common case of nothing.
func needsEscape(b []byte) bool {
	c := b[0]
	if c < utf8.RuneSelf {
		return c == 0x7f
	}
	r, n := utf8.DecodeRune(b)
	return r == utf8.RuneError && n == 1 || escapedRune(r)
}

// escapedRune reports whether EscapeInvisible writes r as an escape.
func escapedRune(r rune) bool {
	return r >= 0x80 && r <= 0x9f || r >= 0x2060 && r <= 0x206f ||
		unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// invisibleEscaper writes each JSON line it is given through
// EscapeInvisible.
type invisibleEscaper struct{ w io.Writer }

func (e invisibleEscaper) Write(b []byte) (int, error) {
	if _, err := e.w.Write(EscapeInvisible(b)); err != nil {
		return 0, err
	}
	return len(b), nil
}
