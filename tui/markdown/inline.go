package markdown

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"

	"github.com/ternhq/tern/internal/sanitize"
)

// frame is an inline node being drawn: the look of its text and, for a link,
// where its text starts among the runs.
type frame struct {
	look  look
	start int
}

// inlines draws the inline content of block n in base look as runs. It walks
// the tree with a stack of its own, so emphasis nested a hundred thousand
// deep costs no more than its length.
func (w *walker) inlines(n ast.Node, base look) []run {
	var runs []run
	stack := []frame{{look: base}}
	cur := n.FirstChild()
	for cur != nil {
		top := stack[len(stack)-1].look
		descend := false
		var l look
		switch c := cur.(type) {
		case *ast.Text:
			runs = w.text(runs, c, top)
		case *ast.String:
			runs = append(runs, run{cleanInline(string(c.Value)), top})
		case *ast.CodeSpan:
			runs = w.codeSpan(runs, c, top)
		case *ast.Emphasis:
			descend, l = true, top.with(italic)
			if c.Level >= 2 {
				l = top.with(bold)
			}
		case *east.Strikethrough:
			descend, l = true, top.with(strike)
		case *ast.Link:
			descend, l = true, w.pal.linkText.over(top)
		case *ast.Image:
			runs = append(runs, run{"Image: ", w.pal.imageText.over(top)})
			descend, l = true, w.pal.imageText.over(top)
		case *ast.AutoLink:
			runs = append(runs, run{cleanInline(string(c.Label(w.src))), w.pal.link.over(top)})
		case *ast.RawHTML:
			for i := range c.Segments.Len() {
				seg := c.Segments.At(i)
				runs = append(runs, run{cleanInline(string(seg.Value(w.src))), top})
			}
		case *east.TaskCheckBox:
			// The list draws it in place of the bullet.
		default:
			descend, l = true, top
		}
		if descend {
			stack = append(stack, frame{look: l, start: len(runs)})
			if c := cur.FirstChild(); c != nil {
				cur = c
				continue
			}
			runs, stack = w.exit(runs, stack, cur)
		}
		for cur != nil {
			if s := cur.NextSibling(); s != nil {
				cur = s
				break
			}
			cur = cur.Parent()
			if cur == n || cur == nil {
				cur = nil
				break
			}
			runs, stack = w.exit(runs, stack, cur)
		}
	}
	return runs
}

// exit ends the inline node n: a link or an image shows its address after
// its text, as glamour did.
func (w *walker) exit(runs []run, stack []frame, n ast.Node) ([]run, []frame) {
	f := stack[len(stack)-1]
	stack = stack[:len(stack)-1]
	top := stack[len(stack)-1].look
	switch n := n.(type) {
	case *ast.Link:
		url := cleanInline(string(n.Destination))
		if url != "" && runsText(runs[f.start:]) != url {
			if len(runs) > f.start {
				runs = append(runs, run{" ", top})
			}
			runs = append(runs, run{url, w.pal.link.over(top)})
		}
	case *ast.Image:
		runs = append(runs, run{" →", w.pal.imageText.over(top)})
		if url := cleanInline(string(n.Destination)); url != "" {
			runs = append(runs, run{" ", top}, run{url, w.pal.image.over(top)})
		}
	}
	return runs, stack
}

// text adds a text node: its escapes and entities resolved, a soft line
// break as a space and a hard one as a break.
func (w *walker) text(runs []run, t *ast.Text, l look) []run {
	seg := t.Segment
	v := w.str[seg.Start:seg.Stop]
	if seg.Padding > 0 || !t.IsRaw() && strings.ContainsAny(v, "\\&") {
		b := seg.Value(w.src)
		if !t.IsRaw() {
			b = resolve(b)
		}
		v = string(b)
	}
	if v != "" {
		runs = append(runs, run{cleanInline(v), l})
	}
	switch {
	case t.HardLineBreak():
		runs = append(runs, run{hardBreak, l})
	case t.SoftLineBreak():
		runs = append(runs, run{" ", l})
	}
	return runs
}

// codeSpan adds a code span, its text kept as written.
func (w *walker) codeSpan(runs []run, c *ast.CodeSpan, l look) []run {
	var b strings.Builder
	for t := c.FirstChild(); t != nil; t = t.NextSibling() {
		switch t := t.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(w.src))
			if t.SoftLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(t.Value)
		}
	}
	code := b.String()
	if _, ok := c.Parent().(*east.TableCell); ok {
		code = strings.ReplaceAll(code, `\|`, "|") // GitHub lets a cell's code hold an escaped pipe
	}
	cl := w.pal.code.over(l)
	return append(runs, run{w.pal.codeOpen + cleanInline(code) + w.pal.codeEnd, cl})
}

// resolve replaces backslash escapes and character references with what
// they stand for.
func resolve(v []byte) []byte {
	if bytes.IndexByte(v, '\\') < 0 && bytes.IndexByte(v, '&') < 0 {
		return v
	}
	return util.UnescapePunctuations(util.ResolveNumericReferences(util.ResolveEntityNames(v)))
}

// cleanInline makes text from the source safe to draw in a line: no escape
// sequence or control character (a character reference can spell one) and
// no tab or newline.
func cleanInline(s string) string {
	s = sanitize.Clean(s)
	if strings.ContainsAny(s, "\t\n") {
		s = strings.NewReplacer("\t", " ", "\n", " ").Replace(s)
	}
	return s
}

// runsText is the text of runs.
func runsText(runs []run) string {
	var b strings.Builder
	for _, r := range runs {
		b.WriteString(r.text)
	}
	return b.String()
}
