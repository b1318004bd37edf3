package tui

import (
	"reflect"
	"unsafe"

	tea "charm.land/bubbletea/v2"
)

// Bubble Tea writes frames to the terminal only on its own 60 Hz ticker, so
// a keystroke waited up to 16.7 ms (8-9 ms on average) after its View was
// ready: measured 14.8 ms against the terminal's 6.0 ms floor. Bubble Tea
// has no API to write a frame now, so tern reaches its renderer's flush,
// the one the ticker calls, and calls it after an Update that changed what
// the user typed. Streamed text stays on the frame clock.
//
// How it stays safe: the flush locks the renderer as the ticker does, and it
// runs from the event loop's filter, when the flushNowMsg that an input's
// Update asked for arrives, i.e. after that Update's View went to the
// renderer (the loop takes no message while it renders). If Bubble Tea's
// insides change (another renderer type, a renamed field), flushNow finds
// no renderer and keystrokes simply wait for the ticker again;
// TestFlushNowFindsRenderer fails so that an upgrade notices.

// flushNowMsg asks for the frame just rendered to be written at once.
type flushNowMsg struct{}

// flushNow is a command asking for an immediate frame.
func flushNow() tea.Msg { return flushNowMsg{} }

//go:linkname rendererFlush charm.land/bubbletea/v2.(*cursedRenderer).flush
func rendererFlush(r unsafe.Pointer, closing bool) error

// cursedRenderer is the type name of Bubble Tea's terminal renderer.
const cursedRenderer = "*tea.cursedRenderer"

// programRenderer returns p's terminal renderer, or nil when p has none
// (WithoutRenderer, tests) or Bubble Tea's layout is not the one known.
func programRenderer(p *tea.Program) unsafe.Pointer {
	if p == nil {
		return nil
	}
	v := reflect.ValueOf(p).Elem().FieldByName("renderer")
	if !v.IsValid() || v.Kind() != reflect.Interface || v.IsNil() || v.Elem().Type().String() != cursedRenderer {
		return nil
	}
	return v.Elem().UnsafePointer()
}

// flushFilter returns a tea.WithFilter function that writes a frame at once
// when a flushNowMsg arrives; *p is read when the first one does.
func flushFilter(p **tea.Program) func(tea.Model, tea.Msg) tea.Msg {
	var r unsafe.Pointer
	looked := false
	return func(_ tea.Model, msg tea.Msg) tea.Msg {
		if _, ok := msg.(flushNowMsg); !ok {
			return msg
		}
		if !looked {
			r, looked = programRenderer(*p), true
		}
		if r != nil {
			_ = rendererFlush(r, false) // as the ticker: a failed write shows on the next frame
		}
		return nil
	}
}

// inputFlusher wraps the interface's model for Run: after an Update for a
// key or a paste, for the file and session pickers' rows (filtered, or
// first listed), for one of tern's own frames (which are paced already,
// see frameDelay) and for events that change more than streamed text (a
// card, the end of a turn), it asks for the frame to be written at once.
// Streamed text alone waits for tern's next frame. (The model itself
// returns its own commands untouched, which its tests run.)
type inputFlusher struct{ *model }

// Update runs the model's Update and asks for a frame now when it should be
// seen now.
func (f inputFlusher) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := f.model.Update(msg)
	switch msg := msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg, frameMsg:
		return f, tea.Batch(cmd, flushNow)
	case filteredMsg, filesMsg, sessionsMsg:
		// The file picker's rows for what was just typed, or its first
		// files, or the session picker's rows: an answer to a key, not to
		// wait for the next tick.
		return f, tea.Batch(cmd, flushNow)
	case eventsMsg:
		if !onlyStreamed(msg.events) {
			return f, tea.Batch(cmd, flushNow)
		}
	}
	return f, cmd
}
