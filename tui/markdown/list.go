package markdown

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// list draws a bullet or ordered list: each item's blocks indented past its
// marker, a blank line between items when the list is loose. A task item
// shows its box in place of the bullet.
func (w *walker) list(n *ast.List, width, depth int) []string {
	var out []string
	num := n.Start
	if w.listStart >= 0 {
		num, w.listStart = w.listStart, -1
	}
	for item := n.FirstChild(); item != nil; item = item.NextSibling() {
		marker := "• "
		if n.IsOrdered() {
			marker = strconv.Itoa(num) + string(n.Marker) + " "
			num++
		}
		if box, ok := taskBox(item); ok {
			mark := w.pal.unticked
			if box.IsChecked {
				mark = w.pal.ticked
			}
			if n.IsOrdered() {
				marker += mark
			} else {
				marker = mark
			}
		}
		mw := textWidth(marker)
		body := w.children(item, width-mw, depth+1, n.IsTight)
		if len(body) == 0 {
			body = []string{""}
		}
		indent := strings.Repeat(" ", mw)
		for i, l := range body {
			switch {
			case i == 0:
				body[i] = styled(strings.TrimRight(marker, " "), w.pal.text)
				if l != "" {
					body[i] = styled(marker, w.pal.text) + l
				}
			case l != "":
				body[i] = indent + l
			}
		}
		out = w.appendBlock(out, body, n.IsTight)
	}
	return out
}

// taskBox returns the check box that starts a list item, if it has one.
func taskBox(item ast.Node) (*east.TaskCheckBox, bool) {
	first := item.FirstChild()
	if first == nil {
		return nil, false
	}
	box, ok := first.FirstChild().(*east.TaskCheckBox)
	return box, ok
}
