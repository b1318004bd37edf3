package markdown

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// glamour gives every table the whole wrap width and spreads the slack over
// its columns, so a two-column table of short words spans the screen.
// fitTables takes the slack back out of the rendered lines: in each column
// it keeps the cells' content and one column of margin on either side, and
// drops the padding every row has beyond them. A table whose content needed
// the width has no such padding and is left as glamour wrapped it.

// span is one drawn cell of a line: the escape sequences before it and the
// grapheme drawn, w columns wide.
type span struct {
	esc  string
	text string
	w    int
}

// spans splits a rendered line into its drawn cells; tail holds the escape
// sequences after the last one.
func spans(line string) (out []span, tail string) {
	var esc strings.Builder
	for i := 0; i < len(line); {
		if line[i] == 0x1b && i+1 < len(line) && line[i+1] == '[' {
			j := i + 2
			for j < len(line) && (line[j] < 0x40 || line[j] > 0x7e) {
				j++
			}
			j = min(j+1, len(line))
			esc.WriteString(line[i:j])
			i = j
			continue
		}
		g, w := ansi.FirstGraphemeCluster(line[i:], ansi.GraphemeWidth)
		if g == "" {
			break
		}
		out = append(out, span{esc: esc.String(), text: g, w: w})
		esc.Reset()
		i += len(g)
	}
	return out, esc.String()
}

// grid is a rendered line as one entry per screen column: the text drawn
// there (a wide grapheme fills its second column with "").
func grid(line string) []string {
	sp, _ := spans(line)
	var g []string
	for _, s := range sp {
		g = append(g, s.text)
		for range s.w - 1 {
			g = append(g, "")
		}
	}
	return g
}

// ruleSeparators reports the columns of the separators in a table's header
// rule ("───┼───" or "---|---") and where the rule starts and ends; ok is
// false for any other line. A one-column table has no separator and is not
// recognised: its rule looks like a thematic break.
func ruleSeparators(g []string) (seps []int, first, last int, ok bool) {
	first = -1
	for c, s := range g {
		switch s {
		case " ":
			if first >= 0 {
				return nil, 0, 0, false
			}
		case "─", "-":
			if first < 0 {
				first = c
			}
			last = c
		case "┼", "|":
			if first < 0 {
				return nil, 0, 0, false
			}
			seps = append(seps, c)
		default:
			return nil, 0, 0, false
		}
	}
	return seps, first, last, len(seps) > 0 && last > seps[len(seps)-1]
}

// isRow reports whether g has a column separator at every one of seps.
func isRow(g []string, seps []int) bool {
	for _, c := range seps {
		if c >= len(g) || (g[c] != "│" && g[c] != "|") {
			return false
		}
	}
	return true
}

// fitTables returns lines with every table shrunk to its content.
func fitTables(lines []string) []string {
	grids := make([][]string, len(lines))
	for i, l := range lines {
		if strings.ContainsAny(l, "─-") {
			grids[i] = grid(l)
		}
	}
	for r := range lines {
		if grids[r] == nil {
			continue
		}
		seps, first, last, ok := ruleSeparators(grids[r])
		if !ok {
			continue
		}
		top, bottom := r, r
		for top > 0 && isRow(gridOf(grids, lines, top-1), seps) {
			top--
		}
		for bottom+1 < len(lines) && isRow(gridOf(grids, lines, bottom+1), seps) {
			bottom++
		}
		if top == r || bottom == r {
			continue
		}
		drop := slack(grids[top:bottom+1], r-top, seps, first, last)
		if len(drop) == 0 {
			continue
		}
		for i := top; i <= bottom; i++ {
			lines[i] = dropColumns(lines[i], drop)
			grids[i] = nil
		}
	}
	return lines
}

// gridOf returns the grid of line i, computing it when the cheap filter in
// fitTables skipped it.
func gridOf(grids [][]string, lines []string, i int) []string {
	if grids[i] == nil {
		grids[i] = grid(lines[i])
	}
	return grids[i]
}

// slack returns the columns of a table that hold padding in every row:
// those of each column beyond its content and one margin column either side.
// rows[rule] is the header rule, which spans first to last.
func slack(rows [][]string, rule int, seps []int, first, last int) map[int]bool {
	drop := map[int]bool{}
	bounds := append(append([]int{first - 1}, seps...), last+1)
	for k := 0; k+1 < len(bounds); k++ {
		from, to := bounds[k]+1, bounds[k+1]-1
		lo, hi := to+1, from-1
		for i, g := range rows {
			if i == rule {
				continue
			}
			for c := from; c <= min(to, len(g)-1); c++ {
				if g[c] != " " {
					lo, hi = min(lo, c), max(hi, c)
				}
			}
		}
		if lo > hi { // an empty column keeps one blank between its margins
			lo, hi = from+1, from+1
		}
		for c := from; c <= to; c++ {
			if c < lo-1 || c > hi+1 {
				drop[c] = true
			}
		}
	}
	return drop
}

// dropColumns removes the graphemes drawn at the given columns, keeping
// every escape sequence so that styles still open and close as before.
func dropColumns(line string, drop map[int]bool) string {
	sp, tail := spans(line)
	var b strings.Builder
	col := 0
	for _, s := range sp {
		b.WriteString(s.esc)
		if !drop[col] {
			b.WriteString(s.text)
		}
		col += s.w
	}
	b.WriteString(tail)
	return b.String()
}
