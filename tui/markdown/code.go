package markdown

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark/ast"

	"github.com/ternhq/tern/internal/sanitize"
	"github.com/ternhq/tern/tui/highlight"
)

// codeIndent sets code blocks off from the text around them.
const codeIndent = "  "

// code draws a code block as written, coloured by class, keeping its
// indentation. A line wider than width goes on in the next line, set off
// like the first: the terminal would cut it, and code must be seen whole.
func (w *walker) code(n ast.Node, info string, width int) []string {
	var b strings.Builder
	ls := n.Lines()
	for i := range ls.Len() {
		seg := ls.At(i)
		b.Write(seg.Value(w.src))
	}
	src := strings.TrimRight(sanitize.Clean(b.String()), "\n")
	if src == "" {
		return []string{""}
	}
	lang, _, _ := strings.Cut(strings.TrimSpace(info), " ")
	var out []string
	var line []run
	line = append(line, run{codeIndent, plainLook})
	for _, t := range highlight.Tokens(lang, src) {
		l := w.pal.tokenLook(t.Kind)
		s := t.Text
		for {
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				line = append(line, run{s, l})
				break
			}
			line = append(line, run{s[:i], l})
			out = appendCode(out, line, width)
			line = append(line[:0], run{codeIndent, plainLook})
			s = s[i+1:]
		}
	}
	return appendCode(out, line, width)
}

// appendCode appends a line of code's runs to out, broken into lines of at
// most width cells where it is wider; each continuation starts with
// codeIndent.
func appendCode(out []string, runs []run, width int) []string {
	avail := width - len(codeIndent)
	if avail < 1 {
		return append(out, codeLine(runs))
	}
	cur := make([]run, 0, len(runs))
	cw := 0
	for _, r := range runs {
		s, start := r.text, 0
		for i := 0; i < len(s); {
			g, gw := ansi.FirstGraphemeCluster(s[i:], ansi.GraphemeWidth)
			if g == "" {
				break
			}
			if cw+gw > width && cw > len(codeIndent) {
				if i > start {
					cur = append(cur, run{s[start:i], r.look})
				}
				out = append(out, codeLine(cur))
				cur = append(cur[:0], run{codeIndent, plainLook})
				cw, start = len(codeIndent), i
			}
			cw += gw
			i += len(g)
		}
		if start < len(s) {
			cur = append(cur, run{s[start:], r.look})
		}
	}
	return append(out, codeLine(cur))
}

// codeLine draws one line of code; an empty one is "".
func codeLine(runs []run) string {
	l := drawLine(runs)
	if strings.TrimSpace(l) == "" {
		return ""
	}
	return l
}
