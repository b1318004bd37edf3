package markdown

import (
	"slices"
	"strings"

	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// A long table that is still open (3,000 rows) would be rendered whole on
// every frame. Its rows are parsed once each as they arrive; a row's lines
// depend only on its cells and on the columns' widths, which come from the
// widest cells so far: the rows are drawn again only when the widths change
// (a column only widens, up to the screen), else only the new rows are
// drawn. Rows that start with "|" are taken as rows; any other line ends
// the cleverness (it may be a row, or end the table, or make it a heading)
// and the tail is rendered whole from then on.

// openTable is the table that opens the tail, parsed and drawn so far.
type openTable struct {
	from   int    // where its header line starts in the source
	head   string // its header and delimiter lines
	ncol   int
	rows   [][]cell // the header's cells first
	seen   int      // the table's lines up to seen are parsed
	end    int      // where the table ended (a blank line), or -1
	wide   []int    // each column's widest cell
	width  []int    // the columns' widths, as laid out last
	cut    bool
	wrap   [][][][]run // each row's cells wrapped to width
	used   []int       // each column's widest wrapped line
	drawn  []int       // the widths lines was drawn for
	lines  []string    // header, rule and rows, drawn and padded
	nDrawn int         // rows drawn in lines
	stuck  bool
	ok     bool
}

// startTable sets t to the table opening at src[from:], if one does: a
// header line starting with "|" and a delimiter row of as many columns.
func (s *Stream) startTable(src string, from int) bool {
	t := &s.table
	*t = openTable{}
	rest := src[from:]
	n1 := strings.IndexByte(rest, '\n')
	if n1 < 0 || !strings.HasPrefix(rest, "|") {
		return false
	}
	n2 := strings.IndexByte(rest[n1+1:], '\n')
	if n2 < 0 {
		return false
	}
	head := rest[:n1+1+n2+1]
	rows, ncol, ok := s.parseRows(head, "")
	if !ok || len(rows) != 1 {
		return false
	}
	*t = openTable{from: from, head: head, ncol: ncol, rows: rows, seen: from + len(head), end: -1, wide: make([]int, ncol), ok: true}
	addNatural(t.wide, rows[0])
	return true
}

// parseRows parses head (a header and delimiter row) followed by lines and
// returns the table's rows, the header's first, as the renderer draws them.
func (s *Stream) parseRows(head, lines string) ([][]cell, int, bool) {
	str := capNesting(ExpandTabs(head + lines))
	b := []byte(str)
	doc := s.r.md.Parse(text.NewReader(b), parser.WithContext(parseContext(b)))
	t, ok := doc.FirstChild().(*east.Table)
	if !ok || t.NextSibling() != nil {
		return nil, 0, false
	}
	w := &walker{pal: s.r.pal, src: b, str: str, listStart: -1}
	rows, ncol := w.tableRows(t)
	return rows, ncol, ncol > 0
}

// lookTable parses the table's rows that arrived, up to a blank line that ends
// it or a line it cannot be sure of.
func (s *Stream) lookTable(src string) {
	t := &s.table
	start := t.seen
	for !t.stuck && t.end < 0 && t.seen < len(src) {
		n := strings.IndexByte(src[t.seen:], '\n')
		if n < 0 {
			break
		}
		line := src[t.seen : t.seen+n]
		if isBlank(line) {
			t.end = t.seen
			break
		}
		if line[0] != '|' {
			t.stuck = true
			break
		}
		t.seen += n + 1
	}
	if t.seen == start {
		return
	}
	rows, _, ok := s.parseRows(t.head, src[start:t.seen])
	if !ok || len(rows) != 1+countLines(src[start:t.seen]) {
		t.stuck = true
		return
	}
	for _, row := range rows[1:] {
		addNatural(t.wide, row)
	}
	t.rows = append(t.rows, rows[1:]...)
}

func countLines(s string) int { return strings.Count(s, "\n") }

// drawTable brings t.lines up to date with its rows.
func (s *Stream) drawTable() {
	t := &s.table
	w := &walker{pal: s.r.pal, listStart: -1}
	width, cut := widthsOf(t.wide, s.r.width-2*margin)
	if !slices.Equal(width, t.width) || cut != t.cut {
		t.width, t.cut, t.wrap, t.used = width, cut, nil, make([]int, len(width))
	}
	for i := len(t.wrap); i < len(t.rows); i++ {
		row := t.rows[i]
		cells := make([][][]run, len(width))
		for j := range width {
			if j < len(row) {
				cells[j] = wrapRuns(row[j].runs, width[j])
				for _, l := range cells[j] {
					t.used[j] = max(t.used[j], textWidth(runsText(l)))
				}
			}
		}
		t.wrap = append(t.wrap, cells)
	}
	final := make([]int, len(width))
	for j := range width {
		final[j] = max(min(width[j], t.used[j]), 1)
	}
	if !slices.Equal(final, t.drawn) {
		t.drawn, t.lines, t.nDrawn = final, nil, 0
	}
	for ; t.nDrawn < len(t.rows); t.nDrawn++ {
		t.lines = appendRow(t.lines, w, t.rows[t.nDrawn], t.wrap[t.nDrawn], final, cut, t.nDrawn == 0)
	}
}

// appendRow draws a table row as the renderer does, padded, after out.
func appendRow(out []string, w *walker, row []cell, wrapped [][][]run, widths []int, cut, header bool) []string {
	lines := w.tableRow(row, wrapped, widths, cut, styled(w.pal.colSep, w.pal.rule))
	if header {
		lines = append(lines, w.tableRule(widths, cut))
	}
	pad := strings.Repeat(" ", margin)
	for _, l := range lines {
		if l != "" {
			l = pad + l
		}
		out = append(out, l)
	}
	return out
}

// partialRow draws the row still arriving at src[t.seen:], when it leaves
// the columns as they are; ok is false when it does not, or when it may
// not be a row.
func (s *Stream) partialRow(src string) ([]string, bool) {
	t := &s.table
	line := src[t.seen:]
	if isBlank(line) {
		return nil, true
	}
	if line[0] != '|' {
		return nil, false
	}
	rows, _, ok := s.parseRows(t.head, line)
	if !ok || len(rows) != 2 {
		return nil, false
	}
	row := rows[1]
	wide := slices.Clone(t.wide)
	addNatural(wide, row)
	if !slices.Equal(wide, t.wide) {
		return nil, false
	}
	cells := make([][][]run, len(t.width))
	for j := range t.width {
		if j < len(row) {
			cells[j] = wrapRuns(row[j].runs, t.width[j])
			for _, l := range cells[j] {
				if textWidth(runsText(l)) > t.used[j] {
					return nil, false
				}
			}
		}
	}
	return appendRow(nil, &walker{pal: s.r.pal, listStart: -1}, row, cells, t.drawn, t.cut, false), true
}

// tableTail renders src[from:to] as the table's drawn lines (head, shared,
// never changed) and what follows them; ok is false when the table cannot
// be drawn so.
func (s *Stream) tableTail(src string, from, to int) (head, lines []string, ok bool) {
	t := &s.table
	if !t.ok || t.from != from {
		return nil, nil, false
	}
	s.lookTable(src)
	if t.stuck || t.seen > to {
		return nil, nil, false
	}
	s.drawTable()
	switch {
	case t.end >= 0 && t.end < to:
		rest, err := s.r.Lines(src[t.end:to])
		if err != nil {
			return nil, nil, false
		}
		if len(rest) > 0 {
			lines = append([]string{""}, rest...)
		}
	case t.end < 0 && t.seen < to:
		if lines, ok = s.partialRow(src[:to]); !ok {
			return nil, nil, false
		}
	}
	return t.lines[:len(t.lines):len(t.lines)], lines, true
}
