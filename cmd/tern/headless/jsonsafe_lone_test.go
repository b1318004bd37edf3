package headless

import (
	"testing"
	"unicode/utf8"
)

// TestEscapeInvisibleLoneC1Byte covers invalid UTF-8 that a terminal in
// 8-bit mode reads as a C1 control: a lone 0x9b is CSI, 0x9d OSC. Such a
// byte can reach a JSON line inside a json.RawMessage (encoding/json copies
// raw messages byte for byte), and must come out as \ufffd wherever it is,
// first or after plain ASCII.
func TestEscapeInvisibleLoneC1Byte(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"{\"a\":\"x\x9b2J\"}\n",
		"\x9b2J",
		"{\"a\":\"\x9d0;owned\x07\"}",
		"{\"é\":\"\x9b\"}",
	} {
		out := EscapeInvisible([]byte(in))
		if !utf8.Valid(out) {
			t.Errorf("EscapeInvisible(%q) = %q: an invalid byte is left raw", in, out)
		}
	}
}
