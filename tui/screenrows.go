package tui

import (
	"bytes"
	"io"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// Bubble Tea's flush draws every frame whole: it clears its cell buffer,
// parses the whole view back into cells, and ultraviolet then compares
// every row with the terminal's; a keystroke that changed one row paid for
// forty (at 120x40, 0.5 ms of a 0.85 ms frame on this machine). When the
// frame is an ordinary one (alternate screen, same modes, same size, the
// renderer not restarting) and every row of the old and the new view is
// self-contained (see selfContained), drawRows parses only the rows whose
// text changed into the renderer's cell buffer, so ultraviolet compares
// only those, and then writes the difference as the flush does. Anything
// else goes through Bubble Tea's own flush. TestScreenWriterFindsRenderer
// fails if a Bubble Tea upgrade changes the fields reached here.

// rowParts are the terminal renderer's fields drawRows uses, beside those
// of rendererParts.
type rowParts struct {
	lastView     **tea.View
	cellbuf      *uv.ScreenBuffer
	scr          **uv.TerminalRenderer
	buf          *bytes.Buffer
	w            *io.Writer
	width        *int
	height       *int
	starting     *bool
	pendingErase *bool
	syncdUpdates *bool
	logger       *uv.Logger
}

// field returns a pointer to r's field name when it has type T.
func field[T any](st reflect.Type, r unsafe.Pointer, name string) (*T, bool) {
	f, ok := st.FieldByName(name)
	if !ok || f.Type != reflect.TypeFor[T]() {
		return nil, false
	}
	return (*T)(unsafe.Add(r, f.Offset)), true
}

// findRowParts finds the fields of the renderer r, of struct type st.
func findRowParts(st reflect.Type, r unsafe.Pointer) (p rowParts, ok bool) {
	var oks [11]bool
	p.lastView, oks[0] = field[*tea.View](st, r, "lastView")
	p.cellbuf, oks[1] = field[uv.ScreenBuffer](st, r, "cellbuf")
	p.scr, oks[2] = field[*uv.TerminalRenderer](st, r, "scr")
	p.buf, oks[3] = field[bytes.Buffer](st, r, "buf")
	p.w, oks[4] = field[io.Writer](st, r, "w")
	p.width, oks[5] = field[int](st, r, "width")
	p.height, oks[6] = field[int](st, r, "height")
	p.starting, oks[7] = field[bool](st, r, "starting")
	p.pendingErase, oks[8] = field[bool](st, r, "pendingErase")
	p.syncdUpdates, oks[9] = field[bool](st, r, "syncdUpdates")
	p.logger, oks[10] = field[uv.Logger](st, r, "logger")
	for _, ok := range oks {
		if !ok {
			return rowParts{}, false
		}
	}
	return p, true
}

// viewFields are tea.View's fields as sameModes knows them; a test fails
// when Bubble Tea adds one, which sameModes would then not compare.
func viewFields() []string {
	return []string{"Content", "OnMouse", "Cursor", "BackgroundColor", "ForegroundColor", "WindowTitle",
		"ProgressBar", "ProgramStatus", "AltScreen", "ReportFocus", "DisableBracketedPasteMode", "MouseMode", "KeyboardEnhancements"}
}

// sameModes reports whether b differs from a at most in its content and
// its cursor's place: a frame that changes nothing else on the terminal.
func sameModes(a, b *tea.View) bool {
	if (a.Cursor == nil) != (b.Cursor == nil) || (a.ProgressBar == nil) != (b.ProgressBar == nil) ||
		(a.ProgramStatus == nil) != (b.ProgramStatus == nil) {
		return false
	}
	if a.Cursor != nil && (a.Cursor.Color != b.Cursor.Color || a.Cursor.Shape != b.Cursor.Shape || a.Cursor.Blink != b.Cursor.Blink) {
		return false
	}
	if a.ProgressBar != nil && *a.ProgressBar != *b.ProgressBar || a.ProgramStatus != nil && *a.ProgramStatus != *b.ProgramStatus {
		return false
	}
	return a.AltScreen == b.AltScreen && a.DisableBracketedPasteMode == b.DisableBracketedPasteMode &&
		a.ReportFocus == b.ReportFocus && a.MouseMode == b.MouseMode && a.WindowTitle == b.WindowTitle &&
		a.ForegroundColor == b.ForegroundColor && a.BackgroundColor == b.BackgroundColor &&
		a.KeyboardEnhancements == b.KeyboardEnhancements
}

// drawRows writes v as the renderer's flush would, drawing only the rows
// that changed, and reports whether it could; the renderer's lock is held.
func (w *screenWriter) drawRows(v *tea.View) bool {
	p := &w.rows
	last := *p.lastView
	if last == nil || *p.starting || *p.pendingErase || !v.AltScreen || v.Content == "" || !sameModes(last, v) ||
		p.cellbuf.Bounds() != uv.Rect(0, 0, *p.width, *p.height) {
		return false
	}
	if last.Content == v.Content && (v.Cursor == nil || v.Cursor.Position == last.Cursor.Position) {
		return true // nothing changed: Bubble Tea's flush would return too
	}
	if !w.contained(last.Content) || !allSelfContained(v.Content) {
		return false
	}
	scr := *p.scr
	var hw *hardScroll
	if w.termOK && scrollOptim {
		hw = &hardScroll{layout: w.term, scr: scr}
	}
	changed, scrolled := redrawRows(*p.cellbuf, last.Content, v.Content, hw)
	w.clean = v.Content
	if scrolled {
		w.scrolls++
		w.painted += hw.painted
	}

	if changed <= fewRows || scrolled {
		// Nothing moved that a scroll could carry (or the terminal scrolled
		// it already): skip the scroll optimisation, which hashes every row
		// of both screens each render.
		scr.SetScrollOptim(false)
		defer scr.SetScrollOptim(scrollOptim)
	}
	scr.Render(p.cellbuf.RenderBuffer)
	if v.Cursor != nil {
		scr.MoveTo(v.Cursor.X, v.Cursor.Y)
	}
	if err := scr.Flush(); err != nil {
		return true // as the flush: lastView stays, so the next flush draws it all
	}
	// What the flush wraps the update in when neither the screen nor the
	// cursor's visibility changes.
	updates, cursor, out := p.buf.Len() > 0, v.Cursor != nil, &w.out
	if updates {
		switch {
		case *p.syncdUpdates:
			out.WriteString(ansi.SetModeSynchronizedOutput)
		case cursor:
			out.WriteString(ansi.ResetModeTextCursorEnable)
		}
		out.Write(p.buf.Bytes())
		switch {
		case *p.syncdUpdates:
			out.WriteString(ansi.ResetModeSynchronizedOutput)
		case cursor:
			out.WriteString(ansi.SetModeTextCursorEnable)
		}
	}
	p.buf.Reset()
	if out.Len() > 0 {
		if *p.logger != nil {
			(*p.logger).Printf("output: %q", out.String())
		}
		_, err := (*p.w).Write(out.Bytes())
		out.Reset()
		if err != nil {
			return true // as the flush: the next frame tries again
		}
	}
	view := *v
	*p.lastView = &view
	w.byRows++
	return true
}

// contained reports whether every row of s, the view on screen, is
// self-contained; the answer for the last view drawn here is kept.
func (w *screenWriter) contained(s string) bool {
	if s == w.clean {
		return true
	}
	return allSelfContained(s)
}

// fewRows is the most rows a frame may change for drawRows to render it
// without the scroll optimisation: a keystroke's input and status rows.
const fewRows = 2

// scrollOptim is the scroll optimisation Bubble Tea's renderer sets
// (reset in cursed_renderer.go): on everywhere but Windows.
const scrollOptim = runtime.GOOS != "windows"

// redrawRows parses the rows of now that differ from was into buf, each
// row on its own, and returns how many; rows past the end of a view are
// blank. buf holds was, as does the screen. When the transcript scrolled
// and hw is not nil, hw scrolls the rows that only moved on the terminal
// and in its model, and redrawRows shifts them in buf untouched, so the
// renderer neither compares nor writes them; scrolled says so. Else a row
// of now that is a row of was further down (by the scroll's distance) is
// copied from there instead of parsed again: parsing the 33 scrolled rows
// of a streamed frame at 120x40 was a third of writing it
// (BenchmarkFrameCost, us-draw). A copy touches the row whole, as the parse
// does (it clears every cell first).
func redrawRows(buf uv.ScreenBuffer, was, now string, hw *hardScroll) (n int, scrolled bool) {
	width, height := buf.Width(), buf.Height()
	old, cur := viewRows(was, height), viewRows(now, height)
	k := scrolledBy(old, cur)
	if k > 0 && hw != nil {
		if top, bot, ok := scrollRun(old, cur, k); ok && hw.scrollUp(buf.Bounds(), top, bot, k) {
			scrolled = true
			rotateUp(buf.Lines[top:bot+1], k)
			copy(old[top:], old[top+k:bot+1])
			for y := bot - k + 1; y <= bot; y++ {
				old[y] = vacated
			}
		}
	}
	for y := range height {
		if old[y] == cur[y] {
			continue
		}
		n++
		// Rows are drawn top down, so row y+k still holds old[y+k].
		if !scrolled && k > 0 && y+k < height && old[y+k] == cur[y] {
			copy(buf.Lines[y], buf.Lines[y+k])
			buf.TouchLine(0, y, width)
			continue
		}
		uv.NewStyledString(cur[y]).Draw(buf, uv.Rect(0, y, width, 1))
		if old[y] == vacated && !hw.paintRow(buf, y, cur[y]) {
			// Blank on the terminal whatever buf held. The parse touched
			// every cell it cleared or set, which leaves out only cells
			// blank before and after: touch the row whole all the same.
			buf.TouchLine(0, y, width)
		}
	}
	return n, scrolled
}

// vacated stands for a row the terminal's scroll left blank; no row of a
// view is equal to it.
const vacated = "\n"

// viewRows splits a view into height rows, blank past its end.
func viewRows(s string, height int) []string {
	rows := make([]string, height)
	for y := range rows {
		rows[y], s, _ = strings.Cut(s, "\n")
	}
	return rows
}

// scrolledBy is how many rows up the screen moved from old to cur: the
// first changed row of cur that is not blank, found further down in old;
// 0 when it is not there.
func scrolledBy(old, cur []string) int {
	for y := range cur {
		if old[y] == cur[y] || cur[y] == "" {
			continue
		}
		for j := y + 1; j < len(old); j++ {
			if old[j] == cur[y] {
				return j - y
			}
		}
		return 0
	}
	return 0
}

// allSelfContained reports whether every row of s is self-contained.
func allSelfContained(s string) bool {
	for row := range strings.SplitSeq(s, "\n") {
		if !selfContained(row) {
			return false
		}
	}
	return true
}

// selfContained reports whether row parses into the same cells on its own
// as it does within the whole view: it is valid UTF-8 without carriage
// returns, its only escape sequences are complete SGR ones (no hyperlink,
// nothing passed through), the last of them resets the style, and it does
// not begin with a zero-width character (which the whole parse folds into
// the row above). Then the parse of each row starts and ends with no style.
func selfContained(row string) bool {
	if !utf8.ValidString(row) || strings.IndexByte(row, '\r') >= 0 {
		return false
	}
	first, reset := true, true
	for i := 0; i < len(row); {
		c := row[i]
		if c != ansi.ESC {
			if first {
				if r, _ := utf8.DecodeRuneInString(row[i:]); r >= utf8.RuneSelf && ansi.StringWidth(string(r)) == 0 {
					return false
				}
				first = false
			}
			i++
			continue
		}
		// ESC [ params m
		j := i + 1
		if j >= len(row) || row[j] != '[' {
			return false
		}
		j++
		start := j
		for j < len(row) && (row[j] >= '0' && row[j] <= '9' || row[j] == ';' || row[j] == ':') {
			j++
		}
		if j >= len(row) || row[j] != 'm' {
			return false
		}
		params := row[start:j]
		reset = params == "" || params == "0"
		i = j + 1
	}
	return reset
}

// rendererState is what the screen writer reaches, found once.
type rendererState struct {
	parts rendererParts
	rows  rowParts
	fast  bool // rows were found: drawRows can run
	out   bytes.Buffer
	// clean is the last view drawRows drew, whose rows are self-contained.
	clean string
	// byRows counts the frames drawRows wrote, scrolls those of them the
	// terminal scrolled, painted the rows hardScroll wrote as they are
	// (tests read them).
	byRows, scrolls, painted int
	// term is where ultraviolet's renderer keeps what hardScroll uses;
	// termOK says it was found.
	term   termLayout
	termOK bool
}

// lockedDraw hands v to the renderer and draws it by rows when it can;
// it reports whether the frame is written.
func (w *screenWriter) lockedDraw(v tea.View, mu *sync.Mutex) bool {
	mu.Lock()
	defer mu.Unlock()
	*w.parts.view = v
	return w.fast && w.drawRows(&v)
}
