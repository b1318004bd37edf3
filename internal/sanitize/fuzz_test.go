package sanitize

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzSanitize feeds a stream to a Sanitizer in many random pieces, as
// deltas arrive from a model or chunks from a command, and checks every piece
// on its own: the TUI renders each as it comes, so none may hold ESC, a C0
// or C1 control other than newline and tab, DEL, or invalid UTF-8 (a raw
// 0x80-0x9F byte can then only be a continuation byte of a printable
// character, never an 8-bit control), nor a bidirectional control or a
// zero-width character Clean drops. The pieces together must equal Clean
// of the whole. Visible of the whole must be as safe, show every hidden
// character as an escape, keep every other character in order, and be its
// own Visible.
func FuzzSanitize(f *testing.F) {
	f.Add("\x1b[31mred\x1b[0m\r\nnext", []byte{1, 2, 3})
	f.Add("\x1b]52;c;cm0gLXJmIC8=\x07\u009b2J\xc2\x9b", []byte{0, 1, 0, 5})
	f.Add("日本\xe6\x97\xa5\xe6\x97", []byte{1, 1, 1, 1, 1, 1, 1})
	f.Add("a\x1bP\x1b\\b\x1b", []byte{2})
	f.Add("\r\r\n\r", []byte{1, 0, 1})
	f.Add("rm -rf /tmp/x\u202e /\u202c # \u2066safe\u2069", []byte{15, 1, 2})
	f.Add("pass\u200bword\u2060\ufeff \u061c\u200e\u200f", []byte{5, 1})
	f.Add("\U0001F469\u200d\U0001F4BB \u00a0\U000E0041\ufe0f", []byte{3, 3, 1})
	f.Fuzz(func(t *testing.T, s string, cuts []byte) {
		var z Sanitizer
		var all strings.Builder
		rest := s
		check := func(piece, out string) {
			if why := unsafePiece(out); why != "" {
				t.Fatalf("Write of piece %q (of %q) returned %q: %s", piece, s, out, why)
			}
			all.WriteString(out)
		}
		for _, c := range cuts {
			if rest == "" {
				break
			}
			n := int(c) % (len(rest) + 1)
			check(rest[:n], z.Write(rest[:n]))
			rest = rest[n:]
		}
		check(rest, z.Write(rest))
		check("(flush)", z.Flush())
		if want := Clean(s); all.String() != want {
			t.Fatalf("streamed in pieces %v: %q, want Clean's %q", cuts, all.String(), want)
		}
		checkVisible(t, s)
		// Flush reset the sanitizer: a fresh stream is not affected by
		// whatever state the last one ended in.
		if got := z.Write("x\n") + z.Flush(); got != "x\n" {
			t.Fatalf("after Flush, Write(\"x\\n\") = %q", got)
		}
	})
}

// unsafePiece says why s could still control a terminal, or "" if it cannot.
func unsafePiece(s string) string {
	if !utf8.ValidString(s) {
		return "invalid UTF-8"
	}
	if strings.IndexByte(s, 0x1b) >= 0 {
		return "ESC"
	}
	for _, r := range s {
		if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) {
			return "control character " + string(r)
		}
		if isDropped(r) {
			return fmt.Sprintf("bidirectional or zero-width control U+%04X", r)
		}
	}
	return ""
}

// checkVisible checks Visible(s): terminal-safe, nothing hidden left, every
// character of s that is not escaped kept in order, and a fixed point.
func checkVisible(t *testing.T, s string) {
	t.Helper()
	v := Visible(s)
	if why := unsafePiece(v); why != "" {
		t.Fatalf("Visible(%q) = %q: %s", s, v, why)
	}
	for _, r := range v {
		if isHidden(r) {
			t.Fatalf("Visible(%q) = %q still holds U+%04X", s, v, r)
		}
	}
	if again := Visible(v); again != v {
		t.Fatalf("Visible is not a fixed point: %q -> %q -> %q", s, v, again)
	}
	rest := v
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		escaped := (r == utf8.RuneError && n == 1) || r < 0x20 || (r >= 0x7f && r <= 0x9f) || isHidden(r)
		if escaped && r != '\n' && r != '\t' {
			continue
		}
		j := strings.IndexRune(rest, r)
		if j < 0 {
			t.Fatalf("Visible(%q) = %q lost %q", s, v, r)
		}
		rest = rest[j+utf8.RuneLen(r):]
	}
}
