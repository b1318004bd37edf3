package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/ternhq/tern/agent"
)

// startStream starts a turn and waits until the subscription the start
// armed has taken an event, so that no waiter left over from it takes the
// events a test pushes later.
func startStream(t *testing.T, m *model, fb *fakeBackend) {
	t.Helper()
	// The subscription the turn's start arms takes the next event, and is
	// waited for here until it has returned: one left running could take
	// the test's later events as it drains what else is buffered.
	_, cmd := m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTurnStarted, Turn: 1, Text: "hi"}}})
	fb.ch <- agent.Event{Kind: agent.EventUsage, Turn: 1}
	for _, out := range collectWait(cmd, 5*time.Second) {
		if _, ok := out.(eventsMsg); ok {
			return
		}
	}
	t.Fatal("the subscription armed by the turn start never took an event")
}

func TestStreamedTextWaitsForTheFrame(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	startStream(t, m, fb)
	m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTextDelta, Turn: 1, Text: "Hello"}}})
	m.Update(frameMsg{id: m.frameID})
	_, cmd := m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTextDelta, Turn: 1, Text: ", world"}}})
	if cmd == nil {
		t.Fatal("streamed text must leave a subscription waiting for the next events")
	}
	if strings.Contains(ansi.Strip(m.View().Content), "Hello, world") {
		t.Error("streamed text was drawn before the frame")
	}
	m.Update(frameMsg{id: m.frameID})
	if !strings.Contains(ansi.Strip(m.View().Content), "Hello, world") {
		t.Error("the frame did not draw the streamed text")
	}
}

func TestEndOfAnswerIsTakenAtOnce(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	startStream(t, m, fb)
	m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTextDelta, Turn: 1, Text: "Hello"}}})
	_, cmd := m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTextDelta, Turn: 1, Text: ", world"}}})
	// With a frame armed, the end of the turn is taken by the subscription
	// that streamed text left, not held until the frame.
	fb.ch <- agent.Event{Kind: agent.EventTurnFinished, Turn: 1, Finish: &agent.Finish{Reason: agent.FinishDone}}
	var end *eventsMsg
	for _, out := range collectWait(cmd, 5*time.Second) {
		if ev, ok := out.(eventsMsg); ok {
			end = &ev
		}
	}
	if end == nil || len(end.events) != 1 || end.events[0].Kind != agent.EventTurnFinished {
		t.Fatalf("the subscription after streamed text took %v, want the end of the turn", end)
	}
	m.Update(*end)
	if m.busy {
		t.Error("the turn still runs after its end")
	}
	if !strings.Contains(ansi.Strip(m.View().Content), "Hello, world") {
		t.Errorf("the finished answer is not on the screen before the next frame:\n%s", m.View().Content)
	}
}

func TestDrawingForAnotherEventShowsStreamedText(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	startStream(t, m, fb)
	m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTextDelta, Turn: 1, Text: "Hello"}}})
	m.Update(frameMsg{id: m.frameID})
	// The stream ends: its usage comes before the end of the turn, which
	// the session log syncs first. Drawn now, the screen has all the text.
	m.Update(eventsMsg{events: []agent.Event{
		{Kind: agent.EventTextDelta, Turn: 1, Text: ", world"},
		{Kind: agent.EventUsage, Turn: 1},
	}})
	if !strings.Contains(ansi.Strip(m.View().Content), "Hello, world") {
		t.Errorf("a screen drawn for the usage lacks the text streamed before it:\n%s", m.View().Content)
	}
}
