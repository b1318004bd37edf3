package provider

import (
	"encoding/json"
	"testing"
)

// FuzzValidUTF8AsEncodingJSON holds validUTF8 to what a string reads back
// as from a line encoding/json wrote, as the session log keeps an answer.
func FuzzValidUTF8AsEncodingJSON(f *testing.F) {
	for _, s := range []string{"", "plain", "bad \xff\xfe", "\xed\xa0\x80 surrogate", "cut \xe2\x82", "\xc0\xaf overlong", "\xf4\x90\x80\x80", "é漢😀\ufffd"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := validUTF8(s), AsLogged(t, s); got != want {
			t.Fatalf("validUTF8(%q) = %q, want %q", s, got, want)
		}
	})
}

func TestAccumulatorKeepsValidUTF8(t *testing.T) {
	t.Parallel()
	var a Accumulator
	for _, s := range []string{"a \xe6", "\xbc\xa2 b \xff", "c"} { // 漢 cut in two, and a stray byte
		a.Add(Delta{Kind: DeltaText, Text: s})
		a.Add(Delta{Kind: DeltaReasoning, Text: s})
	}
	const want = "a 漢 b \ufffdc"
	if a.Text() != want || a.Reasoning() != want {
		t.Errorf("Text %q, Reasoning %q; want %q", a.Text(), a.Reasoning(), want)
	}
}

// AsLogged is s as a session log line gives it back: encoded by
// encoding/json and decoded again (the external tests use it too).
func AsLogged(t testing.TB, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back string
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	return back
}
