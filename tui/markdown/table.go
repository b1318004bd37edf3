package markdown

import (
	"strings"

	east "github.com/yuin/goldmark/extension/ast"
)

// A table is drawn as glamour drew it, with no outer border:
//
//	 name  │ size
//	───────┼──────
//	 a.go  │   12
//
// Each column is as wide as its widest cell when the table fits; when it
// does not, wide columns share what is left and their cells wrap, and
// columns that cannot get minColumn cells are left out, an ellipsis in
// their place.

// minColumn is the narrowest a column is drawn.
const minColumn = 3

// cell is one table cell: its content and alignment.
type cell struct {
	runs  []run
	align east.Alignment
}

// table draws a GitHub table in width columns.
func (w *walker) table(t *east.Table, width int) []string {
	rows, ncol := w.tableRows(t)
	if ncol == 0 {
		return nil
	}
	return w.drawTable(rows, ncol, width)
}

// tableRows collects the cells of t's rows, the header's (first) bold, and
// the number of columns.
func (w *walker) tableRows(t *east.Table) ([][]cell, int) {
	var rows [][]cell
	ncol := 0
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		_, header := r.(*east.TableHeader)
		var row []cell
		for c := r.FirstChild(); c != nil; c = c.NextSibling() {
			tc, ok := c.(*east.TableCell)
			if !ok {
				continue
			}
			base := w.pal.text
			if header {
				base = base.with(bold)
			}
			row = append(row, cell{runs: w.inlines(tc, base), align: tc.Alignment})
		}
		ncol = max(ncol, len(row))
		rows = append(rows, row)
	}
	return rows, ncol
}

// drawTable draws rows, the first the header, in width columns.
func (w *walker) drawTable(rows [][]cell, ncol, width int) []string {
	header := 0
	widths, cut := columnWidths(rows, ncol, width)
	// Wrap every cell, then narrow each column to its widest wrapped line.
	wrapped := make([][][][]run, len(rows))
	used := make([]int, len(widths))
	for i, row := range rows {
		wrapped[i] = make([][][]run, len(widths))
		for j := range widths {
			if j < len(row) {
				wrapped[i][j] = wrapRuns(row[j].runs, widths[j])
				for _, l := range wrapped[i][j] {
					used[j] = max(used[j], textWidth(runsText(l)))
				}
			}
		}
	}
	for j := range widths {
		widths[j] = max(min(widths[j], used[j]), 1)
	}
	sep := styled(w.pal.colSep, w.pal.rule)
	var out []string
	for i, row := range rows {
		out = append(out, w.tableRow(row, wrapped[i], widths, cut, sep)...)
		if i == header {
			out = append(out, w.tableRule(widths, cut))
		}
	}
	return out
}

// columnWidths decides how wide each column is drawn; columns from len of
// the result on are cut, and cut says whether any are.
func columnWidths(rows [][]cell, ncol, width int) ([]int, bool) {
	natural := make([]int, ncol)
	for _, row := range rows {
		addNatural(natural, row)
	}
	return widthsOf(natural, width)
}

// addNatural widens natural, the widest cell of each column, by row's.
func addNatural(natural []int, row []cell) {
	for i, c := range row {
		natural[i] = max(natural[i], textWidth(runsText(c.runs)))
	}
}

// widthsOf is columnWidths from the widest cell of each column.
func widthsOf(cells []int, width int) ([]int, bool) {
	ncol := len(cells)
	natural := make([]int, ncol)
	for i, n := range cells {
		natural[i] = max(n, 1)
	}
	// Each column takes its width and a space either side; a separator
	// stands between columns.
	frame := func(n int) int { return 3*n - 1 }
	fits := func(n int, cut bool) bool {
		need := frame(n) + n*minColumn
		if cut {
			need += 3 // "│ …"
		}
		return need <= width
	}
	shown, cut := ncol, false
	if !fits(ncol, false) {
		cut = true
		for shown > 1 && !fits(shown, true) {
			shown--
		}
	}
	budget := width - frame(shown)
	if cut {
		budget -= 3
	}
	widths := append([]int(nil), natural[:shown]...)
	total := 0
	for _, n := range widths {
		total += n
	}
	if total <= budget {
		return widths, cut
	}
	// Share the budget: a column narrower than an equal share keeps its
	// width, the others split what remains.
	left, open := budget, shown
	fixed := make([]bool, shown)
	for changed := true; changed && open > 0; {
		changed = false
		share := left / open
		for i, n := range widths {
			if !fixed[i] && n <= share {
				fixed[i], changed = true, true
				left -= n
				open--
			}
		}
	}
	if open > 0 {
		share, extra := left/open, left%open
		for i := range widths {
			if fixed[i] {
				continue
			}
			widths[i] = max(share, minColumn)
			if extra > 0 {
				widths[i]++
				extra--
			}
		}
	}
	return widths, cut
}

// tableRow draws one row from its cells wrapped to their columns.
func (w *walker) tableRow(row []cell, cols [][][]run, widths []int, cut bool, sep string) []string {
	height := 1
	for _, c := range cols {
		height = max(height, len(c))
	}
	out := make([]string, height)
	for y := range height {
		var b strings.Builder
		for i, cw := range widths {
			if i > 0 {
				b.WriteString(" " + sep)
			}
			var line []run
			if y < len(cols[i]) {
				line = cols[i][y]
			}
			pad := cw - textWidth(runsText(line))
			left := 0
			if i < len(row) {
				switch row[i].align {
				case east.AlignRight:
					left = pad
				case east.AlignCenter:
					left = pad / 2
				case east.AlignLeft, east.AlignNone:
				}
			}
			b.WriteString(strings.Repeat(" ", 1+left))
			draw(&b, line)
			b.WriteString(strings.Repeat(" ", pad-left))
		}
		if cut {
			b.WriteString(" " + sep)
			if y == 0 {
				b.WriteString(" …")
			}
		}
		out[y] = strings.TrimRight(b.String(), " ")
	}
	return out
}

// tableRule draws the rule under the header.
func (w *walker) tableRule(widths []int, cut bool) string {
	var b strings.Builder
	for i, cw := range widths {
		if i > 0 {
			b.WriteString(w.pal.cross)
		}
		b.WriteString(strings.Repeat(w.pal.rowSep, cw+2))
	}
	if cut {
		b.WriteString(w.pal.cross + strings.Repeat(w.pal.rowSep, 2))
	}
	return styled(b.String(), w.pal.rule)
}
