package sanitize

import (
	"strings"
	"testing"
)

func TestVisible(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"plain", "go test ./...\n\tok", "go test ./...\n\tok"},
		{"unicode", "héllo 世界 → “x”", "héllo 世界 → “x”"},
		{"trojan source command", "rm -rf /tmp/x\u202e / \u202c#", "rm -rf /tmp/x⟨U+202E⟩ / ⟨U+202C⟩#"},
		{"isolates and marks", "\u2066a\u2069\u200e\u200f\u061c", "⟨U+2066⟩a⟨U+2069⟩⟨U+200E⟩⟨U+200F⟩⟨U+061C⟩"},
		{"zero width", "pass\u200bw\u200cor\u200dd\u2060\ufeff", "pass⟨U+200B⟩w⟨U+200C⟩or⟨U+200D⟩d⟨U+2060⟩⟨U+FEFF⟩"},
		{"escape sequence shown", "echo \x1b[2Jhi", "echo ⟨U+001B⟩[2Jhi"},
		{"lone cr hides the start", "echo safe\rrm -rf ~", "echo safe⟨U+000D⟩rm -rf ~"},
		{"crlf", "a\r\nb", "a\nb"},
		{"c0 and del", "a\x00b\x07c\x7f", "a⟨U+0000⟩b⟨U+0007⟩c⟨U+007F⟩"},
		{"c1", "a\u009b2Jb\u0085", "a⟨U+009B⟩2Jb⟨U+0085⟩"},
		{"invalid utf8", "a\xffb\xc3", `a⟨\xff⟩b⟨\xc3⟩`},
		{"no-break and other spaces", "rm a\u00a0b\u2009c\u3000", "rm a⟨U+00A0⟩b⟨U+2009⟩c⟨U+3000⟩"},
		{"tag characters", "ok\U000E0069\U000E0067", "ok⟨U+E0069⟩⟨U+E0067⟩"},
		{"fillers and selectors", "a\u3164b\ufe0fc\u034f", "a⟨U+3164⟩b⟨U+FE0F⟩c⟨U+034F⟩"},
		{"line separator", "a\u2028b", "a⟨U+2028⟩b"},
		{"soft hyphen", "ad\u00admin", "ad⟨U+00AD⟩min"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := Visible(tc.in)
			if got != tc.want {
				t.Errorf("Visible(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if again := Visible(got); again != got {
				t.Errorf("Visible(%q) = %q, not a fixed point", got, again)
			}
			if why := unsafePiece(got); why != "" {
				t.Errorf("Visible(%q) = %q: %s", tc.in, got, why)
			}
		})
	}
}

func BenchmarkVisiblePlain(b *testing.B) {
	s := strings.Repeat("go test ./... && grep -rn “x” → ok\n", 20)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		_ = Visible(s)
	}
}
