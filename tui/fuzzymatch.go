package tui

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/sahilm/fuzzy"
)

// fuzzyHit is a matching item's position and score.
type fuzzyHit struct {
	index, score int
}

// fuzzyFind returns the hits of query among n labels, best first and in
// list order among equals: the ranking of sahilm/fuzzy.Find, which the
// palettes used, computed without an allocation per match. fuzzy.Find took
// 40-100 ms for 50,000 paths and a one-letter query (one Match, one slice
// and an interface sort per hit); an ASCII label is scored here in place
// and only labels or a query with other characters go through fuzzy.
func fuzzyFind(query string, n int, label func(i int) string) []fuzzyHit {
	if query == "" {
		return nil
	}
	hits := make([]fuzzyHit, 0, min(n, 1024))
	if !isASCII(query) {
		labels := make([]string, n)
		for i := range labels {
			labels[i] = label(i)
		}
		for _, mt := range fuzzy.Find(query, labels) {
			hits = append(hits, fuzzyHit{index: mt.Index, score: mt.Score})
		}
		return hits
	}
	lower := []byte(strings.ToLower(query))
	one := make([]string, 1)
	for i := range n {
		s := label(i)
		if !mayMatch(s, lower) {
			continue
		}
		score, ok := 0, false
		if isASCII(s) {
			score, ok = fuzzyScoreASCII(s, lower)
		} else {
			one[0] = s
			if mt := fuzzy.Find(query, one); len(mt) == 1 {
				score, ok = mt[0].Score, true
			}
		}
		if ok {
			hits = append(hits, fuzzyHit{index: i, score: score})
		}
	}
	sortHits(hits)
	return hits
}

// sortHits orders hits, found in list order, best first and in list order
// among equals, as the stable sort of fuzzy.Find does. Scores span a few
// hundred values, so a counting sort does it in two passes: sorting 50,000
// hits of a one-letter query by comparison was a fifth of filtering them.
func sortHits(hits []fuzzyHit) {
	if len(hits) < 2 {
		return
	}
	lo, hi := hits[0].score, hits[0].score
	for _, h := range hits {
		lo, hi = min(lo, h.score), max(hi, h.score)
	}
	if hi-lo > 4*len(hits)+1024 {
		// Not a range worth counting (labels of many kilobytes).
		slices.SortStableFunc(hits, func(a, b fuzzyHit) int { return b.score - a.score })
		return
	}
	// starts[k] is where the hits of score hi-k begin.
	starts := make([]int, hi-lo+2)
	for _, h := range hits {
		starts[hi-h.score+1]++
	}
	for k := 1; k < len(starts); k++ {
		starts[k] += starts[k-1]
	}
	sorted := make([]fuzzyHit, len(hits))
	for _, h := range hits {
		k := hi - h.score
		sorted[starts[k]] = h
		starts[k]++
	}
	copy(hits, sorted)
}

// mayMatch reports whether the lower-case ASCII query's bytes occur in s in
// order, ignoring ASCII case: the cheap test that rejects most labels.
// Labels with other characters always pass (fuzzy folds Unicode).
func mayMatch(s string, query []byte) bool {
	j := 0
	for i := 0; i < len(s) && j < len(query); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return true
		}
		if c-'A' < 26 {
			c += 'a' - 'A'
		}
		if c == query[j] {
			j++
		}
	}
	return j == len(query)
}

// isASCII reports whether s holds only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Scores of sahilm/fuzzy.
const (
	fzFirstCharBonus         = 10
	fzSeparatorBonus         = 20
	fzCamelCaseBonus         = 20
	fzAdjacentBonus          = 5
	fzLeadingPenalty         = -5
	fzMaxLeadingPenalty      = -15
	fzSeparators             = "/-_ .\\"
	fzNoMatch                = -1
	fzNoPattern         byte = 0
)

// fuzzyScoreASCII scores the ASCII string s against the lower-case ASCII
// query exactly as fuzzy.Find does (same greedy choice, bonuses and
// penalties); ok is false when s does not match.
func fuzzyScoreASCII(s string, query []byte) (score int, ok bool) {
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	var (
		pi          int
		best        = fzNoMatch
		matchedAt   = fzNoMatch
		adjacent    int
		matched     int
		lastMatched int
		last        byte
		lastIndex   int
	)
	for j := 0; j < len(s); j++ {
		c := s[j]
		if pi < len(query) && lowerByte(c) == query[pi] {
			sc := 0
			if j == 0 {
				sc += fzFirstCharBonus
			}
			if last-'a' < 26 && c-'A' < 26 {
				sc += fzCamelCaseBonus
			}
			if j != 0 && strings.IndexByte(fzSeparators, last) >= 0 {
				sc += fzSeparatorBonus
			}
			if matched > 0 && lastIndex == lastMatched {
				bonus := adjacent*2 + fzAdjacentBonus
				sc += bonus
				adjacent += bonus
			}
			if sc > best {
				best, matchedAt = sc, j
			}
		}
		nextp := fzNoPattern
		if pi < len(query)-1 {
			nextp = query[pi+1]
		}
		var nextc byte
		if j+1 < len(s) {
			nextc = s[j+1]
		}
		if nextc == 0 || (nextp != fzNoPattern && lowerByte(nextc) == nextp) {
			if matchedAt > fzNoMatch {
				if matched == 0 {
					best += max(matchedAt*fzLeadingPenalty, fzMaxLeadingPenalty)
				}
				score += best
				matched++
				lastMatched = matchedAt
				best, matchedAt = fzNoMatch, fzNoMatch
				pi++
			}
		}
		lastIndex = j
		last = c
	}
	score += matched - len(s)
	return score, matched == len(query)
}

// lowerByte lower-cases an ASCII letter.
func lowerByte(c byte) byte {
	if c-'A' < 26 {
		return c + 'a' - 'A'
	}
	return c
}
