// Package markdown draws assistant Markdown for the terminal from goldmark's
// tree, incrementally while it streams: closed blocks are rendered once and
// only the open tail again on each frame.
package markdown

import "strings"

// SafeSplit returns the largest offset L such that src[:L] holds only closed
// blocks: whatever is appended to src, src[:L] and src[L:] render to the same
// text separately as together (joined with Join). It returns 0 when there is
// no such point.
//
// L is the start of a line that follows a blank line outside any code fence
// or multi-line HTML block, and that cannot continue the block before the
// blank: it is not indented and not a list item (a loose list continues
// across blank lines), unless no line since the last such point looked like
// a list item: then a list item at the left margin starts a new list. The last line may still be growing: its first
// characters are enough to tell (an "a" starts a paragraph whatever
// follows; a lone "-" or "1." may yet become a list item and is not a split
// point until more arrives). Mistakes only ever make L smaller.
func SafeSplit(src string) int {
	pts := splitPoints(src)
	if len(pts) == 0 {
		return 0
	}
	return pts[len(pts)-1]
}

// splitPoints returns every offset SafeSplit could have returned for a prefix
// of src, in order; the last one is SafeSplit(src).
func splitPoints(src string) []int {
	var sc scanner
	var pts []int
	for off := 0; off < len(src); {
		n := strings.IndexByte(src[off:], '\n')
		if n < 0 {
			// The last line is still growing: a split point once it
			// can no longer become a continuation.
			if line := src[off:]; decided(line) && sc.startsBlock(line, false) {
				pts = append(pts, off)
			}
			break
		}
		line := src[off : off+n]
		split := sc.startsBlock(line, true)
		if split {
			pts = append(pts, off)
		}
		sc.feed(line, split)
		off += n + 1
	}
	return pts
}

// decided reports whether the start of a line is enough to know whether
// continues is true for every line that starts so: a list marker needs the
// character after it, a number the one after its digits and delimiter.
func decided(l string) bool {
	if isBlank(l) {
		return false
	}
	switch c := l[0]; {
	case c == '-' || c == '*' || c == '+':
		return len(l) >= 2
	case c >= '0' && c <= '9':
		i := 0
		for i < len(l) && i < 10 && l[i] >= '0' && l[i] <= '9' {
			i++
		}
		switch {
		case i == 10:
			return true // too long for a list number
		case i == len(l):
			return false
		case l[i] == '.' || l[i] == ')':
			return i+1 < len(l)
		}
	}
	return true
}

// scanner tracks the block structure that can span blank lines.
type scanner struct {
	fenceChar byte // '`' or '~' while inside a fence
	fenceLen  int
	// fenceIndent is the open fence's indentation. A fence indented under
	// a list item ends when a less indented line ends the item, and that
	// line may itself open a fence; a top-level fence goes on. Without
	// tracking containers the two cannot be told apart, so such a line
	// makes the scanner lost: it offers no further split point.
	fenceIndent int
	lost        bool
	htmlEnd     string // closing marker of an open HTML block
	prevBlank   bool   // the previous line was blank and outside fences/HTML
	started     bool   // a non-blank line has been seen
	// listSeen is set once a line since the last split point looked like
	// a list item, so a list may be open.
	listSeen bool
	// htmlish is set once a line since the last blank one started with
	// "<": an HTML block may be open, which only a blank line ends.
	htmlish bool
}

// startsBlock reports whether line, which follows everything fed so far,
// starts an independent block. A line still arriving (complete is false)
// must follow a blank line.
func (s *scanner) startsBlock(line string, complete bool) bool {
	if !s.started || s.lost || s.fenceChar != 0 || s.htmlEnd != "" || isBlank(line) {
		return false
	}
	if s.prevBlank {
		return !continues(line) || !s.listSeen && itemText(line) > 0
	}
	// Right after text, a fence or a list at the left margin interrupts
	// the block it follows, unless an HTML block may hold it.
	return complete && !s.htmlish && (opensFence(line) || !s.listSeen && interruptsWithList(line))
}

// opensFence reports whether line opens a code fence at the left margin.
func opensFence(line string) bool {
	c, n := fence(line)
	return n > 0 && line[0] == c
}

// interruptsWithList reports whether line is a list item at the left margin
// that may interrupt a paragraph: a bullet, or a number that is 1.
func interruptsWithList(line string) bool {
	if itemText(line) == 0 {
		return false
	}
	if c := line[0]; c == '-' || c == '*' || c == '+' {
		return true
	}
	return strings.HasPrefix(line, "1.") || strings.HasPrefix(line, "1)")
}

// feed advances the scanner past line; split says whether line starts a
// block (startsBlock was true for it).
func (s *scanner) feed(line string, split bool) {
	if split {
		s.listSeen, s.htmlish = false, false
	}
	blank := isBlank(line)
	if blank {
		s.htmlish = false
	} else if t := strings.TrimLeft(line, " "); len(line)-len(t) <= 3 && strings.HasPrefix(t, "<") {
		s.htmlish = true
	}
	switch {
	case s.fenceChar != 0:
		if !blank && indent(line) < s.fenceIndent {
			s.lost = true
		}
		if c, n := fence(line); c == s.fenceChar && n >= s.fenceLen && isBlank(strings.TrimLeft(line, " ")[n:]) {
			s.fenceChar, s.fenceLen = 0, 0
		}
	case s.htmlEnd != "":
		if strings.Contains(strings.ToLower(line), s.htmlEnd) {
			s.htmlEnd = ""
		}
	default:
		if c, n := fence(line); n > 0 {
			if s.htmlish {
				// An HTML block may hold this line, or a paragraph
				// with inline HTML, which the fence interrupts.
				s.lost = true
			}
			s.fenceChar, s.fenceLen, s.fenceIndent = c, n, indent(line)
		} else if end := htmlBlockEnd(line); end != "" {
			s.htmlEnd = end
		} else if t := strings.TrimLeft(line, " "); len(line)-len(t) <= 3 && t != "" && continues(t) {
			s.listSeen = true
		}
	}
	if !blank {
		s.started = true
	}
	s.prevBlank = blank && s.fenceChar == 0 && s.htmlEnd == ""
}

func isBlank(l string) bool { return strings.TrimSpace(l) == "" }

// indent counts a line's leading spaces (tabs are expanded before scanning).
func indent(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

// fence returns the fence character and run length when line opens or closes
// a code fence (``` or ~~~, indented at most three spaces), else 0, 0.
func fence(line string) (byte, int) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return 0, 0
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 || (t[0] == '`' && strings.IndexByte(t[n:], '`') >= 0) {
		return 0, 0
	}
	return t[0], n
}

// htmlBlockEnd returns the marker that closes an HTML block starting on line
// when that block may contain blank lines (CommonMark kinds 1 to 5), or "".
func htmlBlockEnd(line string) string {
	t := strings.TrimLeft(line, " ")
	if !strings.HasPrefix(t, "<") {
		return "" // most lines: no lower-case copy of them (a fresh process's first long answer touched 16 KB of new memory for those copies)
	}
	t = strings.ToLower(t)
	var end string
	switch {
	case strings.HasPrefix(t, "<!--"):
		end = "-->"
	case strings.HasPrefix(t, "<?"):
		end = "?>"
	case strings.HasPrefix(t, "<![cdata["):
		end = "]]>"
	case strings.HasPrefix(t, "<!"):
		end = ">"
	default:
		for _, tag := range []string{"pre", "script", "style", "textarea"} {
			if strings.HasPrefix(t[1:], tag) && (len(t) == len(tag)+1 || strings.IndexByte(" >\t", t[len(tag)+1]) >= 0) {
				end = "</" + tag + ">"
				break
			}
		}
	}
	if end == "" || strings.Contains(t[1:], end) {
		return "" // not a block, or closed on its own line
	}
	return end
}

// continues reports whether a line after a blank line may belong to the block
// before it: indented lines (list continuation, indented code) and list items
// (a loose list).
func continues(l string) bool {
	if l[0] == ' ' || l[0] == '\t' {
		return true
	}
	if len(l) > 1 && strings.IndexByte("-*+", l[0]) >= 0 && (l[1] == ' ' || l[1] == '\t') {
		return true
	}
	if len(l) == 1 && strings.IndexByte("-*+", l[0]) >= 0 {
		return true // an empty list item
	}
	i := 0
	for i < len(l) && i < 10 && l[i] >= '0' && l[i] <= '9' {
		i++
	}
	return i > 0 && i < len(l) && (l[i] == '.' || l[i] == ')') && (i+1 == len(l) || l[i+1] == ' ' || l[i+1] == '\t')
}

// itemText returns where the text of a list item at the left margin starts
// in line ("- a", "12. a"), or 0 when line is not such an item with text
// (a thematic break like "- - -" is not).
func itemText(l string) int {
	i := 0
	switch {
	case l == "":
		return 0
	case l[0] == '-' || l[0] == '*' || l[0] == '+':
		i = 1
	default:
		for i < len(l) && i < 10 && l[i] >= '0' && l[i] <= '9' {
			i++
		}
		if i == 0 || i == 10 || i == len(l) || (l[i] != '.' && l[i] != ')') {
			return 0
		}
		i++
	}
	j := i
	for j < len(l) && (l[j] == ' ' || l[j] == '\t') {
		j++
	}
	if j == i || j == len(l) || isBreak(l) {
		return 0
	}
	return j
}

// isBreak reports whether l is a thematic break: three or more of one of
// "-*_" and nothing else but spaces and tabs.
func isBreak(l string) bool {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 || t == "" || (t[0] != '-' && t[0] != '*' && t[0] != '_') {
		return false
	}
	n := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case t[0]:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// HasRefDefinitions reports whether src defines reference links
// ("[x]: url"), which incremental rendering cannot resolve across blocks.
func HasRefDefinitions(src string) bool {
	for line := range strings.Lines(src) {
		t := strings.TrimLeft(line, " ")
		if len(line)-len(t) > 3 || !strings.HasPrefix(t, "[") {
			continue
		}
		if i := strings.Index(t, "]:"); i > 1 {
			return true
		}
	}
	return false
}
