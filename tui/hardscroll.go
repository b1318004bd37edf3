package tui

import (
	"reflect"
	"slices"
	"strings"
	"unsafe"

	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// A streamed frame scrolls the transcript up a row or two. drawRows copied
// the scrolled rows inside Bubble Tea's cell buffer, but a copied row is a
// touched row: ultraviolet then hashed it, scrolled the terminal, and
// compared every cell of every scrolled row with its model of the screen
// only to find them equal (BenchmarkFrameCost, 120x40: us-render ~270 of a
// ~390 µs frame). When drawRows knows that rows [top,bot] moved up by n and
// nothing else in them changed, hardScroll has the terminal scroll that
// region itself (margins, delete lines, margins back, the pen already
// reset, as ultraviolet's scrolln does) and shifts ultraviolet's model of
// the screen (its current buffer) to match, so those rows are neither
// touched nor compared; only the rows that really changed go through
// Render. The fields reached are found once by name and type
// (findTermLayout); TestTermLayoutFound fails when an upgrade renames
// them, and drawRows then copies rows as before.

// termLayout is where ultraviolet's TerminalRenderer keeps the fields
// hardScroll uses, as offsets into the struct.
type termLayout struct {
	curbuf      uintptr // *uv.RenderBuffer: the model of the screen
	oldhash     uintptr // []uint64: the scroll optimisation's hashes of it
	newhash     uintptr // []uint64: and of the last frame
	clear       uintptr // bool: the next render erases the screen
	termResized uintptr // bool: the terminal changed size
	pen         uintptr // uv.Cell: the cursor's pen (cur.Cell)
	profile     uintptr // colorprofile.Profile: the colours it writes
}

// offset returns the offset of st's field name when it has type T.
func offset[T any](st reflect.Type, name string) (uintptr, bool) {
	f, ok := st.FieldByName(name)
	if !ok || f.Type != reflect.TypeFor[T]() {
		return 0, false
	}
	return f.Offset, true
}

// findTermLayout finds the fields of uv.TerminalRenderer hardScroll uses.
func findTermLayout() (l termLayout, ok bool) {
	st := reflect.TypeFor[uv.TerminalRenderer]()
	var oks [8]bool
	l.curbuf, oks[0] = offset[*uv.RenderBuffer](st, "curbuf")
	l.oldhash, oks[1] = offset[[]uint64](st, "oldhash")
	l.newhash, oks[2] = offset[[]uint64](st, "newhash")
	l.clear, oks[3] = offset[bool](st, "clear")
	l.termResized, oks[4] = offset[bool](st, "termResized")
	l.profile, oks[7] = offset[colorprofile.Profile](st, "profile")
	var cur reflect.StructField
	if cur, oks[5] = st.FieldByName("cur"); oks[5] && cur.Type.Kind() == reflect.Struct {
		var cell uintptr
		cell, oks[6] = offset[uv.Cell](cur.Type, "Cell")
		l.pen = cur.Offset + cell
	}
	for _, ok := range oks {
		if !ok {
			return termLayout{}, false
		}
	}
	return l, true
}

// hardScroll scrolls rows of the terminal scr draws on, and scr's model of
// them, when its layout was found.
type hardScroll struct {
	layout termLayout
	scr    *uv.TerminalRenderer
	// painted counts the rows paintRow wrote (tests read it).
	painted int
}

// termField returns a pointer to the field of h.scr at off, of type T.
func termField[T any](h *hardScroll, off uintptr) *T {
	return (*T)(unsafe.Add(unsafe.Pointer(h.scr), off))
}

// scrollUp scrolls rows [top,bot] of the screen up by n, blank rows coming
// in at bot in the default colours, and reports whether it did. bounds are
// those of the frame about to be rendered, which the model must have.
func (h *hardScroll) scrollUp(bounds uv.Rectangle, top, bot, n int) bool {
	cb := *termField[*uv.RenderBuffer](h, h.layout.curbuf)
	pen := termField[uv.Cell](h, h.layout.pen)
	if cb == nil || cb.Bounds() != bounds || *termField[bool](h, h.layout.clear) || *termField[bool](h, h.layout.termResized) ||
		!pen.Style.IsZero() || !pen.Link.IsZero() || top < 0 || bot >= bounds.Dy() || n <= 0 || bot-top+1 <= n {
		return false
	}
	// The pen is the default one (Render resets it last), so the rows the
	// scroll brings in are blank in the default colours, as in the model.
	height := bounds.Dy()
	if bot < height-1 {
		_, _ = h.scr.WriteString(ansi.SetTopBottomMargins(top+1, bot+1))
	}
	_, _ = h.scr.WriteString(ansi.CursorPosition(1, top+1) + ansi.DeleteLine(n))
	if bot < height-1 {
		_, _ = h.scr.WriteString(ansi.SetTopBottomMargins(1, height))
	}
	// Where the cursor is now depends on the terminal: the next move is
	// absolute.
	h.scr.SetPosition(-1, -1)

	rotateUp(cb.Lines[top:bot+1], n)
	for y := bot - n + 1; y <= bot; y++ {
		line := cb.Lines[y]
		for x := range line {
			line[x] = uv.EmptyCell
		}
	}
	// The hashes no longer describe the rows: the next render that uses them
	// computes them all again.
	*termField[[]uint64](h, h.layout.oldhash) = nil
	*termField[[]uint64](h, h.layout.newhash) = nil
	return true
}

// A scroll of many rows leaves as many blank ones to fill, and the 4 KB/s
// answer of the streaming benchmark scrolls 12 to 23 rows a frame (its
// answer is lists, code and tables): ultraviolet wrote each new row cell by
// cell, working out each cell's pen and each cursor move (putRange,
// updatePen, relativeCursorMove: most of what Render still cost). A blank
// row takes the row's own text as is, when the terminal shows that text
// cell for cell as ultraviolet's model of it: paintRow writes it there and
// puts the row in the model, and Render leaves the row alone.

// paintRow writes row y of the screen, blank since the scroll, as row, the
// text buf's row y was parsed from, and reports whether it did; buf's row
// is then the model's and no longer touched. It does not when the text is
// not written as is (colours the terminal's profile converts, controls,
// wider than the screen) or the row holds a cell whose width a terminal may
// see otherwise (wide, ambiguous: ultraviolet repaints those with care).
func (h *hardScroll) paintRow(buf uv.ScreenBuffer, y int, row string) bool {
	cb := *termField[*uv.RenderBuffer](h, h.layout.curbuf)
	profile := *termField[colorprofile.Profile](h, h.layout.profile)
	if !asIs(row, profile) || ansi.StringWidthWc(row) > buf.Width() || !narrow(buf.Lines[y]) {
		return false
	}
	_, _ = h.scr.WriteString(ansi.CursorPosition(1, y+1))
	// The row ends with the pen reset (selfContained), so its trailing
	// spaces are blank cells, as the scroll left them.
	_, _ = h.scr.WriteString(strings.TrimRight(row, " "))
	h.scr.SetPosition(-1, -1)
	copy(cb.Lines[y], buf.Lines[y])
	if t := buf.Touched[y]; t != nil {
		t.FirstCell, t.LastCell = -1, -1
	}
	h.painted++
	return true
}

// asIs reports whether ultraviolet would write row's text with the same
// colours to a terminal of profile p, and whether it holds no control
// character but its SGR sequences' escapes.
func asIs(row string, p colorprofile.Profile) bool {
	switch p {
	case colorprofile.TrueColor:
	case colorprofile.ANSI256:
		// 256 colours pass; RGB ones are brought down to them.
		for _, rgb := range []string{"38;2", "48;2", "58;2", "38:2", "48:2", "58:2"} {
			if strings.Contains(row, rgb) {
				return false
			}
		}
	case colorprofile.Unknown, colorprofile.NoTTY, colorprofile.ASCII, colorprofile.ANSI:
		return false // ultraviolet brings the colours down: its own write
	}
	for i := 0; i < len(row); i++ {
		c := row[i]
		if c < 0x20 && c != ansi.ESC || c == 0x7f || c == 0xc2 && i+1 < len(row) && row[i+1] < 0xa0 {
			return false // C0, DEL, C1 (U+0080-U+009F)
		}
	}
	return true
}

// narrow reports whether every cell of line is one column wide however a
// terminal measures it.
func narrow(line uv.Line) bool {
	for i := range line {
		c := &line[i]
		if c.Width != 1 {
			return false
		}
		if len(c.Content) != 1 && (ansi.StringWidthWc(c.Content) != 1 || ansi.StringWidth(c.Content) != 1) {
			return false
		}
	}
	return true
}

// minScrolled is the fewest changed rows a scroll must carry to be worth
// sending to the terminal instead of drawing them.
const minScrolled = 2

// scrollRun finds the rows of cur that are the rows of old k further down
// and that changed: the run of them carrying the most changed rows, as the
// region [top,bot] whose rows move up by k. ok is false when no run carries
// minScrolled changed rows.
func scrollRun(old, cur []string, k int) (top, bot int, ok bool) {
	best, end := 0, -1
	for y := 0; y+k < len(cur); {
		if cur[y] != old[y+k] {
			y++
			continue
		}
		start, moved := y, 0
		for ; y+k < len(cur) && cur[y] == old[y+k]; y++ {
			if old[y] != cur[y] {
				moved++
			}
		}
		if moved > best {
			best, top, end = moved, start, y-1
		}
	}
	if best < minScrolled {
		return 0, 0, false
	}
	return top, end + k, true
}

// rotateUp moves lines up by n, the first n coming round to the end: the
// rows a scroll moves, without copying their cells (a row of 120 cells is
// some 14 KB).
func rotateUp(lines []uv.Line, n int) {
	slices.Reverse(lines[:n])
	slices.Reverse(lines[n:])
	slices.Reverse(lines)
}
