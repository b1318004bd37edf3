package markdown

import (
	"fmt"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// margin is the blank columns left of every line (and kept free right of
// the text), as glamour's styles had them.
const margin = 2

// Bounds that keep hostile input from costing more than its size: blocks
// nested deeper than maxDepth, or where less than minWidth columns are
// left, are drawn without further indentation, and never by recursion.
const (
	maxDepth = 16
	minWidth = 8
)

// Renderer turns Markdown into terminal lines of one width and style. It is
// not safe for concurrent use; make one per goroutine.
type Renderer struct {
	pal   *palette
	width int
	md    parser.Parser
}

// NewRenderer makes a renderer that wraps text to fit width cells.
func NewRenderer(style Style, width int) (*Renderer, error) {
	return &Renderer{pal: paletteOf(style), width: max(width, 10), md: newParser()}, nil
}

// newParser is CommonMark with the GitHub extensions answers use: tables,
// strikethrough and task lists (gfm.go). Bare URLs stay text (terminals
// find them themselves): goldmark's linkify looks for an e-mail address at
// every letter, which made 100,000 backticks take 16 s.
func newParser() parser.Parser {
	return parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(append(inlineParsers(),
			util.Prioritized(strikeParser{}, 500),
			util.Prioritized(taskParser{}, 0),
		)...),
		parser.WithParagraphTransformers(append(parser.DefaultParagraphTransformers(),
			util.Prioritized(tableParser{}, 200),
		)...),
	)
}

// Lines renders src and returns its lines, with no blank line before the
// first or after the last and no padding at the end of any.
func (r *Renderer) Lines(src string) ([]string, error) {
	lines, _, err := r.render(src)
	return lines, err
}

// render is Lines that also returns how many blank lines must separate these
// lines from a block rendered after them: always one, as between the blocks
// of one document.
func (r *Renderer) render(src string) (lines []string, seam int, err error) {
	return r.renderFrom(src, -1)
}

// renderFrom is render, the first list of the document numbered from start
// whatever its first item says, when start is not negative: a piece of a
// long list cut at an item (stream_list.go).
func (r *Renderer) renderFrom(src string, start int) (lines []string, seam int, err error) {
	if isBlank(src) {
		return nil, 0, nil
	}
	defer func() {
		if p := recover(); p != nil { // the source is the model's; never let it take the interface down
			lines, seam, err = nil, 0, fmt.Errorf("render markdown: %v", p)
		}
	}()
	// Tabs are expanded in the source, where a tab's column is known;
	// CommonMark reads block structure with the same 4-column stops.
	str := capNesting(ExpandTabs(src))
	b := []byte(str)
	doc := r.md.Parse(text.NewReader(b), parser.WithContext(parseContext(b)))
	w := &walker{pal: r.pal, src: b, str: str, listStart: start}
	out := w.children(doc, r.width-2*margin, 0, false)
	pad := strings.Repeat(" ", margin)
	for i, l := range out {
		if l != "" {
			out[i] = pad + l
		}
	}
	return out, 1, nil
}

// walker draws the blocks of one parsed document.
type walker struct {
	pal *palette
	src []byte
	str string // src as a string, for text that needs no copy
	// listStart, when not negative, numbers the next list drawn.
	listStart int
}

// children draws the blocks under n one after another, a blank line between
// them unless tight (the items of a tight list).
func (w *walker) children(n ast.Node, width, depth int, tight bool) []string {
	var out []string
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		out = w.appendBlock(out, w.block(c, width, depth), tight)
	}
	return out
}

// appendBlock adds a block's lines after out, separated as children does.
func (w *walker) appendBlock(out, lines []string, tight bool) []string {
	if len(lines) == 0 {
		return out
	}
	if len(out) > 0 && !tight {
		out = append(out, "")
	}
	return append(out, lines...)
}

// block draws one block in width columns; depth is how many containers
// hold it.
func (w *walker) block(n ast.Node, width, depth int) []string {
	if isLeaf(n) {
		return w.leaf(n, width)
	}
	if depth >= maxDepth || width < minWidth {
		return w.flat(n, width)
	}
	switch n := n.(type) {
	case *ast.Blockquote:
		inner := w.children(n, width-textWidth(w.pal.quoteBar), depth+1, false)
		bar, gap := styled(w.pal.quoteBar, w.pal.quote), styled(w.pal.quoteGap, w.pal.quote)
		for i, l := range inner {
			if l == "" {
				inner[i] = gap
			} else {
				inner[i] = bar + l
			}
		}
		return inner
	case *ast.List:
		return w.list(n, width, depth)
	}
	return w.children(n, width, depth, false)
}

// isLeaf reports whether n is a block drawn without drawing blocks inside it.
func isLeaf(n ast.Node) bool {
	switch n.(type) {
	case *ast.Paragraph, *ast.TextBlock, *ast.Heading, *ast.ThematicBreak,
		*ast.CodeBlock, *ast.FencedCodeBlock, *ast.HTMLBlock, *east.Table:
		return true
	}
	return false
}

// leaf draws a block that holds no other blocks.
func (w *walker) leaf(n ast.Node, width int) []string {
	width = max(width, 1)
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return w.paragraph(w.inlines(n, w.pal.text), width)
	case *ast.Heading:
		return w.heading(n, width)
	case *ast.ThematicBreak:
		return []string{styled(strings.Repeat("-", min(8, width)), w.pal.rule)} // never wider than its column
	case *ast.CodeBlock:
		return w.code(n, "", width)
	case *ast.FencedCodeBlock:
		return w.code(n, string(n.Language(w.src)), width)
	case *ast.HTMLBlock:
		return w.html(n, width)
	case *east.Table:
		return w.table(n, width)
	}
	return nil
}

// flat draws the blocks under n, which is nested too deep to indent further,
// one after another at n's indentation, walking the tree without recursion.
func (w *walker) flat(root ast.Node, width int) []string {
	var out []string
	for n := root.FirstChild(); n != nil; {
		if isLeaf(n) {
			out = w.appendBlock(out, w.leaf(n, width), false)
		} else if c := n.FirstChild(); c != nil {
			n = c
			continue
		}
		for n != root {
			if s := n.NextSibling(); s != nil {
				n = s
				break
			}
			n = n.Parent()
		}
		if n == root {
			break
		}
	}
	return out
}

// paragraph wraps runs to width and draws them.
func (w *walker) paragraph(runs []run, width int) []string {
	wrapped := wrapRuns(runs, width)
	out := make([]string, len(wrapped))
	for i, l := range wrapped {
		out[i] = drawLine(l)
	}
	return out
}

// heading draws a heading with its level's marks, as glamour did: "## " for
// the second level on, the first on a coloured band.
func (w *walker) heading(n *ast.Heading, width int) []string {
	l := w.pal.heading
	switch n.Level {
	case 1:
		l = w.pal.h1
	case 6:
		l = w.pal.h6
	}
	if n.Level == 1 && l.bg != noColor {
		// Each line of the band has a space of it either side.
		lines := wrapRuns(w.inlines(n, l), width-2)
		out := make([]string, len(lines))
		for i, line := range lines {
			line = append(append([]run{{" ", l}}, line...), run{" ", l})
			out[i] = drawLine(line)
		}
		return out
	}
	runs := append([]run{{strings.Repeat("#", n.Level) + " ", l}}, w.inlines(n, l)...)
	return w.paragraph(runs, width)
}

// html draws raw HTML as the text it is.
func (w *walker) html(n *ast.HTMLBlock, width int) []string {
	var out []string
	add := func(seg text.Segment) {
		line := strings.TrimRight(string(seg.Value(w.src)), "\r\n")
		out = append(out, w.paragraph([]run{{cleanInline(line), w.pal.text}}, width)...)
		if strings.TrimSpace(line) == "" {
			out = append(out, "")
		}
	}
	ls := n.Lines()
	for i := range ls.Len() {
		add(ls.At(i))
	}
	if n.HasClosure() {
		add(n.ClosureLine)
	}
	return out
}
