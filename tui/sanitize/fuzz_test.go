package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzSanitize feeds a stream to a Sanitizer in many random pieces, as
// deltas arrive from a model or chunks from a command, and checks every piece
// on its own: the TUI renders each as it comes, so none may hold ESC, a C0
// or C1 control other than newline and tab, DEL, or invalid UTF-8 (a raw
// 0x80-0x9F byte can then only be a continuation byte of a printable
// character, never an 8-bit control). The pieces together must equal Clean
// of the whole.
func FuzzSanitize(f *testing.F) {
	f.Add("\x1b[31mred\x1b[0m\r\nnext", []byte{1, 2, 3})
	f.Add("\x1b]52;c;cm0gLXJmIC8=\x07\u009b2J\xc2\x9b", []byte{0, 1, 0, 5})
	f.Add("日本\xe6\x97\xa5\xe6\x97", []byte{1, 1, 1, 1, 1, 1, 1})
	f.Add("a\x1bP\x1b\\b\x1b", []byte{2})
	f.Add("\r\r\n\r", []byte{1, 0, 1})
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
	}
	return ""
}
