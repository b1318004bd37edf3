package markdown

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// goldmark looks for an inline link's destination from each "](" to the
// end of its line (or to where its parentheses balance), so a line of
// "[](" repeated scans the line once per repetition: 64 KB took 11 s, a
// megabyte hours, on the interface's goroutine while an answer streams.
// boundedLinks lets the destinations of one render scan at most
// linkScanPerByte bytes per byte of source (and linkScanFloor more); past
// that, brackets are text for the rest of the render. Each "]" also costs the lines of its block below it
// (goldmark finds a label's line by searching back from the block's last),
// so a paragraph of a hundred thousand "[a]" lines is bounded too. A real answer's destinations scan about their own
// length, so it never comes near.
const (
	linkScanPerByte = 4
	linkScanFloor   = 1 << 16
)

// linkBudgetKey holds the *int of destination bytes a render may still scan.
var linkBudgetKey = parser.NewContextKey()

// boundedLinks is goldmark's link parser with the scanning of destinations
// bounded by the budget in the parse context.
type boundedLinks struct{ p parser.InlineParser }

// Trigger is the link parser's.
func (l boundedLinks) Trigger() []byte { return l.p.Trigger() }

// Parse refuses a "](" whose destination would scan past the budget, and
// otherwise hands over to goldmark's parser.
func (l boundedLinks) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	left, ok := pc.Get(linkBudgetKey).(*int)
	if !ok || len(line) == 0 || line[0] != ']' {
		return l.p.Parse(parent, block, pc)
	}
	// Looking the label up reads it through a search from the block's last
	// line back to the label's.
	n := 1
	if at, _ := block.Position(); parent != nil {
		n = max(1, parent.Lines().Len()-at)
	}
	if len(line) > 1 && line[1] == '(' {
		n += destinationScan(line[2:], *left)
	}
	if n > *left {
		*left = 0 // spent: every later bracket is text, at no cost
		return nil
	}
	*left -= n
	return l.p.Parse(parent, block, pc)
}

// CloseBlock is the link parser's: it turns unclosed brackets into text.
func (l boundedLinks) CloseBlock(parent ast.Node, block text.Reader, pc parser.Context) {
	if cb, ok := l.p.(parser.CloseBlocker); ok {
		cb.CloseBlock(parent, block, pc)
	}
}

// destinationScan is how many bytes of s goldmark's parseLinkDestination
// reads for the destination that starts s (after "("), or limit+1 once it
// passes limit.
func destinationScan(s []byte, limit int) int {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i < len(s) && s[i] == '<' {
		for i < len(s) && s[i] != '>' && i <= limit {
			if s[i] == '\\' {
				i++
			}
			i++
		}
		return min(i, limit+1)
	}
	opened := 0
	for i < len(s) && i <= limit {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && util.IsPunct(s[i+1]):
			i++
		case c == '(':
			opened++
		case c == ')':
			opened--
			if opened < 0 {
				return i
			}
		case util.IsSpace(c):
			return i
		}
		i++
	}
	return min(i, limit+1)
}

// inlineParsers are goldmark's inline parsers with the link parser bounded.
func inlineParsers() []util.PrioritizedValue {
	ps := parser.DefaultInlineParsers()
	for i, p := range ps {
		if ip, ok := p.Value.(parser.InlineParser); ok && ip == parser.NewLinkParser() {
			ps[i].Value = boundedLinks{ip}
		}
	}
	return ps
}

// parseContext is a fresh parse context holding the link budget for src.
func parseContext(src []byte) parser.Context {
	pc := parser.NewContext()
	left := linkScanPerByte*len(src) + linkScanFloor
	pc.Set(linkBudgetKey, &left)
	return pc
}
