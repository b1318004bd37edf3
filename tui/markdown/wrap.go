package markdown

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// run is text drawn in one look. In a paragraph's runs a "\n" on its own
// is a hard line break; no other run holds a newline, a tab or a control
// character.
type run struct {
	text string
	look look
}

// hardBreak is the run that ends a line before the width does.
const hardBreak = "\n"

// nbsp pads code spans; where a line breaks, it is dropped.
const nbsp = "\u00a0"

// textWidth is the number of cells s takes on the screen.
func textWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// wrapper lays runs out in lines of at most width cells, breaking at spaces
// and, for a word longer than a line, between grapheme clusters. It costs
// time in proportion to the text whatever its shape.
type wrapper struct {
	width int
	lines [][]run
	// cur holds every line's runs, the current line's from start: a line
	// ended is cur[its start:its end] with no room after it, so lines
	// share one array instead of each growing its own by doubling (the
	// largest of the renderer's allocations for a long answer).
	cur    []run
	start  int
	curW   int
	spaces []run // spaces seen since the last word, dropped at a line's end
	spW    int
	word   []run
	wordW  int
}

// wrapRuns lays runs out in lines of at most width cells.
func wrapRuns(runs []run, width int) [][]run {
	w := &wrapper{width: max(width, 1)}
	// Every word and every gap between words is a run: room for them all
	// (a word broken between graphemes may want more, and append gives it).
	n := 0
	for _, r := range runs {
		n += 2*strings.Count(r.text, " ") + 1
	}
	w.cur = make([]run, 0, n)
	for _, r := range runs {
		if r.text == hardBreak {
			w.endWord()
			w.flush()
			continue
		}
		s := r.text
		for s != "" {
			i := strings.IndexByte(s, ' ')
			if i < 0 {
				w.addWord(run{s, r.look})
				break
			}
			if i > 0 {
				w.addWord(run{s[:i], r.look})
			}
			j := i
			for j < len(s) && s[j] == ' ' {
				j++
			}
			w.endWord()
			if w.curW > 0 { // spaces at the start of a line are dropped
				w.spaces = append(w.spaces, run{s[i:j], r.look})
				w.spW += j - i
			}
			s = s[j:]
		}
	}
	w.endWord()
	if len(w.cur) > w.start {
		w.flush()
	}
	return w.lines
}

// addWord adds a piece of the word being read.
func (w *wrapper) addWord(r run) {
	w.word = append(w.word, r)
	w.wordW += textWidth(r.text)
}

// endWord places the word read so far.
func (w *wrapper) endWord() {
	if len(w.word) == 0 {
		return
	}
	if w.curW > 0 && w.curW+w.spW+w.wordW > w.width {
		w.flush()
	}
	if w.curW > 0 {
		w.cur = append(w.cur, w.spaces...)
		w.curW += w.spW
	}
	w.spaces, w.spW = w.spaces[:0], 0
	if w.curW+w.wordW <= w.width {
		w.cur = append(w.cur, w.word...)
		w.curW += w.wordW
	} else {
		w.breakWord()
	}
	w.word, w.wordW = w.word[:0], 0
}

// breakWord places a word too long for the line between its graphemes.
func (w *wrapper) breakWord() {
	for _, r := range w.word {
		s := r.text
		for s != "" {
			// Take as much as fits in one step when it is all ASCII.
			room := w.width - w.curW
			n := 0
			for n < len(s) && n < room && s[n] < utf8.RuneSelf {
				n++
			}
			if n > 0 {
				w.cur = append(w.cur, run{s[:n], r.look})
				w.curW += n
				s = s[n:]
				continue
			}
			g, gw := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
			if g == "" {
				break
			}
			if w.curW > 0 && w.curW+gw > w.width {
				if g == nbsp { // a code span's padding is not worth a line of its own
					s = s[len(g):]
					continue
				}
				w.flush()
			}
			w.cur = append(w.cur, run{g, r.look})
			w.curW += gw
			s = s[len(g):]
		}
	}
}

// flush ends the current line.
func (w *wrapper) flush() {
	end := len(w.cur)
	w.lines = append(w.lines, w.cur[w.start:end:end])
	w.start, w.curW = end, 0
	w.spaces, w.spW = w.spaces[:0], 0
}

// draw writes runs as one terminal line: each change of look selects the
// new one from the default, and a line that selected any ends with a reset.
// Spaces at the end with no background are left out.
func draw(b *strings.Builder, runs []run) {
	// lastText is the last run's text without its trailing spaces: the runs
	// are not copied to change it (a copy of every line's runs was a tenth
	// of what the renderer allocated for a long answer).
	lastText := ""
	for len(runs) > 0 {
		last := runs[len(runs)-1]
		if last.look.bg != noColor {
			lastText = last.text
			break
		}
		if lastText = strings.TrimRight(last.text, " "); lastText != "" {
			break
		}
		runs = runs[:len(runs)-1]
	}
	cur := plainLook
	for i, r := range runs {
		if i == len(runs)-1 {
			r.text = lastText
		}
		if r.text == "" {
			continue
		}
		if r.look != cur {
			if cur != plainLook {
				b.WriteString("\x1b[m")
			}
			r.look.writeSGR(b)
			cur = r.look
		}
		b.WriteString(r.text)
	}
	if cur != plainLook {
		b.WriteString("\x1b[m")
	}
}

// drawLine is draw into a new string.
func drawLine(runs []run) string {
	var b strings.Builder
	draw(&b, runs)
	return b.String()
}

// styled is text drawn in look l as one string.
func styled(text string, l look) string {
	if l == plainLook || text == "" {
		return text
	}
	return l.sgr() + text + "\x1b[m"
}
