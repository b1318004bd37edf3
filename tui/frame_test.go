package tui

import (
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
)

// startStream starts a turn and waits until the subscription the start
// armed has taken an event, so that no waiter left over from it takes the
// events a test pushes later.
func startStream(t *testing.T, m *model, fb *fakeBackend) {
	t.Helper()
	events(m, agent.Event{Kind: agent.EventTurnStarted, Turn: 1, Text: "hi"})
	fb.ch <- agent.Event{Kind: agent.EventUsage, Turn: 1}
	deadline := time.Now().Add(5 * time.Second)
	for len(fb.ch) > 0 {
		if time.Now().After(deadline) {
			t.Fatal("the subscription armed by the turn start never took an event")
		}
		time.Sleep(time.Millisecond)
	}
}

func TestStreamedTextWaitsForTheFrame(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	startStream(t, m, fb)
	m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTextDelta, Turn: 1, Text: "Hello"}}})
	if !m.deferred {
		t.Fatal("with a frame due, streamed text should leave the next events to the frame")
	}
	// Nothing waits on the channel now (the command Update returned is not
	// run): only the frame can take these.
	fb.ch <- agent.Event{Kind: agent.EventTextDelta, Turn: 1, Text: ", "}
	fb.ch <- agent.Event{Kind: agent.EventTextDelta, Turn: 1, Text: "world"}
	m.Update(frameMsg{id: m.frameID})
	if got := m.answer.text(); got != "Hello, world" {
		t.Errorf("after the frame the answer is %q, want the events that arrived before it", got)
	}
	if len(fb.ch) != 0 || !m.deferred {
		t.Errorf("text kept streaming: the frame should take every event (%d left) and leave the next to the next frame (deferred %v)", len(fb.ch), m.deferred)
	}
	fb.ch <- agent.Event{Kind: agent.EventTextDelta, Turn: 1, Text: "!"}
	fb.ch <- agent.Event{Kind: agent.EventTurnFinished, Turn: 1, Finish: &agent.Finish{Reason: agent.FinishDone}}
	m.Update(frameMsg{id: m.frameID})
	if m.busy || m.deferred {
		t.Errorf("after the turn ended: busy %v, deferred %v; want the subscription waiting again", m.busy, m.deferred)
	}
	if got := m.tr.blocks[len(m.tr.blocks)-1].(*assistantBlock).text(); got != "Hello, world!" {
		t.Errorf("the answer is %q", got)
	}
}

func TestPausedStreamWaitsAgain(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	startStream(t, m, fb)
	m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTextDelta, Turn: 1, Text: "Hello"}}})
	m.Update(frameMsg{id: m.frameID}) // nothing arrived since
	if m.deferred {
		t.Error("a frame that found no events should wait on the channel again")
	}
}

func TestOtherEventsAreNotDeferred(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	startStream(t, m, fb)
	m.Update(eventsMsg{events: []agent.Event{
		{Kind: agent.EventTextDelta, Turn: 1, Text: "Let me look."},
		{Kind: agent.EventToolCallStarted, Turn: 1, Call: &agent.Call{ID: "c1", Name: "read_file"}},
	}})
	if m.deferred {
		t.Error("a batch with more than streamed text must keep waiting on the channel")
	}
}

func TestSlowFramesDoNotHoldEvents(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	startStream(t, m, fb)
	m.frameCost = frameMax // rendering is slow: frames come rarely
	m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTextDelta, Turn: 1, Text: "Hello"}}})
	if m.deferred {
		t.Error("with the next frame further than frameMin away, events must not wait for it")
	}
}
