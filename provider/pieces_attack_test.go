package provider

import (
	"strings"
	"testing"
)

// FuzzPiecesAsBuilder writes text cut by the fuzzer (pieces of any size,
// empty ones, cuts inside characters) into Pieces and a strings.Builder,
// asks for the whole now and then and resets now and then, and holds the
// two to the same text; a string String returned never changes afterwards.
func FuzzPiecesAsBuilder(f *testing.F) {
	f.Add("héllo 漢 \xff wörld", []byte{1, 0, 3, 255, 7, 200})
	f.Add(strings.Repeat("x", 5000), []byte{254, 255, 253, 0, 1})
	f.Fuzz(func(t *testing.T, text string, cuts []byte) {
		var p Pieces
		var want strings.Builder
		type seen struct{ got, want string }
		var returned []seen
		for i, c := range cuts {
			// A cut's size: small ones, one around pieceKept, or past the tail.
			n := int(c)
			switch c % 4 {
			case 1:
				n = pieceKept - 2 + int(c)%5
			case 2:
				n = tailSize - 3 + int(c)%7
			}
			n = min(n, len(text))
			p.WriteString(text[:n])
			want.WriteString(text[:n])
			text = text[n:]
			switch {
			case c%7 == 3:
				returned = append(returned, seen{p.String(), want.String()})
			case c == 0 && i%2 == 1:
				p.Reset()
				want.Reset()
			}
		}
		p.WriteString(text)
		want.WriteString(text)
		if got := p.String(); got != want.String() || p.Len() != want.Len() {
			t.Fatalf("String() = %d bytes %.40q, Len %d; want %d bytes %.40q", len(got), got, p.Len(), want.Len(), want.String())
		}
		for i, s := range returned {
			if s.got != s.want {
				t.Fatalf("string %d String returned is now %.40q, was %.40q", i, s.got, s.want)
			}
		}
	})
}
