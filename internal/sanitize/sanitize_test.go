package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClean(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"plain", "hello\tworld\n", "hello\tworld\n"},
		{"unicode", "héllo 世界 🎉", "héllo 世界 🎉"},
		{"sgr", "\x1b[31mred\x1b[0m", "red"},
		{"cursor moves", "a\x1b[2J\x1b[H\x1b[10;20Hb", "ab"},
		{"private csi", "x\x1b[?1049hy", "xy"},
		{"osc title bel", "\x1b]0;pwned\x07ok", "ok"},
		{"osc title st", "\x1b]2;pwned\x1b\\ok", "ok"},
		{"osc52 clipboard", "\x1b]52;c;cm0gLXJmIC8=\x07after", "after"},
		{"osc8 link", "\x1b]8;;http://x\x1b\\text\x1b]8;;\x1b\\", "text"},
		{"dcs", "a\x1bPq#0;2;0;0;0\x1b\\b", "ab"},
		{"apc", "a\x1b_Gf=100;AAAA\x1b\\b", "ab"},
		{"two byte escape", "a\x1b7b\x1b8c\x1bcd", "abcd"},
		{"escape with intermediate", "a\x1b(Bb", "ab"},
		{"c0 controls", "a\x00b\x07c\x08d\x0be\x0cf\x7fg", "abcdefg"},
		{"crlf", "one\r\ntwo\r\n", "one\ntwo\n"},
		{"lone cr", "10%\r20%\r30%", "10%\n20%\n30%"},
		{"trailing cr", "done\r", "done\n"},
		{"c1 csi", "a\u009b31mb", "ab"},
		{"c1 osc", "a\u009d0;title\x07b", "ab"},
		{"c1 other", "a\u0085b\u009cc", "abc"},
		{"invalid utf8", "a\xffb\xc3", "a\uFFFDb\uFFFD"},
		{"lone escape at end", "abc\x1b", "abc"},
		{"unterminated osc stops at newline", "a\x1b]0;x\nb", "a\nb"},
		{"malformed csi", "a\x1b[12\nb", "a\nb"},
		{"esc esc", "a\x1b\x1b[31mb", "ab"},
		{"bidi override", "rm -rf /tmp/x\u202e / \u202c#", "rm -rf /tmp/x / #"},
		{"bidi embeddings and isolates", "\u202aa\u202bb\u202cc\u202dd\u2066e\u2067f\u2068g\u2069", "abcdefg"},
		{"bidi marks", "x\u200ey\u200fz\u061c", "xyz"},
		{"zero width", "pass\u200bword\u2060\ufeff\u2062", "password"},
		{"emoji joiner stays", "\U0001F469\u200d\U0001F4BB \U0001F468\u200d\U0001F469\u200d\U0001F467", "\U0001F469\u200d\U0001F4BB \U0001F468\u200d\U0001F469\u200d\U0001F467"},
		{"non-joiner stays", "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"},
		{"arrows and quotes stay", "“a” → b … ─│", "“a” → b … ─│"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := Clean(tc.in); got != tc.want {
				t.Errorf("Clean(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestStreamSplitsAnywhere(t *testing.T) {
	t.Parallel()
	in := "a\x1b[31mred\x1b[0m é\r\n\x1b]0;t\x07世界\u009b2J\u202ez\u200b\r"
	want := Clean(in)
	for i := 0; i <= len(in); i++ {
		var z Sanitizer
		got := z.Write(in[:i]) + z.Write(in[i:]) + z.Flush()
		if got != want {
			t.Fatalf("split at %d: %q, want %q", i, got, want)
		}
	}
}

// safe reports why s could still control a terminal, or "" if it cannot.
func safe(s string) string {
	if !utf8.ValidString(s) {
		return "invalid UTF-8"
	}
	for _, r := range s {
		if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) {
			return "control character " + string(r)
		}
		if isDropped(r) {
			return "bidirectional or zero-width control " + string(r)
		}
	}
	return ""
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[31mx", "\x1b]52;c;AA\x07", "\r\n\r", "\u009b1m", "\xff\xc2", "\x1bP\x1b\\", "a\u202eb\u2066\u200b", "\U0001F469\u200d\U0001F4BB\ufeff"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, cut int) {
		got := Clean(s)
		if why := safe(got); why != "" {
			t.Fatalf("Clean(%q) = %q: %s", s, got, why)
		}
		if again := Clean(got); again != got {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, got, again)
		}
		if cut < 0 {
			cut = -cut
		}
		if len(s) > 0 {
			cut %= len(s) + 1
		} else {
			cut = 0
		}
		var z Sanitizer
		if streamed := z.Write(s[:cut]) + z.Write(s[cut:]) + z.Flush(); streamed != got {
			t.Fatalf("split at %d of %q: %q, want %q", cut, s, streamed, got)
		}
		if strings.Contains(got, "\x1b") {
			t.Fatalf("escape survived in %q", got)
		}
	})
}

func BenchmarkCleanPlain(b *testing.B) {
	s := strings.Repeat("func main() { fmt.Println(\"hello\") }\n", 100)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		_ = Clean(s)
	}
}
