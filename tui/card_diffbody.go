package tui

import "fmt"

// diffBody is the body of the cards that change a file: the diff, a dozen
// lines of it unless open, with a hint at how to see the rest.
func diffBody(c *toolCard, rc *renderCtx, d cardDetail, width int) []string {
	if c.diffText() == "" || c.state == cardAwaiting {
		return resultBody(c, rc, d, width)
	}
	open := d.open()
	limit := collapsedDiff
	if open {
		limit = 0
	}
	lines, hidden := renderDiff(rc, c.diff, width, limit, open)
	out := make([]string, 0, len(lines)+1)
	for _, l := range lines {
		out = append(out, "  "+l)
	}
	if hidden > 0 {
		more := firstKey(rc.keys.Expand) + " expands the latest card · " + firstKey(rc.keys.Transcript) + " shows all"
		if d == detailFolded {
			more = firstKey(rc.keys.View.Fold) + " unfolds"
		}
		out = append(out, "  "+rc.th.dim.Render(fmt.Sprintf("… %d more lines (%s)", hidden, more)))
	}
	return append(out, diagnosticsLines(c, rc, d)...)
}
