package markdown

import (
	"strconv"
	"strings"
)

// A long list that is still open (5,000 items) would be rendered whole on
// every frame, as a long fence would (stream_fence.go). When the open tail
// starts with a list item at the left margin, the list is cut before items
// at the left margin into pieces rendered once and kept, an ordered piece
// numbered from where the list had got to; only the items after the last
// cut are rendered again each frame. This holds while the list is tight:
// each item is then drawn on its own, whatever comes after it. A blank line
// followed by more of the list makes it loose, with a blank line between
// every item, and the pieces are dropped (the list is rendered whole from
// then on); anything else at the left margin ends the list or may, and no
// more cuts are made. Lines indented less than an item's text, other than
// its own lines, stop the cuts too: they may be items of the same list,
// which numbering by counting would miss.

// openList is the list that opens the tail, and its kept pieces.
type openList struct {
	from   int  // where its first item starts in the source
	bullet byte // the bullet ('-', '*', '+'), or 0 for an ordered list
	delim  byte // an ordered list's delimiter ('.' or ')')
	start  int  // an ordered list's first number

	cut   int      // the items before cut are rendered in lines
	items int      // how many items that is
	lines []string // the kept pieces' lines

	seen      int  // the list's lines up to seen were looked at
	counted   int  // items that start before seen
	textAt    int  // the column where the current item's text starts
	blank     bool // the last line looked at was blank
	capFence  byte // a fence as capNesting sees it, open at seen
	capLen    int
	candidate int  // the last item start a cut may go before, or -1
	candItems int  // items before candidate
	stuck     bool // no more cuts
	done      bool // the list ended or went loose: nothing more to look at
	ok        bool
}

// startList sets l to the list opening at src[from:], if one does: a
// complete line that is a list item at the left margin with text.
func (l *openList) startList(src string, from int) bool {
	n := strings.IndexByte(src[from:], '\n')
	if n < 0 {
		return false
	}
	line := src[from : from+n]
	if itemText(line) == 0 {
		return false
	}
	*l = openList{from: from, cut: from, seen: from, candidate: -1, ok: true}
	if c := line[0]; c == '-' || c == '*' || c == '+' {
		l.bullet = c
	} else {
		i := strings.IndexAny(line, ".)")
		num, err := strconv.Atoi(line[:i])
		if err != nil {
			return false
		}
		l.start, l.delim = num, line[i]
	}
	return true
}

// sameKind reports whether line is an item of this list at the left margin.
func (l *openList) sameKind(line string) bool {
	if itemText(line) == 0 {
		return false
	}
	if l.bullet != 0 {
		return line[0] == l.bullet
	}
	i := strings.IndexAny(line, ".)")
	return i > 0 && line[i] == l.delim && line[0] >= '0' && line[0] <= '9'
}

// numberFrom is what a piece starting after n items is numbered from, or
// -1 for a bullet list.
func (l *openList) numberFrom(n int) int {
	if l.bullet != 0 {
		return -1
	}
	return l.start + n
}

// look reads the list's complete lines that arrived, noting the items a cut
// may go before and whether the list stays tight.
func (l *openList) look(src string) {
	for !l.done && l.seen < len(src) {
		n := strings.IndexByte(src[l.seen:], '\n')
		if n < 0 {
			return
		}
		off, line := l.seen, src[l.seen:l.seen+n]
		l.seen += n + 1
		if isBlank(line) {
			l.blank = true
			continue
		}
		if l.blank {
			if line[0] == ' ' || line[0] == '\t' || l.sameKind(line) {
				// More of the list after a blank line: it is loose.
				l.cut, l.items, l.lines, l.candidate = l.from, 0, nil, -1
			}
			// Else the list ended: a line at the margin after a blank one
			// continues no list item.
			l.done = true
			return
		}
		ind := indent(line)
		switch {
		case ind == 0 && l.sameKind(line):
			if l.capFence == 0 && off > l.from && !l.stuck {
				l.candidate, l.candItems = off, l.counted
			}
			l.counted++
			l.textAt = itemText(line)
		case ind == 0 || ind < l.textAt:
			// The list may end here, or the line be one of its items or
			// a lazy line of one: no more cuts, but a blank line and more
			// of the list would still make all of it loose.
			l.stuck = true
		}
		// capNesting reads fences by their lines, as here.
		if c, k := fence(line); k > 0 {
			switch {
			case l.capFence == 0:
				l.capFence, l.capLen = c, k
			case c == l.capFence && k >= l.capLen:
				l.capFence, l.capLen = 0, 0
			}
		}
	}
}

// cutList cuts the items before the last item that may start a piece into a
// kept piece, when they are enough source to be worth it.
func (s *Stream) cutList(src string) {
	l := &s.list
	l.look(src)
	p := l.candidate
	if p < 0 || p-l.cut < minPiece || p <= l.cut {
		return
	}
	lines, _, err := s.r.renderFrom(src[l.cut:p], l.numberFrom(l.items))
	if err != nil {
		l.stuck = true
		return
	}
	l.lines = append(l.lines, lines...)
	l.cut, l.items = p, l.candItems
}

// listTail renders src[from:to] as the kept pieces (head, shared, never
// changed) and the items after them; ok is false when there are no pieces
// or they cannot be used now.
func (s *Stream) listTail(src string, from, to int) (head, lines []string, ok bool) {
	l := &s.list
	if !l.ok || l.from != from {
		return nil, nil, false
	}
	l.look(src)
	if l.cut == l.from || l.cut > to {
		return nil, nil, false
	}
	if l.blank && to > l.seen && !isBlank(src[l.seen:to]) {
		// A line after a blank one is still arriving: it may make the
		// list loose.
		return nil, nil, false
	}
	live, _, err := s.r.renderFrom(src[l.cut:to], l.numberFrom(l.items))
	if err != nil {
		return nil, nil, false
	}
	return l.lines[:len(l.lines):len(l.lines)], live, true
}
