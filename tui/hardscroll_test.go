package tui

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// TestTermLayoutFound fails when an ultraviolet upgrade renames or retypes
// the renderer's fields hardScroll reaches; drawRows then copies scrolled
// rows inside Bubble Tea's buffer again, which costs a streamed frame some
// 200 µs more (BenchmarkFrameCost).
func TestTermLayoutFound(t *testing.T) {
	t.Parallel()
	if _, ok := findTermLayout(); !ok {
		t.Fatal("uv.TerminalRenderer no longer has curbuf, oldhash, newhash, clear, termResized and cur.Cell as hardScroll knows them")
	}
}

func TestScrollRun(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name          string
		old, cur      string
		k             int
		top, bot      int
		ok            bool
		wantMovedRows int
	}{
		{name: "one row", old: "a b c d e s", cur: "b c d e f t", k: 1, top: 0, bot: 4, ok: true},
		{name: "two rows", old: "a b c d e s", cur: "c d e f g t", k: 2, top: 0, bot: 4, ok: true},
		{name: "below a header", old: "h a b c d s", cur: "h b c d e t", k: 1, top: 1, bot: 4, ok: true},
		{name: "a hole", old: "a b c d e f g s", cur: "b c x e f g h t", k: 1, top: 3, bot: 6, ok: true},
		{name: "too few", old: "a b c s", cur: "b x y t", k: 1, ok: false},
		{name: "unchanged run", old: "a a a a s", cur: "a a a b t", k: 1, ok: false},
	} {
		old, cur := strings.Fields(c.old), strings.Fields(c.cur)
		top, bot, ok := scrollRun(old, cur, c.k)
		if ok != c.ok || ok && (top != c.top || bot != c.bot) {
			t.Errorf("%s: scrollRun = %d..%d %v, want %d..%d %v", c.name, top, bot, ok, c.top, c.bot, c.ok)
		}
	}
}

// streamLine is the i-th row of a made-up transcript: plain, styled, blank,
// wide characters, a background to the edge, wider than the screen, and a
// bullet, each self-contained.
func streamLine(i, width int) string {
	switch i % 7 {
	case 0:
		return "  line " + strconv.Itoa(i) + ": the quick brown fox jumps over the lazy dog"
	case 1:
		return "    \x1b[38;5;81mfunc\x1b[m \x1b[1mf" + strconv.Itoa(i) + "\x1b[m() {\x1b[3;38;2;200;100;50m // note\x1b[m"
	case 2:
		return ""
	case 3:
		return "  漢字かな " + strconv.Itoa(i) + " 🙂 wide ｗｉｄｅ"
	case 4:
		text := " row " + strconv.Itoa(i) + " on a background"
		return "\x1b[48;5;236m" + text + strings.Repeat(" ", max(width-len(text), 0)) + "\x1b[m"
	case 5:
		return strings.Repeat("long"+strconv.Itoa(i)+" ", width/4)
	default:
		return "  • bullet " + strconv.Itoa(i) + " \x1b[4munderlined\x1b[m end"
	}
}

// streamViews is a made-up session at w x h: an answer streamed frame by
// frame that scrolls the transcript by 0, 1, 2, 5 and many rows, a row
// emptied as it scrolls, the input typed into and grown by a row, the user
// scrolling back up and down again, the status line changing every frame.
func streamViews(w, h int) []tea.View {
	var lines []string
	partial := ""
	input := ""
	inputRows := 1
	back := 0 // rows the user scrolled up
	frame := 0
	var views []tea.View
	shot := func() {
		rows := h - 2 - inputRows
		all := append(append([]string(nil), lines...), partial)
		end := max(len(all)-back, 0)
		start := max(end-rows, 0)
		screen := append([]string(nil), all[start:end]...)
		for len(screen) < rows {
			screen = append(screen, "")
		}
		screen = append(screen, "\x1b[38;5;240m"+strings.Repeat("─", w)+"\x1b[m")
		screen = append(screen, "› "+input)
		for range inputRows - 1 {
			screen = append(screen, "  "+strings.Repeat("more ", frame%5))
		}
		status := fmt.Sprintf(" model · %c answering %ds", []rune("⠋⠙⠹⠸")[frame%4], frame)
		screen = append(screen, status+strings.Repeat(" ", max(w-ansi.StringWidth(status), 0)))
		v := tea.NewView(strings.Join(screen, "\n"))
		v.AltScreen = true
		v.Cursor = tea.NewCursor(min(2+len(input), w-1), h-1-inputRows)
		views = append(views, v)
		frame++
	}
	add := func(n int) {
		for range n {
			lines = append(lines, streamLine(len(lines), w))
		}
	}
	add(h)
	shot()
	for _, step := range []int{0, 1, 1, 2, 0, 1, 5, 2, 1, h + 3, 1, h - 4, 2, 1, 1} {
		partial += "more text "
		if len(partial) > w/2 {
			partial = "again "
		}
		add(step)
		shot()
	}
	// A row emptied as the transcript scrolls (a block re-rendered).
	lines[len(lines)-4] = ""
	add(1)
	shot()
	lines[len(lines)-10] = "\x1b[31mrestyled\x1b[m"
	add(2)
	shot()
	// A new row the same as the one scrolling off the top, where the
	// scroll's blank row lands on the cells Bubble Tea's buffer had there.
	for range 2 {
		rows := h - 3
		lines = append(lines, lines[len(lines)-rows+1])
		shot()
	}
	// Typing, then the input grows by a row while the answer streams.
	for _, r := range "hello" {
		input += string(r)
		shot()
		add(1)
		shot()
	}
	inputRows = 2
	add(1)
	shot()
	add(1)
	shot()
	inputRows = 1
	input = ""
	shot()
	// The user scrolls back up, the answer streams below, and back down.
	for _, b := range []int{3, 6, 6, 9, 3, 0} {
		back = b
		shot()
		add(1)
		shot()
	}
	for range 5 {
		add(2)
		shot()
	}
	return views
}

// runViews writes views through a program's screen writer, by rows or with
// Bubble Tea's flush, and returns what reached the terminal, where each
// frame ended in it, and how many frames were drawn by rows and scrolled.
func runViews(t *testing.T, w, h int, views []tea.View, profile colorprofile.Profile, byRows bool) (out string, ends []int, rows, scrolls, painted int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	var buf lockedBuffer
	var p *tea.Program
	sw := &screenWriter{p: &p}
	m := viewsModel{w: sw, views: views, byRows: byRows, wrote: &rows, out: &buf, ends: &ends}
	p = tea.NewProgram(m, tea.WithContext(ctx), tea.WithOutput(&buf), tea.WithInput(nil),
		tea.WithWindowSize(w, h), tea.WithFPS(1), tea.WithColorProfile(profile))
	if _, err := p.Run(); err != nil {
		t.Fatal(err)
	}
	return buf.buf.String(), ends, rows, sw.scrolls, sw.painted
}

// compareScreens replays both outputs on a terminal model frame by frame
// and fails at the first frame whose screens differ in any cell, or whose
// text is not the view's, or whose cursor is not where the view put it.
func compareScreens(t *testing.T, w, h int, views []tea.View, rows, whole string, rowEnds, wholeEnds []int) {
	t.Helper()
	if len(rowEnds) != len(views) || len(wholeEnds) != len(views) {
		t.Fatalf("%d views, %d and %d frames written", len(views), len(rowEnds), len(wholeEnds))
	}
	// Bubble Tea has its renderer assume the tty maps a line feed to CR LF
	// when its input is not a terminal.
	a, b := newVTScreen(w, h, true), newVTScreen(w, h, true)
	ra, rb := 0, 0
	for i, v := range views {
		_, _ = a.Write([]byte(rows[ra:rowEnds[i]]))
		_, _ = b.Write([]byte(whole[rb:wholeEnds[i]]))
		ra, rb = rowEnds[i], wholeEnds[i]
		want := uv.NewScreenBuffer(w, h)
		uv.NewStyledString(v.Content).Draw(want, want.Bounds())
		if d := a.diff(b.buffer()); d != "" {
			t.Fatalf("frame %d: the screen drawn by rows differs from the flush's at %s\nby rows:\n%s\nflush:\n%s", i, d, a, b)
		}
		for y := range h {
			if got, exp := rowText(a.cells[y]), rowText(want.Line(y)); got != exp {
				t.Fatalf("frame %d row %d: the screen is not the view\ngot:  %q\nwant: %q\nscreen:\n%s", i, y, got, exp, a)
			}
		}
		if v.Cursor != nil && (a.x != v.Cursor.X || a.y != v.Cursor.Y) {
			t.Fatalf("frame %d: cursor at %d,%d, want %d,%d", i, a.x, a.y, v.Cursor.X, v.Cursor.Y)
		}
	}
	if len(a.unhandled) > 0 || len(b.unhandled) > 0 {
		t.Logf("sequences the terminal model ignored: %v %v", a.unhandled, b.unhandled)
	}
}

// TestHardScrollKeepsTheScreen streams frames through drawRows, with the
// terminal scrolling the rows that only moved, and through Bubble Tea's
// flush, and checks that a terminal shows the same cells after every frame.
func TestHardScrollKeepsTheScreen(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		for _, c := range []struct {
			src     string
			profile colorprofile.Profile
		}{
			// Colours as a true-colour terminal, tmux (256) and a 16-colour
			// one get them: rows with colours ultraviolet converts are not
			// written as they are.
			{"made-up", colorprofile.TrueColor},
			{"made-up", colorprofile.ANSI256},
			{"made-up", colorprofile.ANSI},
			{"model", colorprofile.ANSI256},
			{"model", colorprofile.TrueColor},
		} {
			t.Run(fmt.Sprintf("%dx%d/%s/%s", size[0], size[1], c.src, c.profile), func(t *testing.T) {
				t.Parallel()
				w, h := size[0], size[1]
				var views []tea.View
				if c.src == "model" {
					for i, s := range frameScreens(t, w, h) {
						v := tea.NewView(s)
						v.AltScreen = true
						v.Cursor = tea.NewCursor(2+i%5, h-4)
						views = append(views, v)
					}
				} else {
					views = streamViews(w, h)
				}
				rows, rowEnds, n, scrolls, painted := runViews(t, w, h, views, c.profile, true)
				whole, wholeEnds, _, _, _ := runViews(t, w, h, views, c.profile, false)
				t.Logf("%d of %d frames by rows, %d scrolled by the terminal, %d rows written as they are; %d bytes by rows, %d by the flush",
					n, len(views), scrolls, painted, len(rows), len(whole))
				if n < len(views)*9/10 {
					t.Errorf("only %d of %d frames drawn by rows", n, len(views))
				}
				if scrolls < len(views)/4 {
					t.Errorf("only %d of %d frames scrolled by the terminal", scrolls, len(views))
				}
				if (c.profile == colorprofile.ANSI) != (painted == 0) {
					t.Errorf("%d rows written as they are for a %s terminal", painted, c.profile)
				}
				compareScreens(t, w, h, views, rows, whole, rowEnds, wholeEnds)
			})
		}
	}
}

// buffer is the screen as a cell buffer.
func (s *vtScreen) buffer() *uv.Buffer {
	b := uv.NewBuffer(s.w, s.h)
	for y := range s.h {
		copy(b.Lines[y], s.cells[y])
	}
	return b
}

// rowText is a row's text without its trailing blanks, whatever their style.
func rowText(cells []uv.Cell) string {
	var b strings.Builder
	for _, c := range cells {
		b.WriteString(c.Content)
	}
	return strings.TrimRight(b.String(), " ")
}
