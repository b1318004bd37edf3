package tui

import (
	"strings"
	"unicode"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	rw "github.com/mattn/go-runewidth"
	"github.com/rivo/uniseg"
)

// The textarea draws itself whole at every call of its View, and its
// Update draws itself once more for its viewport: each row through half a
// dozen lipgloss renders (the prompt twice, the text, the padding), the
// end-of-buffer rows that the viewport then cuts off, and the whole again
// through the viewport's and the base style's renders. In the real
// interface that was about a third of a keystroke's CPU (perf over 600
// typed keys after three long answers). inputDraw draws the same rows
// from the textarea's state for the common case (focused, no selection,
// a draft that fits without scrolling, the prompt and styles tern sets)
// with the same styles and the same renders, reuses the rows that did not
// change, and leaves anything else to the textarea's View.
// TestInputDrawMatchesTextarea compares the two over many drafts.

// inputDrawMaxBytes bounds the drafts drawn here: longer ones go to the
// textarea, which scrolls them anyway.
const inputDrawMaxBytes = 4 << 10

// inputPrompt is the input's prompt: a mark on the first row.
func inputPrompt(p textarea.PromptInfo) string {
	if p.LineNumber == 0 {
		return "› "
	}
	return "  "
}

// inputPromptWidth is the cells inputPrompt takes.
const inputPromptWidth = 2

// inputDraw draws the input as the textarea's View does (see above); the
// model keeps one.
type inputDraw struct {
	gen   int  // the theme generation the styles below are for
	ready bool // the styles below are set
	// The focused state's styles as the textarea computes them, and the
	// prompts of a row, rendered: [first row][cursor row].
	text, cursorLine lipgloss.Style
	// plain says both styles leave text as it is (they at most make it
	// inline, which a row's text already is): the rows then skip them.
	plain   bool
	prompts [2][2]string
	cursor  textarea.CursorStyle
	// rows are the rows drawn last, reused while their key is the same.
	rows []drawnRow
}

// drawnRow is one row of the input as drawn, and what it was drawn from.
type drawnRow struct {
	key rowKey
	out string
}

// rowKey is what a row's drawing depends on: the row's text, whether it is
// the first row (the prompt's mark) and the cursor's logical line (its
// style), and the cursor's column in it, -1 when the cursor is elsewhere.
type rowKey struct {
	seg         string
	first, line bool
	col, width  int
}

// setStyles computes the styles as the textarea does for st.
func (d *inputDraw) setStyles(gen int, st textarea.Styles) {
	f := st.Focused
	d.text = f.Text.Inherit(f.Base).Inline(true)
	d.cursorLine = f.CursorLine.Inherit(f.Base).Inline(true)
	prompt := f.Prompt.Inherit(f.Base).Inline(true)
	for i, first := range []bool{true, false} {
		line := 1
		if first {
			line = 0
		}
		p := prompt.Render(inputPrompt(textarea.PromptInfo{LineNumber: line, Focused: true}))
		d.prompts[i][0] = d.text.Render(p)
		d.prompts[i][1] = d.cursorLine.Render(p)
	}
	// A style with any colour, attribute, size, padding, border or
	// transform changes a probe; one without leaves every text as it is.
	const probe = " a Z 9 "
	d.plain = d.text.Render(probe) == probe && d.cursorLine.Render(probe) == probe
	d.cursor = st.Cursor
	d.gen, d.ready, d.rows = gen, true, d.rows[:0]
}

// draw returns what ta.View and ta.Cursor would, and ok; ok is false when
// ta is in a state drawn only by the textarea. gen is the theme's
// generation: the styles are taken again from ta when it changes.
func (d *inputDraw) draw(ta *textarea.Model, gen int) (view string, cur *tea.Cursor, ok bool) {
	if !ta.Focused() || ta.HasSelection() || ta.ShowLineNumbers || ta.ScrollYOffset() != 0 {
		return "", nil, false
	}
	value := ta.Value()
	width := ta.Width()
	if value == "" || len(value) > inputDrawMaxBytes || width < 1 || !plainDraft(value) {
		return "", nil, false // the placeholder, a draft that may scroll, graphemes
	}
	if !d.ready || d.gen != gen {
		d.setStyles(gen, ta.Styles())
	}
	row, col := ta.Line(), ta.Column()
	var grids [][][]rune
	var cursorLine []rune
	total := 0
	for i, l := range strings.Split(value, "\n") {
		runes := []rune(l)
		if i == row {
			cursorLine = runes
		}
		g := wrapInput(runes, width)
		total += len(g)
		if total > ta.MaxHeight {
			return "", nil, false // it scrolls: the textarea's viewport shows it
		}
		grids = append(grids, g)
	}
	if row >= len(grids) || ta.Height() != total {
		return "", nil, false
	}
	rowOff, colOff, charOff, ok := inputLineInfo(grids[row], col)
	if !ok || col >= len(cursorLine) && charOff >= width {
		return "", nil, false // the cursor past a full row: drawn as a space
	}
	var b strings.Builder
	b.Grow(total * (width + 32))
	display, cursorY := 0, 0
	for l, grid := range grids {
		for wl, seg := range grid {
			strwidth := runesWidth(seg)
			if strwidth > width {
				return "", nil, false // a trailing space past the edge, trimmed there
			}
			k := rowKey{seg: string(seg), first: display == 0, line: l == row, col: -1, width: width}
			if l == row && wl == rowOff {
				if colOff >= len(seg) {
					return "", nil, false
				}
				k.col, cursorY = colOff, display
			}
			out, ok := d.row(display, k, seg, width-strwidth)
			if !ok {
				return "", nil, false
			}
			if display > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(out)
			display++
		}
	}
	d.rows = d.rows[:display]
	c := tea.NewCursor(charOff+inputPromptWidth, cursorY)
	c.Blink, c.Color, c.Shape = d.cursor.Blink, d.cursor.Color, d.cursor.Shape
	return b.String(), c, true
}

// row draws display row i from k (seg is k.seg as runes), or returns the
// row drawn last time when it was drawn from the same key. ok is false
// when the row does not measure the viewport's width as the viewport
// measures it (a grapheme that uniseg and ansi count differently): the
// viewport would pad or wrap it.
func (d *inputDraw) row(i int, k rowKey, seg []rune, padding int) (_ string, ok bool) {
	if i < len(d.rows) && d.rows[i].key == k {
		return d.rows[i].out, true
	}
	style, cur := d.text, 0
	if k.line {
		style, cur = d.cursorLine, 1
	}
	first := 1
	if k.first {
		first = 0
	}
	var b strings.Builder
	b.WriteString(d.prompts[first][cur])
	switch {
	case d.plain:
		// What the renders below return for plain styles: the text, the
		// cursor's character and the padding as they are.
		b.WriteString(k.seg)
		b.WriteString(strings.Repeat(" ", max(0, padding)))
	case k.col >= 0:
		b.WriteString(style.Render(string(seg[:k.col])))
		// The hidden cursor's cell: its character in the cursor line's
		// style (already inline), as the textarea's virtual cursor draws it.
		b.WriteString(style.Render(d.cursorLine.Render(string(seg[k.col]))))
		b.WriteString(style.Render(string(seg[k.col+1:])))
		b.WriteString(style.Render(strings.Repeat(" ", max(0, padding))))
	default:
		b.WriteString(style.Render(k.seg))
		b.WriteString(style.Render(strings.Repeat(" ", max(0, padding))))
	}
	out := b.String()
	if !isASCII(k.seg) && ansi.StringWidth(out) != inputPromptWidth+k.width {
		return "", false
	}
	if i < len(d.rows) {
		d.rows[i] = drawnRow{key: k, out: out}
	} else {
		d.rows = append(d.rows[:i], drawnRow{key: k, out: out})
	}
	return out, true
}

// plainDraft reports whether every character of s is one that every width
// function of the textarea, its viewport and lipgloss counts the same:
// Latin, Greek, Cyrillic, and the wide CJK and Hangul blocks. Combining
// marks, emoji, modifiers and joiners make graphemes that they count
// differently, and the viewport then pads or wraps a row the textarea
// measured as full; such drafts are drawn by the textarea.
func plainDraft(s string) bool {
	for _, r := range s {
		switch {
		case r >= 0x20 && r < 0x7f || r == '\n':
		case r >= 0xa0 && r < 0x300, r >= 0x370 && r < 0x483:
		case r >= 0x3040 && r < 0x3100, r >= 0x4e00 && r < 0xa000, r >= 0xac00 && r < 0xd7a4, r >= 0xff01 && r < 0xff61:
		default:
			return false
		}
	}
	return true
}

// inputLineInfo is the textarea's LineInfo for a logical line wrapped as
// grid and the cursor at col: the cursor's wrapped row, its column in the
// row's runes and in cells.
func inputLineInfo(grid [][]rune, col int) (rowOff, colOff, charOff int, ok bool) {
	counter := 0
	for i, line := range grid {
		if counter+len(line) == col && i+1 < len(grid) {
			return i + 1, 0, 0, true
		}
		if counter+len(line) >= col {
			return i, col - counter, runesWidth(line[:max(0, col-counter)]), true
		}
		counter += len(line)
	}
	return 0, 0, 0, false
}

// wrapInput soft-wraps a logical line of the input as the textarea does
// (its unexported wrap, copied from bubbles v2.2.1, MIT licence), so rows
// break exactly where the textarea breaks them.
func wrapInput(runes []rune, width int) [][]rune {
	var (
		lines  = [][]rune{{}}
		word   = []rune{}
		row    int
		spaces int
	)
	for _, r := range runes {
		if unicode.IsSpace(r) {
			spaces++
		} else {
			word = append(word, r)
		}
		if spaces > 0 {
			if runesWidth(lines[row])+runesWidth(word)+spaces > width {
				row++
				lines = append(lines, []rune{})
			}
			lines[row] = append(lines[row], word...)
			lines[row] = append(lines[row], repeatSpaceRunes(spaces)...)
			spaces = 0
			word = nil
		} else {
			lastCharLen := rw.RuneWidth(word[len(word)-1])
			if runesWidth(word)+lastCharLen > width {
				if len(lines[row]) > 0 {
					row++
					lines = append(lines, []rune{})
				}
				lines[row] = append(lines[row], word...)
				word = nil
			}
		}
	}
	if runesWidth(lines[row])+runesWidth(word)+spaces >= width {
		lines = append(lines, []rune{})
		lines[row+1] = append(lines[row+1], word...)
		spaces++
		lines[row+1] = append(lines[row+1], repeatSpaceRunes(spaces)...)
	} else {
		lines[row] = append(lines[row], word...)
		spaces++
		lines[row] = append(lines[row], repeatSpaceRunes(spaces)...)
	}
	return lines
}

// runesWidth is uniseg.StringWidth(string(rs)), which the textarea
// measures with, counted without it for printable ASCII: a cell a rune.
func runesWidth(rs []rune) int {
	for _, r := range rs {
		if r < 0x20 || r >= 0x7f {
			return uniseg.StringWidth(string(rs))
		}
	}
	return len(rs)
}

// repeatSpaceRunes is n spaces.
func repeatSpaceRunes(n int) []rune {
	return []rune(strings.Repeat(" ", n))
}
