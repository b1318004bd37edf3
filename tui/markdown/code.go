package markdown

import (
	"strings"

	"github.com/yuin/goldmark/ast"

	"github.com/ternhq/tern/internal/sanitize"
	"github.com/ternhq/tern/tui/highlight"
)

// codeIndent sets code blocks off from the text around them.
const codeIndent = "  "

// code draws a code block as written, coloured by class: lines are never
// wrapped (a terminal cuts them instead) and keep their indentation.
func (w *walker) code(n ast.Node, info string, _ int) []string {
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
			out = append(out, codeLine(line))
			line = append(line[:0], run{codeIndent, plainLook})
			s = s[i+1:]
		}
	}
	return append(out, codeLine(line))
}

// codeLine draws one line of code; an empty one is "".
func codeLine(runs []run) string {
	l := drawLine(runs)
	if strings.TrimSpace(l) == "" {
		return ""
	}
	return l
}
