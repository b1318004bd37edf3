package tui

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"

	"github.com/ternhq/tern/agent"
)

// screenSim is what Bubble Tea's renderer does with a View at each flush:
// clear its cell buffer, parse the whole content into it, diff it against
// the terminal's model and write the difference.
type screenSim struct {
	cells uv.ScreenBuffer
	scr   *uv.TerminalRenderer
	out   bytes.Buffer
	last  string
	hw    *hardScroll // nil when ultraviolet's fields were not found
}

func newScreenSim(w, h int) *screenSim {
	s := &screenSim{cells: uv.NewScreenBuffer(w, h)}
	s.scr = uv.NewTerminalRenderer(&s.out, []string{"TERM=xterm-256color"})
	s.scr.SetFullscreen(true)
	s.scr.SetRelativeCursor(false)
	s.scr.SetScrollOptim(true)
	s.scr.SetColorProfile(colorprofile.ANSI256) // as under tmux, not the colourless profile of a buffer
	s.scr.Erase()
	if layout, ok := findTermLayout(); ok {
		s.hw = &hardScroll{layout: layout, scr: s.scr}
	}
	return s
}

// flush draws content as the renderer's flush does; it reports the time
// spent drawing (clear and parse), rendering (diff) and the bytes written.
func (s *screenSim) flush(content string) (draw, render time.Duration, n int) {
	if content == s.last {
		return 0, 0, 0
	}
	s.last = content
	start := time.Now()
	s.cells.Clear()
	uv.NewStyledString(content).Draw(s.cells, s.cells.Bounds())
	mid := time.Now()
	s.scr.Render(s.cells.RenderBuffer)
	_ = s.scr.Flush()
	end := time.Now()
	n = s.out.Len()
	s.out.Reset()
	return mid.Sub(start), end.Sub(mid), n
}

// flushRows draws only the rows whose text changed, and has the terminal
// scroll the rows that only moved, as drawRows does.
func (s *screenSim) flushRows(content string) (draw, render time.Duration, n int) {
	if content == s.last {
		return 0, 0, 0
	}
	start := time.Now()
	changed, scrolled := redrawRows(s.cells, s.last, content, s.hw)
	s.last = content
	mid := time.Now()
	s.scr.SetScrollOptim(changed > fewRows && !scrolled)
	s.scr.Render(s.cells.RenderBuffer)
	s.scr.SetScrollOptim(true)
	_ = s.scr.Flush()
	end := time.Now()
	n = s.out.Len()
	s.out.Reset()
	return mid.Sub(start), end.Sub(mid), n
}

// BenchmarkFrameCost streams a long answer at the provider's pace (200
// bytes a batch, a frame after each) and reports what one frame costs by
// phase: the frame's Update, View, the renderer's draw and diff (whole, as
// Bubble Tea's flush, or by rows, as drawRows), the bytes sent to the
// terminal and the rows that changed.
func BenchmarkFrameCost(b *testing.B) {
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		for _, mode := range []string{"whole", "rows"} {
			flush := (*screenSim).flush
			if mode == "rows" {
				flush = (*screenSim).flushRows
			}
			b.Run(fmt.Sprintf("%dx%d/%s", size[0], size[1], mode), func(b *testing.B) {
				answer := longAnswer(20 << 10)
				m := benchModel(b, 0)
				m.resize(size[0], size[1])
				m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTurnStarted, Turn: 1}}})
				sim := newScreenSim(size[0], size[1])
				sim.flush(m.View().Content)
				var upd, view, draw, render time.Duration
				var bytesOut, frames, changedLines int
				pos := 0
				b.ResetTimer()
				for b.Loop() {
					if pos >= len(answer) {
						pos = 0
						m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}}}})
						m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTurnStarted, Turn: 1}}})
					}
					text := answer[pos:min(pos+200, len(answer))]
					pos += 200
					t0 := time.Now()
					m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTextDelta, Text: text}}})
					m.Update(frameMsg{id: m.frameID})
					t1 := time.Now()
					c := m.View().Content
					t2 := time.Now()
					changedLines += linesChanged(sim.last, c)
					d, r, n := flush(sim, c)
					upd += t1.Sub(t0)
					view += t2.Sub(t1)
					draw += d
					render += r
					bytesOut += n
					frames++
				}
				f := float64(frames)
				b.ReportMetric(float64(upd.Microseconds())/f, "us-update")
				b.ReportMetric(float64(view.Microseconds())/f, "us-view")
				b.ReportMetric(float64(draw.Microseconds())/f, "us-draw")
				b.ReportMetric(float64(render.Microseconds())/f, "us-render")
				b.ReportMetric(float64(bytesOut)/f, "B-out")
				b.ReportMetric(float64(changedLines)/f, "lines-changed")
			})
		}
	}
}

// linesChanged counts the rows that differ between two screens.
func linesChanged(a, b string) int {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	n := 0
	for i := range max(len(al), len(bl)) {
		if i >= len(al) || i >= len(bl) || al[i] != bl[i] {
			n++
		}
	}
	return n
}

// BenchmarkKeyFrameCost types into the input under a screen of finished
// answers and reports what writing each keystroke's frame costs, whole (as
// Bubble Tea's flush) or by rows (as drawRows).
func BenchmarkKeyFrameCost(b *testing.B) {
	for _, mode := range []string{"whole", "rows"} {
		flush := (*screenSim).flush
		if mode == "rows" {
			flush = (*screenSim).flushRows
		}
		b.Run(mode, func(b *testing.B) {
			m := benchModel(b, 20)
			sim := newScreenSim(120, 40)
			sim.flush(m.View().Content)
			var draw, render time.Duration
			var bytesOut, frames int
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				if i%50 == 49 {
					m.Update(keyCtrlC)
				} else {
					m.Update(tea.KeyPressMsg{Code: 'a', Text: "a"})
				}
				d, r, n := flush(sim, m.View().Content)
				draw += d
				render += r
				bytesOut += n
				frames++
			}
			f := float64(frames)
			b.ReportMetric(float64(draw.Microseconds())/f, "us-draw")
			b.ReportMetric(float64(render.Microseconds())/f, "us-render")
			b.ReportMetric(float64(bytesOut)/f, "B-out")
		})
	}
}
