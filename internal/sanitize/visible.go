package sanitize

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Visible returns s for a place where the user must see exactly what it
// holds before deciding: a command or a diff in an approval dialog, a path,
// a file name. Newline and tab stay and CRLF becomes LF, as in Clean; every
// other control character (ESC included, so a sequence shows as its text
// after ⟨U+001B⟩), a lone CR, and every character isHidden names are shown
// as ⟨U+XXXX⟩; an invalid byte is shown as ⟨\xNN⟩. Nothing else is dropped.
// The result is as safe for the terminal as Clean's, and Visible of it is
// itself.
func Visible(s string) string {
	if isVisible(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\r' && i+1 < len(s) && s[i+1] == '\n':
			case c == '\n' || c == '\t':
				b.WriteByte(c)
			case c < 0x20 || c == 0x7f:
				fmt.Fprintf(&b, "⟨U+%04X⟩", c)
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, "⟨\\x%02x⟩", c)
		case r <= 0x9f || isHidden(r):
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// isVisible reports whether Visible would return s unchanged.
func isVisible(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || r <= 0x9f || isHidden(r) {
			return false
		}
		i += n
	}
	return true
}
