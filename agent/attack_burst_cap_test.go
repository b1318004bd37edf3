package agent

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ternhq/tern/provider"
)

// TestAttackBurstCapOnACharacterSplitAcrossEvents: a gateway may split a
// character across two events (the decoder passes the halves through so
// they reunite). Cut one piece at a time, the cap can fall between the
// halves and keep the first half; cut as one joined delta it backs up to
// the character's start. So the joined burst is cut at the same byte as
// its pieces except for those halves: it never keeps half a character,
// and never keeps more. Every other byte matches.
func TestAttackBurstCapOnACharacterSplitAcrossEvents(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		burst []string
	}{
		{"euro split after its first byte", []string{"ab\xe2", "\x82\xac", "c"}},
		{"emoji split in the middle", []string{"x\xf0\x9f", "\x98\x80", "\x00\"}"}},
		{"emoji split at every byte", []string{"\xf0", "\x9f", "\x98", "\x80", "é"}},
		{"invalid bytes that never reunite", []string{"a\xff", "\xfe", "b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			total := len(strings.Join(tc.burst, ""))
			for limit := 1; limit <= total+1; limit++ {
				kept := func(deltas []string) string {
					c := newAnswerCap(limit)
					var b strings.Builder
					for _, s := range deltas {
						d, fits := c.admit(provider.Delta{Kind: provider.DeltaText, Text: s})
						b.WriteString(d.Text)
						if !fits {
							break
						}
					}
					return b.String()
				}
				pieces, joined := kept(tc.burst), kept([]string{strings.Join(tc.burst, "")})
				if pieces == joined {
					continue
				}
				half := strings.TrimPrefix(pieces, joined)
				if !strings.HasPrefix(pieces, joined) || utf8.FullRuneInString(half) || len(half) >= utf8.UTFMax {
					t.Errorf("limit %d: pieces keep %q, the joined burst %q: more than half a character apart", limit, pieces, joined)
				}
			}
		})
	}
}
