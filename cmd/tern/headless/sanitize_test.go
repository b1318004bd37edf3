package headless

import (
	"testing"
	"unicode/utf8"
)

func TestSanitize(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"plain", "hello\n\tworld", "hello\n\tworld"},
		{"unicode kept", "naïve → ✓ 日本", "naïve → ✓ 日本"},
		{"SGR colour", "\x1b[31mred\x1b[0m", "red"},
		{"cursor movement", "a\x1b[2J\x1b[1;1Hb", "ab"},
		{"private CSI", "\x1b[?1049hx\x1b[?25l", "x"},
		{"OSC title with BEL", "\x1b]0;pwned\x07text", "text"},
		{"OSC 52 clipboard with ST", "\x1b]52;c;ZXZpbA==\x1b\\after", "after"},
		{"OSC 8 hyperlink", "\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"DCS", "\x1bPq#0;2;0;0;0\x1b\\done", "done"},
		{"APC and PM and SOS", "\x1b_apc\x1b\\\x1b^pm\x1b\\\x1bXsos\x1b\\ok", "ok"},
		{"two-byte escapes", "\x1b7saved\x1b8\x1bc\x1b(B!", "saved!"},
		{"8-bit CSI", "a\u009b31mb", "ab"},
		{"8-bit OSC with 8-bit ST", "a\u009d0;title\u009cb", "ab"},
		{"8-bit DCS with BEL", "a\u0090data\x07b", "ab"},
		{"other C1 dropped", "a\u0085b\u0084c", "abc"},
		{"raw 0x9b byte is not CSI", "a\x9b31mb", "a\ufffd31mb"},
		{"C0 controls dropped", "a\x00b\x07c\x08d\x0be\x0cf\rg\x7fh", "abcdefgh"},
		{"CRLF becomes LF", "one\r\ntwo\r\n", "one\ntwo\n"},
		{"unterminated OSC swallows the rest", "x\x1b]0;never ends", "x"},
		{"unterminated CSI", "x\x1b[12", "x"},
		{"lone ESC at end", "x\x1b", "x"},
		{"ESC before newline keeps newline", "x\x1b\ny", "x\ny"},
		{"CSI broken by control", "x\x1b[1\ny", "x\ny"},
		{"OSC ended by CAN", "x\x1b]0;t\x18y", "xy"},
		{"invalid UTF-8", "a\xff\xfeb", "a\ufffd\ufffdb"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := Sanitize(tc.in); got != tc.want {
				t.Errorf("Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"\x1b[31mx", "\x1b]0;t\x07", "\u009b1m", "a\x00b", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := Sanitize(in)
		// Valid UTF-8 means a raw 0x80-0x9F byte can only be a continuation
		// byte of a printable character, never an 8-bit control.
		if !utf8.ValidString(out) {
			t.Fatalf("Sanitize(%q) = %q is not valid UTF-8", in, out)
		}
		for _, r := range out {
			if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) {
				t.Fatalf("Sanitize(%q) = %q keeps control %U", in, out, r)
			}
		}
		if Sanitize(out) != out {
			t.Fatalf("Sanitize is not idempotent on %q", in)
		}
	})
}
