package provider

import (
	"strings"
	"testing"
)

func TestPiecesJoinWhatWasWritten(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("b", pieceKept)
	cases := []struct {
		name   string
		pieces []string
	}{
		{"nothing", nil},
		{"empty pieces", []string{"", ""}},
		{"one small", []string{"hello"}},
		{"one large", []string{big}},
		{"small then large", []string{"a", "b", big, "c"}},
		{"large then small", []string{big, "x", big + "y", "z"}},
		{"small ones past the tail", strings.Split(strings.Repeat("token ", tailSize), " ")},
		{"mixed", []string{"x", strings.Repeat("y", tailSize-1), "zz", big, ""}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var p Pieces
			var want strings.Builder
			for i, s := range tc.pieces {
				p.WriteString(s)
				want.WriteString(s)
				if i%7 == 3 { // asking in between changes nothing
					if got := p.String(); got != want.String() {
						t.Fatalf("after %d pieces: %q, want %q", i+1, got, want.String())
					}
				}
			}
			for range 2 {
				if got := p.String(); got != want.String() {
					t.Fatalf("String() = %q, want %q", got, want.String())
				}
				if p.Len() != want.Len() {
					t.Fatalf("Len() = %d, want %d", p.Len(), want.Len())
				}
			}
			p.Reset()
			if p.String() != "" || p.Len() != 0 {
				t.Fatalf("after Reset: %q (%d bytes)", p.String(), p.Len())
			}
			p.WriteString("again")
			if p.String() != "again" {
				t.Fatalf("after Reset and a write: %q", p.String())
			}
		})
	}
}

func TestPiecesJoinOnce(t *testing.T) { // not parallel: AllocsPerRun
	var p Pieces
	for range 20 {
		p.WriteString(strings.Repeat("x", 3000))
	}
	first := p.String()
	if n := testing.AllocsPerRun(10, func() { _ = p.String() }); n != 0 {
		t.Errorf("String allocated %.0f times after the first join, want 0", n)
	}
	if p.String() != first {
		t.Error("String changed without a write")
	}
}

// BenchmarkPieces gathers a 62 KB answer in 20 bursts, as the agent gets a
// fast answer, and joins it once, against a strings.Builder.
func BenchmarkPieces(b *testing.B) {
	burst := strings.Repeat("Some **markdown** text of an answer.\n", 84) // ~3 KB
	b.Run("pieces", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var p Pieces
			for range 20 {
				p.WriteString(burst)
			}
			_ = p.String()
		}
	})
	b.Run("builder", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var sb strings.Builder
			for range 20 {
				sb.WriteString(burst)
			}
			_ = sb.String()
		}
	})
}
