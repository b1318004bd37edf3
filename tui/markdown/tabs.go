package markdown

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// TabWidth is the distance between tab stops when tabs are expanded.
const TabWidth = 4

// ExpandTabs replaces each tab in plain text with the spaces that reach the
// next TabWidth-column stop of its line: a terminal cell buffer draws a tab
// as nothing, so code indented with tabs (gofmt, Makefiles) would lose its
// indentation.
func ExpandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 3*strings.Count(s, "\t"))
	col := 0
	for s != "" {
		i := strings.IndexAny(s, "\t\n")
		if i < 0 {
			b.WriteString(s)
			break
		}
		seg := s[:i]
		b.WriteString(seg)
		if s[i] == '\n' {
			b.WriteByte('\n')
			col = 0
		} else {
			col += ansi.StringWidth(seg)
			n := TabWidth - col%TabWidth
			b.WriteString(strings.Repeat(" ", n))
			col += n
		}
		s = s[i+1:]
	}
	return b.String()
}
