package tui

import (
	"reflect"
	"sync"
	"time"
	"unsafe"

	tea "charm.land/bubbletea/v2"
)

// Bubble Tea writes frames to the terminal only on its own 60 Hz ticker, so
// a keystroke waited up to 16.7 ms (8-9 ms on average) after its View was
// ready: measured 14.8 ms against the terminal's 6.0 ms floor. Bubble Tea
// has no API to write a frame now, so tern reaches its renderer: the view
// the renderer holds, the lock that guards it, and the flush the ticker
// calls. After an Update that changed what the user typed or something
// else to be seen at once, the View that follows hands its view to the
// renderer and writes it, there and then, on the event loop. (It used to
// ask for the write with a command, whose message came back through the
// loop: a goroutine and two wake-ups more per frame.) Streamed text stays
// on tern's frame clock.
//
// How it stays safe: the view is set under the renderer's lock, and the
// flush takes it as the ticker does; Bubble Tea then hands the renderer the
// same view, and the ticker finds nothing new. The event loop takes no
// message while a View runs, and Bubble Tea stops its renderer only from
// that loop (quitting, suspending, running a program), so no frame is
// written while the terminal is not Bubble Tea's. If Bubble Tea's insides
// change (another renderer type, a renamed field), the writer finds no
// renderer and frames simply wait for the ticker again;
// TestScreenWriterFindsRenderer fails so that an upgrade notices.

//go:linkname rendererFlush charm.land/bubbletea/v2.(*cursedRenderer).flush
func rendererFlush(r unsafe.Pointer, closing bool) error

// Bubble Tea's ticker also writes the sequences its event loop queued
// (terminal queries, clipboard writes, raw sequences): the writer writes
// them first, as the ticker does, so that with every view written at once
// nothing waits for the ticker, which can then run slowly (tickerFPS).
//
//go:linkname programFlush charm.land/bubbletea/v2.(*Program).flush
func programFlush(p *tea.Program) error

// tickerFPS is the rate of Bubble Tea's own ticker. It only writes what
// the writer did not: a view when the renderer was not found. Each tick
// wakes the process, and at Bubble Tea's default 60 a second the ticks
// were most of what an idle interface cost (0.014 CPU s a second against
// 0.004 at 10, measured over 10 s in tmux) and a sixth of a slow stream's.
const tickerFPS = 10

// cursedRenderer is the type name of Bubble Tea's terminal renderer.
const cursedRenderer = "*tea.cursedRenderer"

// rendererParts is what tern reaches in Bubble Tea's terminal renderer.
type rendererParts struct {
	r    unsafe.Pointer // the *cursedRenderer
	mu   *sync.Mutex    // its lock
	view *tea.View      // the view its next flush draws
}

// programRenderer finds p's terminal renderer and the fields tern uses; ok
// is false when p has none (WithoutRenderer, tests) or Bubble Tea's layout
// is not the one known; rowsOK is false when the fields drawRows needs are
// not all there.
func programRenderer(p *tea.Program) (parts rendererParts, rows rowParts, rowsOK, ok bool) {
	if p == nil {
		return parts, rows, false, false
	}
	v := reflect.ValueOf(p).Elem().FieldByName("renderer")
	if !v.IsValid() || v.Kind() != reflect.Interface || v.IsNil() || v.Elem().Type().String() != cursedRenderer {
		return parts, rows, false, false
	}
	r := v.Elem().UnsafePointer()
	st := v.Elem().Type().Elem()
	mu, okMu := field[sync.Mutex](st, r, "mu")
	view, okView := field[tea.View](st, r, "view")
	if !okMu || !okView {
		return parts, rows, false, false
	}
	rows, rowsOK = findRowParts(st, r)
	return rendererParts{r: r, mu: mu, view: view}, rows, rowsOK, true
}

// screenWriter writes a view to the terminal at once through the program's
// renderer, found when the first view is written.
type screenWriter struct {
	p **tea.Program
	rendererState
	found  bool
	looked bool
	// pending asks the next View to be written at once; frame says it
	// follows one of tern's frames, whose cost the model counts.
	pending, frame bool
}

// write hands v to the renderer, as Bubble Tea does after View, and writes
// it: by rows when it can (drawRows), else as the ticker would.
func (w *screenWriter) write(v tea.View) {
	if !w.looked {
		w.parts, w.rows, w.fast, w.found = programRenderer(*w.p)
		w.term, w.termOK = findTermLayout()
		w.looked = true
	}
	if *w.p != nil {
		_ = programFlush(*w.p) // as the ticker: a failed write is tried again on the next
	}
	if !w.found || w.lockedDraw(v, w.parts.mu) {
		return
	}
	_ = rendererFlush(w.parts.r, false) // as the ticker: a failed write shows on the next frame
}

// inputFlusher wraps the interface's model for Run: the View after every
// Update is written at once (a key, a paste, the pickers' rows, one of
// tern's own frames, which are paced already (see frameDelay), a card,
// the end of a turn, a resize, a notice, Bubble Tea's own messages),
// except after events that only add streamed text, which wait for tern's
// next frame. A View that changed nothing writes nothing. (The model
// itself returns its own commands untouched, which its tests run.)
type inputFlusher struct {
	*model
	w *screenWriter
}

// Update runs the model's Update and notes whether its frame should be
// seen now.
func (f inputFlusher) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := f.model.Update(msg)
	switch msg := msg.(type) {
	case frameMsg:
		f.w.pending, f.w.frame = true, true
	case eventsMsg:
		if !onlyStreamed(msg.events) {
			f.w.pending = true
		}
	default:
		f.w.pending = true
	}
	return f, cmd
}

// View composes the screen and, when the last Update asked for it, writes
// it to the terminal at once; for a frame it tells the model what that took.
func (f inputFlusher) View() tea.View {
	var start time.Time
	if f.w.frame {
		start = time.Now()
	}
	v := f.model.View()
	if f.w.pending {
		f.w.pending = false
		f.w.write(v)
	}
	if f.w.frame {
		f.w.frame = false
		f.drawCost = time.Since(start)
	}
	return v
}
