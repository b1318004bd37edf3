package tools

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestLineMatcherAgainstReference compares the whole-file scan (literal
// prefilter, case-insensitive literal, whole-file regexp, line by line) with
// matching each line alone, on random text.
func TestLineMatcherAgainstReference(t *testing.T) {
	t.Parallel()
	patterns := []string{
		"ab", "a.c", `a\s+b`, `[^x]+b`, `b$`, `^a`, `^$`, `x*`, `(ab|cd)`, `\bab\b`,
		`a[bc]{2,}`, `(?i)AB`, `\Ab`, `c\z`, `\d+`, `.`, `ab+c`, `(?s)a.b`, `\r`, `ks`, `Sk+`,
		`x(?i:ab)c`, `é+b`, `(?i)éa`, `[ks]{2}`, `ab|cd`, `(ab|Éc)x`, `(?:Éa|(?i:bk))c`, `(ab|c)\d`,
	}
	rng := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"a", "b", "c", "x", " ", "\n", "\r\n", "ab", "cd", "1", "é", "É", "A", "B", "k", "s", "K", "S", "\u212a", "\u017f"}
	var scratch []byte
	for _, p := range patterns {
		for _, ignoreCase := range []bool{false, true} {
			m, err := compileLineMatcher(p, ignoreCase)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			expr := p
			if ignoreCase {
				expr = "(?i)" + p
			}
			ref := regexp.MustCompile(expr)
			for range 300 {
				var b strings.Builder
				for range rng.IntN(40) {
					b.WriteString(pieces[rng.IntN(len(pieces))])
				}
				data := []byte(b.String())
				var got []string
				m.scan(data, &scratch, func(start, end int) { got = append(got, string(data[start:end])) })
				var want []string
				if len(data) > 0 {
					for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
						if ref.MatchString(strings.TrimSuffix(line, "\r")) {
							want = append(want, line)
						}
					}
				}
				if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
					t.Fatalf("pattern %q (ignore case %v) on %q:\ngot  %q\nwant %q", p, ignoreCase, data, got, want)
				}
			}
		}
	}
}

func TestRequiredLiteral(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pattern    string
		ignoreCase bool
		lit        string
		fold, pure bool
	}{
		{`func main\(`, false, "func main(", false, true},
		{`func \w+\(ctx context\.Context`, false, "(ctx context.Context", false, false},
		{`(foo)+bar`, false, "foo", false, false},
		{`a|b`, false, "", false, false},
		{`TODO|FIXME`, false, "TODO|FIXME", false, false},
		{`(TODO|FIXME): \w+`, true, "todo|fixme", true, false},
		{`(foo|ba)r`, false, "foo|ba", false, false},
		{`(foo|b)rr`, false, "rr", false, false},
		{`(?:Éa|(?i:xy))z`, false, "Éa|xy", true, false},
		{`a1|a2|a3|a4|a5|a6|a7|a8|a9`, false, "", false, false},
		{`x{3}yz`, false, "xxxyz", false, true},
		{`[ab]cdef`, false, "cdef", false, false},
		{`func main\(`, true, "func main(", true, false},
		{`Hello World`, true, "hello world", true, false},
		{`x(?i:ab)cde`, false, "xabcde", true, false},
		{`(?i:ab)cdef`, false, "abcdef", true, false},
		{`(?i:ab)cd`, false, "abcd", true, false},
		{`(?i:ab)[0-9]cd`, false, "cd", false, false}, // a tie goes to the case-sensitive literal
		{`(?i:abcd)|x`, false, "", false, false},
		{`(?i)éclair`, false, "", false, false}, // non-ASCII case folding is left to the regexp
		{`\d+`, false, "", false, false},
	}
	for _, tt := range tests {
		m, err := compileLineMatcher(tt.pattern, tt.ignoreCase)
		if err != nil {
			t.Fatal(err)
		}
		var lits []string
		for _, l := range m.lits {
			lits = append(lits, string(l))
		}
		if got := strings.Join(lits, "|"); got != tt.lit || m.fold != tt.fold || m.pure != tt.pure {
			t.Errorf("%q (ignore case %v): literals %q fold %v pure %v; want %q %v %v",
				tt.pattern, tt.ignoreCase, got, m.fold, m.pure, tt.lit, tt.fold, tt.pure)
		}
	}
}

func TestLowerASCII(t *testing.T) {
	t.Parallel()
	in := "Hello, WÖRLD É @[`{ az AZ"
	got := string(lowerASCII(nil, []byte(in)))
	if want := "hello, wÖrld É @[`{ az az"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if len(got) != len(in) {
		t.Error("lengths differ")
	}
}
