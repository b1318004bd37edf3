package headless

import (
	"strings"
	"unicode/utf8"
)

// Sanitize strips everything a terminal would interpret from text meant to be
// printed: escape sequences (CSI, OSC, DCS, SOS, PM, APC and two-byte ESC
// sequences), their 8-bit C1 forms, C0 controls other than newline and tab,
// DEL, and carriage returns. Invalid UTF-8 becomes U+FFFD, so a stray 0x9B
// byte can never act as an 8-bit CSI. Model output and tool output are data:
// printed raw they could move the cursor, retitle the window or write to the
// clipboard (OSC 52).
func Sanitize(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteRune(utf8.RuneError)
			i++
		case r == 0x1b:
			i = skipEscape(s, i+1)
		case r == 0x9b: // 8-bit CSI
			i = skipCSI(s, i+size)
		case r == 0x90 || r == 0x9d || r == 0x98 || r == 0x9e || r == 0x9f: // DCS, OSC, SOS, PM, APC
			i = skipString(s, i+size)
		case r == '\n' || r == '\t':
			b.WriteRune(r)
			i += size
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			i += size
		default:
			b.WriteString(s[i : i+size])
			i += size
		}
	}
	return b.String()
}

// isPlain reports whether s is printable ASCII with newlines and tabs only,
// the common case, which needs no copy.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\n' && c != '\t') || c >= 0x7f {
			return false
		}
	}
	return true
}

// skipEscape skips the sequence after an ESC at s[i-1] and returns the index
// after it.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', 'X', '^', '_':
		return skipString(s, i+1)
	}
	// nF sequences: intermediates 0x20-0x2F, then one final byte.
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		return i + 1
	}
	// ESC followed by a control or a non-ASCII byte: drop only the ESC.
	return i
}

// skipCSI skips parameter and intermediate bytes up to and including the
// final byte (0x40-0x7E). A sequence broken by another byte ends there.
func skipCSI(s string, i int) int {
	for i < len(s) {
		c := s[i]
		switch {
		case c >= 0x20 && c <= 0x3f:
			i++
		case c >= 0x40 && c <= 0x7e:
			return i + 1
		default:
			return i
		}
	}
	return i
}

// skipString skips a control string (OSC, DCS, SOS, PM, APC) up to and
// including its terminator: BEL, ESC \ or the 8-bit ST (U+009C). An
// unterminated string swallows the rest of the input, as a terminal would.
func skipString(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			// ESC starting something else also ends the string.
			return i
		case strings.HasPrefix(s[i:], "\u009c"):
			return i + len("\u009c")
		case s[i] == 0x18 || s[i] == 0x1a: // CAN, SUB abort the string
			return i + 1
		}
		i++
	}
	return i
}
