package tui

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sahilm/fuzzy"
)

// TestFuzzyFindRanksAsFuzzy checks fuzzyFind against sahilm/fuzzy.Find on
// random paths and queries, camel case, separators, repeats and non-ASCII
// included: the same hits, in the same order, with the same scores.
func TestFuzzyFindRanksAsFuzzy(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "abcABC/_-. xyzé0"
	word := func(n int) string {
		var b []rune
		for range n {
			b = append(b, []rune(alphabet)[r.IntN(len([]rune(alphabet)))])
		}
		return string(b)
	}
	for range 300 {
		labels := make([]string, 40)
		for i := range labels {
			labels[i] = word(1 + r.IntN(20))
		}
		for _, q := range []string{word(1), word(2), word(3), "ab", "A/b", "aa"} {
			want := fuzzy.Find(q, labels)
			got := fuzzyFind(q, len(labels), func(i int) string { return labels[i] })
			if len(got) != len(want) {
				t.Fatalf("query %q over %q: %d hits, want %d", q, labels, len(got), len(want))
			}
			for i := range got {
				if got[i].index != want[i].Index || got[i].score != want[i].Score {
					t.Fatalf("query %q over %q: hit %d = %+v, want index %d score %d", q, labels, i, got[i], want[i].Index, want[i].Score)
				}
			}
		}
	}
}

// TestFuzzyFind50kIsFast bounds a keystroke's filtering of the picker's
// 50,000 files: fuzzy.Find took 40-100 ms for a one-letter query; this
// takes a few ms on a quiet machine, and the bound leaves room for a
// loaded one.
func TestFuzzyFind50kIsFast(t *testing.T) {
	t.Parallel()
	items := bigFileItems(maxMentionFiles)
	start := time.Now()
	for _, q := range []string{"f", "f1", "f12", "s11f1234"} {
		if len(matchItems(items, q)) == 0 {
			t.Fatalf("no match for %q", q)
		}
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("four filters of %d files took %v", len(items), d)
	}
}
