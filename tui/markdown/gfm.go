package markdown

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// The GitHub extensions, parsed here into goldmark's extension nodes rather
// than by goldmark's extension package: that package compiles its linkify
// and table regular expressions at init, 3 ms of every command's start.

// strikeParser reads "~~" and "~" delimiters for strikethrough.
type strikeParser struct{}

// Trigger is the byte that may start a delimiter.
func (strikeParser) Trigger() []byte { return []byte{'~'} }

// Parse reads a run of tildes as a delimiter for goldmark to pair.
func (strikeParser) Parse(_ ast.Node, block text.Reader, pc parser.Context) ast.Node {
	before := block.PrecendingCharacter()
	line, seg := block.PeekLine()
	d := parser.ScanDelimiter(line, before, 1, strikeDelimiters{})
	if d == nil || d.OriginalLength > 2 || before == '~' {
		return nil
	}
	d.Segment = seg.WithStop(seg.Start + d.OriginalLength)
	block.Advance(d.OriginalLength)
	pc.PushDelimiter(d)
	return d
}

// CloseBlock has nothing to finish.
func (strikeParser) CloseBlock(ast.Node, parser.Context) {}

// strikeDelimiters pairs tildes into strikethrough nodes.
type strikeDelimiters struct{}

// IsDelimiter reports whether b is a tilde.
func (strikeDelimiters) IsDelimiter(b byte) bool { return b == '~' }

// CanOpenCloser pairs runs of the same character.
func (strikeDelimiters) CanOpenCloser(opener, closer *parser.Delimiter) bool {
	return opener.Char == closer.Char
}

// OnMatch makes the strikethrough node.
func (strikeDelimiters) OnMatch(int) ast.Node { return east.NewStrikethrough() }

// taskParser reads the "[ ]" or "[x]" that starts a list item.
type taskParser struct{}

// Trigger is the byte a check box starts with.
func (taskParser) Trigger() []byte { return []byte{'['} }

// Parse reads a check box at the very start of a list item.
func (taskParser) Parse(parent ast.Node, block text.Reader, _ parser.Context) ast.Node {
	item, ok := parent.Parent().(*ast.ListItem)
	if !ok || item.FirstChild() != parent || parent.HasChildren() {
		return nil
	}
	line, _ := block.PeekLine()
	if len(line) < 3 || line[0] != '[' || line[2] != ']' || !bytes.ContainsRune([]byte(" \txX"), rune(line[1])) {
		return nil
	}
	n := 3
	for n < len(line) && util.IsSpace(line[n]) {
		n++
	}
	block.Advance(n)
	return east.NewTaskCheckBox(line[1] == 'x' || line[1] == 'X')
}

// CloseBlock has nothing to finish.
func (taskParser) CloseBlock(ast.Node, parser.Context) {}

// tableParser turns a paragraph whose second line is a delimiter row
// ("|---|:--:|") into a table: the line before it is the header, the lines
// after it the rows.
type tableParser struct{}

// Transform makes p, or its end, a table when it has a delimiter row.
func (tableParser) Transform(p *ast.Paragraph, reader text.Reader, _ parser.Context) {
	lines := p.Lines()
	src := reader.Source()
	for i := 1; i < lines.Len(); i++ {
		seg := lines.At(i)
		aligns := delimiterRow(seg.Value(src))
		if aligns == nil {
			continue
		}
		header := tableRow(lines.At(i-1), aligns, true, src)
		if header == nil || header.ChildCount() != len(aligns) {
			return
		}
		t := east.NewTable()
		t.Alignments = aligns
		t.SetPos(p.Pos())
		t.AppendChild(t, east.NewTableHeader(header))
		for j := i + 1; j < lines.Len(); j++ {
			t.AppendChild(t, tableRow(lines.At(j), aligns, false, src))
		}
		p.Lines().SetSliced(0, i-1)
		p.Parent().InsertAfter(p.Parent(), p, t)
		if p.Lines().Len() == 0 {
			p.Parent().RemoveChild(p.Parent(), p)
		} else {
			last := p.Lines().At(i - 2)
			last.Stop-- // the newline
			p.Lines().Set(i-2, last)
		}
		return
	}
}

// delimiterRow returns the alignments a table's delimiter row sets, or nil
// when line is not one.
func delimiterRow(line []byte) []east.Alignment {
	if w, _ := util.IndentWidth(line, 0); w > 3 {
		return nil
	}
	t := bytes.TrimSpace(line)
	if bytes.IndexByte(t, '|') < 0 && bytes.IndexByte(t, ':') < 0 {
		return nil // a setext underline or a thematic break
	}
	t = bytes.TrimPrefix(t, []byte("|"))
	t = bytes.TrimSuffix(t, []byte("|"))
	var aligns []east.Alignment
	for len(t) > 0 || aligns == nil {
		col := t
		if i := bytes.IndexByte(t, '|'); i >= 0 {
			col, t = t[:i], t[i+1:]
		} else {
			t = nil
		}
		col = bytes.TrimSpace(col)
		left, right := bytes.HasPrefix(col, []byte(":")), bytes.HasSuffix(col, []byte(":"))
		dashes := bytes.Trim(col, ":")
		if len(dashes) == 0 || len(bytes.Trim(dashes, "-")) != 0 {
			return nil
		}
		switch {
		case left && right:
			aligns = append(aligns, east.AlignCenter)
		case left:
			aligns = append(aligns, east.AlignLeft)
		case right:
			aligns = append(aligns, east.AlignRight)
		default:
			aligns = append(aligns, east.AlignNone)
		}
	}
	return aligns
}

// tableRow splits a table line into cells at the pipes no backslash
// escapes; a body row has as many cells as the header, padded or cut.
func tableRow(seg text.Segment, aligns []east.Alignment, header bool, src []byte) *east.TableRow {
	pos0 := seg.Start
	seg = seg.TrimLeftSpace(src)
	seg = seg.TrimRightSpace(src)
	line := seg.Value(src)
	from, limit := 0, len(line)
	if limit > 0 && line[0] == '|' {
		from++
	}
	if limit > from && line[limit-1] == '|' && (limit < 2 || line[limit-2] != '\\') {
		limit--
	}
	row := east.NewTableRow(aligns)
	row.SetPos(pos0)
	i := 0
	for ; from < limit; i++ {
		if i >= len(aligns) && !header {
			return row
		}
		end := from
		for end < limit && (line[end] != '|' || end > 0 && line[end-1] == '\\') {
			end++
		}
		c := east.NewTableCell()
		if i < len(aligns) {
			c.Alignment = aligns[i]
		}
		cs := text.NewSegment(seg.Start+from, seg.Start+end)
		cs = cs.TrimLeftSpace(src)
		cs = cs.TrimRightSpace(src)
		c.Lines().Append(cs)
		row.AppendChild(row, c)
		from = end + 1
	}
	for ; i < len(aligns); i++ {
		row.AppendChild(row, east.NewTableCell())
	}
	return row
}
