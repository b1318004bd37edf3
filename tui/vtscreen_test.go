package tui

import (
	"fmt"
	"strings"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// vtScreen is a model of an xterm-like terminal, enough of one to replay
// what Bubble Tea's renderer writes: printing with autowrap and the pending
// wrap, cursor moves, erasing (with the pen's background, as bce), inserting
// and deleting characters and lines, scrolling within top and bottom
// margins, and the pen's style. Tests feed it the renderer's output and
// compare the cells it ends with; sequences it does not know are ignored.
type vtScreen struct {
	w, h      int
	cells     [][]uv.Cell
	x, y      int
	pen       uv.Style
	link      uv.Link
	wrapNext  bool // the cursor is past the last column: the next print wraps
	noWrap    bool // autowrap (DECAWM) is off
	top, bot  int  // the scroll margins, rows inclusive
	last      uv.Cell
	cursorOn  bool
	mapNL     bool // a line feed returns the carriage too (the tty's onlcr)
	state     byte
	parser    *ansi.Parser
	unhandled map[string]int
}

// newVTScreen returns a blank w x h screen; mapNL says whether a line feed
// also returns the carriage, as Bubble Tea assumes when its input is not a
// terminal (as in tests).
func newVTScreen(w, h int, mapNL bool) *vtScreen {
	s := &vtScreen{w: w, h: h, bot: h - 1, cursorOn: true, mapNL: mapNL, parser: ansi.NewParser(), unhandled: map[string]int{}}
	s.parser.SetParamsSize(32)
	s.parser.SetDataSize(4096)
	s.cells = make([][]uv.Cell, h)
	for y := range s.cells {
		s.cells[y] = uv.NewLine(w)
	}
	return s
}

// blank is an erased cell: a space in the pen's background.
func (s *vtScreen) blank() uv.Cell {
	c := uv.EmptyCell
	c.Style.Bg = s.pen.Bg
	return c
}

// Write replays b.
func (s *vtScreen) Write(b []byte) (int, error) {
	for i := 0; i < len(b); {
		seq, width, n, state := ansi.DecodeSequenceWc(b[i:], s.state, s.parser)
		s.state = state
		i += n
		switch {
		case width > 0:
			s.print(string(seq), width)
		case len(seq) == 0:
		case seq[0] == ansi.ESC && len(seq) > 1 && seq[1] == '[':
			s.csi(ansi.Cmd(s.parser.Command()), s.parser.Params())
		case seq[0] == ansi.ESC && len(seq) > 1 && (seq[1] == ']' || seq[1] == 'P' || seq[1] == '_' || seq[1] == '^' || seq[1] == 'X'):
			// OSC, DCS, APC, PM, SOS: titles, colours, queries, links.
		case seq[0] == ansi.ESC && len(seq) == 2:
			s.esc(seq[1])
		case len(seq) == 1 && seq[0] < 0x20 || seq[0] == 0x7f:
			s.control(seq[0])
		default:
			// A zero-width mark joins the cell before it.
			if s.x > 0 || s.wrapNext {
				x := s.x
				if !s.wrapNext {
					x--
				}
				for x > 0 && s.cells[s.y][x].Width == 0 {
					x--
				}
				s.cells[s.y][x].Content += string(seq)
			} else {
				s.unhandled[fmt.Sprintf("%q", seq)]++
			}
		}
	}
	return len(b), nil
}

func (s *vtScreen) print(g string, width int) {
	if s.wrapNext && !s.noWrap {
		s.x = 0
		s.lineFeed()
	}
	s.wrapNext = false
	if s.x+width > s.w {
		if s.noWrap {
			s.x = s.w - width
		} else {
			s.x = 0
			s.lineFeed()
		}
	}
	c := uv.Cell{Content: g, Width: width, Style: s.pen, Link: s.link}
	uv.Line(s.cells[s.y]).Set(s.x, &c)
	s.last = c
	s.x += width
	if s.x >= s.w {
		s.x = s.w - 1
		s.wrapNext = !s.noWrap
	}
}

func (s *vtScreen) control(c byte) {
	switch c {
	case '\r':
		s.x, s.wrapNext = 0, false
	case '\n', '\v', '\f':
		s.lineFeed()
		s.wrapNext = false
		if s.mapNL {
			s.x = 0
		}
	case '\b':
		if s.x > 0 {
			s.x--
		}
		s.wrapNext = false
	case '\t':
		s.x = min((s.x/8+1)*8, s.w-1)
		s.wrapNext = false
	default:
	}
}

func (s *vtScreen) esc(c byte) {
	switch c {
	case 'M': // RI
		if s.y == s.top {
			s.scrollDown(1)
		} else if s.y > 0 {
			s.y--
		}
		s.wrapNext = false
	case 'D': // IND
		s.lineFeed()
	case 'E': // NEL
		s.x = 0
		s.lineFeed()
	default:
		s.unhandled[fmt.Sprintf("ESC %c", c)]++
	}
}

// lineFeed moves down a row, scrolling the margins at the bottom one.
func (s *vtScreen) lineFeed() {
	switch {
	case s.y == s.bot:
		s.scrollUp(1)
	case s.y < s.h-1:
		s.y++
	}
}

// scrollUp moves the rows within the margins up n, blank ones coming in.
func (s *vtScreen) scrollUp(n int) { s.deleteLines(s.top, n) }

// scrollDown moves the rows within the margins down n.
func (s *vtScreen) scrollDown(n int) { s.insertLines(s.top, n) }

// deleteLines deletes n rows at y within the margins.
func (s *vtScreen) deleteLines(y, n int) {
	n = min(n, s.bot-y+1)
	copy(s.cells[y:s.bot+1], s.cells[y+n:s.bot+1])
	for i := s.bot - n + 1; i <= s.bot; i++ {
		s.cells[i] = s.blankLine()
	}
}

// insertLines inserts n blank rows at y within the margins.
func (s *vtScreen) insertLines(y, n int) {
	n = min(n, s.bot-y+1)
	copy(s.cells[y+n:s.bot+1], s.cells[y:s.bot+1-n])
	for i := y; i < y+n; i++ {
		s.cells[i] = s.blankLine()
	}
}

func (s *vtScreen) blankLine() []uv.Cell {
	l := make([]uv.Cell, s.w)
	for x := range l {
		l[x] = s.blank()
	}
	return l
}

// erase blanks columns [from,to) of row y.
func (s *vtScreen) erase(y, from, to int) {
	b := s.blank()
	line := uv.Line(s.cells[y])
	for x := max(from, 0); x < min(to, s.w); x++ {
		line.Set(x, &b)
	}
}

func (s *vtScreen) moveTo(x, y int) {
	s.x, s.y, s.wrapNext = max(0, min(x, s.w-1)), max(0, min(y, s.h-1)), false
}

func (s *vtScreen) csi(cmd ansi.Cmd, params ansi.Params) {
	p := func(i, def int) int {
		v, _, _ := params.Param(i, def)
		if v == 0 && def == 1 {
			return 1
		}
		return v
	}
	if cmd.Prefix() == '?' {
		switch cmd.Final() {
		case 'h', 'l':
			for i := range params {
				switch params[i].Param(0) {
				case 7:
					s.noWrap = cmd.Final() == 'l'
				case 25:
					s.cursorOn = cmd.Final() == 'h'
				default:
				}
			}
		default:
		}
		return
	}
	if cmd.Prefix() != 0 || cmd.Intermediate() != 0 {
		return // cursor style, keyboard modes, queries
	}
	switch cmd.Final() {
	case 'm':
		uv.ReadStyle(params, &s.pen)
	case 'A':
		lim := 0
		if s.y >= s.top {
			lim = s.top
		}
		s.moveTo(s.x, max(s.y-p(0, 1), lim))
	case 'B':
		lim := s.h - 1
		if s.y <= s.bot {
			lim = s.bot
		}
		s.moveTo(s.x, min(s.y+p(0, 1), lim))
	case 'C':
		s.moveTo(s.x+p(0, 1), s.y)
	case 'D':
		s.moveTo(s.x-p(0, 1), s.y)
	case 'E':
		s.moveTo(0, s.y+p(0, 1))
	case 'F':
		s.moveTo(0, s.y-p(0, 1))
	case 'G', '`':
		s.moveTo(p(0, 1)-1, s.y)
	case 'd':
		s.moveTo(s.x, p(0, 1)-1)
	case 'H', 'f':
		s.moveTo(p(1, 1)-1, p(0, 1)-1)
	case 'I':
		s.moveTo(min((s.x/8+p(0, 1))*8, s.w-1), s.y)
	case 'Z':
		s.moveTo(max(((s.x+7)/8-p(0, 1))*8, 0), s.y)
	case 'J':
		switch p(0, 0) {
		case 0:
			s.erase(s.y, s.x, s.w)
			for y := s.y + 1; y < s.h; y++ {
				s.erase(y, 0, s.w)
			}
		case 1:
			s.erase(s.y, 0, s.x+1)
			for y := range s.y {
				s.erase(y, 0, s.w)
			}
		default:
			for y := range s.h {
				s.erase(y, 0, s.w)
			}
		}
		s.wrapNext = false
	case 'K':
		switch p(0, 0) {
		case 0:
			s.erase(s.y, s.x, s.w)
		case 1:
			s.erase(s.y, 0, s.x+1)
		default:
			s.erase(s.y, 0, s.w)
		}
		s.wrapNext = false
	case 'X':
		s.erase(s.y, s.x, s.x+p(0, 1))
		s.wrapNext = false
	case 'b':
		for range p(0, 1) {
			s.print(s.last.Content, s.last.Width)
		}
	case '@':
		n := min(p(0, 1), s.w-s.x)
		line := s.cells[s.y]
		copy(line[s.x+n:], line[s.x:s.w-n])
		s.erase(s.y, s.x, s.x+n)
		s.wrapNext = false
	case 'P':
		n := min(p(0, 1), s.w-s.x)
		line := s.cells[s.y]
		copy(line[s.x:], line[s.x+n:])
		s.erase(s.y, s.w-n, s.w)
		s.wrapNext = false
	case 'L':
		if s.y >= s.top && s.y <= s.bot {
			s.insertLines(s.y, p(0, 1))
			s.x, s.wrapNext = 0, false
		}
	case 'M':
		if s.y >= s.top && s.y <= s.bot {
			s.deleteLines(s.y, p(0, 1))
			s.x, s.wrapNext = 0, false
		}
	case 'S':
		s.scrollUp(p(0, 1))
	case 'T':
		s.scrollDown(p(0, 1))
	case 'r':
		top, bot := p(0, 1)-1, p(1, s.h)-1
		if bot > s.h-1 {
			bot = s.h - 1
		}
		if top < bot {
			s.top, s.bot = top, bot
			s.moveTo(0, 0)
		}
	default:
		s.unhandled[fmt.Sprintf("CSI %c", cmd.Final())]++
	}
}

// diff describes the first cell where s differs from want, or is "".
func (s *vtScreen) diff(want *uv.Buffer) string {
	for y := range s.h {
		for x := range s.w {
			got, exp := &s.cells[y][x], want.CellAt(x, y)
			if !got.Equal(exp) {
				return fmt.Sprintf("row %d col %d: got %+v, want %+v\ngot row:  %q\nwant row: %q",
					y, x, *got, *exp, uv.Line(s.cells[y]).Render(), want.Line(y).Render())
			}
		}
	}
	return ""
}

// String is the screen's text, a row a line.
func (s *vtScreen) String() string {
	var b strings.Builder
	for y := range s.h {
		b.WriteString(uv.Line(s.cells[y]).String())
		b.WriteByte('\n')
	}
	return b.String()
}
