package tui

import (
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/agent"
)

// TestClearRunsInACommand covers /clear resetting off the Update loop: the
// Update that takes /clear returns before the backend's Reset is called,
// the screen keeps answering while Reset blocks (a message typed meanwhile
// waits in the queue), and the transcript empties once Reset returns.
func TestClearRunsInACommand(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	fb.resetCalled, fb.resetGate = make(chan struct{}, 1), make(chan struct{})
	typeText(m, "hello")
	press(m, keyEnter)
	events(m, agent.Event{Kind: agent.EventTurnStarted}, agent.Event{Kind: agent.EventTextDelta, Text: "answer"},
		agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
	typeText(m, "/clear")
	updated := make(chan tea.Cmd, 1)
	go func() {
		_, cmd := m.Update(keyEnter)
		updated <- cmd
	}()
	var cmd tea.Cmd
	select {
	case cmd = <-updated:
	case <-fb.resetCalled:
		close(fb.resetGate)
		<-updated
		t.Fatal("Reset ran inside Update")
	}
	select {
	case <-fb.resetCalled:
		t.Fatal("Reset ran inside Update")
	default:
	}
	if cmd == nil {
		t.Fatal("/clear returned no command")
	}
	msgs := make(chan []any, 1)
	go func() {
		var out []any
		for _, msg := range collectWait(cmd, 5*time.Second) {
			out = append(out, msg)
		}
		msgs <- out
	}()
	select {
	case <-fb.resetCalled:
	case <-time.After(5 * time.Second):
		t.Fatal("the command never called Reset")
	}
	typeText(m, "next")
	press(m, keyEnter)
	if got := fb.sent(); len(got) != 1 {
		t.Fatalf("a message went to the agent while it was being reset: %q", got)
	}
	if s := screen(m); !strings.Contains(s, "answer") {
		t.Fatalf("the transcript was cleared before Reset returned:\n%s", s)
	}
	close(fb.resetGate)
	for _, msg := range <-msgs {
		step(m, msg)
	}
	if fb.resetCount() != 1 || m.notice != "new conversation" || m.noticeBad {
		t.Fatalf("resets %d, notice %q (bad %v)", fb.resetCount(), m.notice, m.noticeBad)
	}
	if s := screen(m); strings.Contains(s, "hello") || strings.Contains(s, "answer") {
		t.Fatalf("transcript not cleared:\n%s", s)
	}
	if got := fb.sent(); len(got) != 2 || got[1] != "next" {
		t.Fatalf("the message typed during the reset was not sent after it: %q", got)
	}
}

// TestClearFailureIsANotice covers a reset whose new session log could not
// be started: the error is a notice on the screen and nothing reaches
// stderr, which would be written over the full-screen display. It swaps
// os.Stderr, so it does not run in parallel.
func TestClearFailureIsANotice(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := os.Stderr
	os.Stderr = w
	defer func() { os.Stderr = stderr }()
	m, fb := newTestModel(t, Options{})
	fb.resetErr = errors.New("start a new session log: disk full; still writing to /home/u/.tern/sessions/old.jsonl")
	typeText(m, "/clear")
	press(m, keyEnter)
	os.Stderr = stderr
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	written, _ := io.ReadAll(r)
	if len(written) > 0 {
		t.Errorf("stderr got %q", written)
	}
	if fb.resetCount() != 1 || !m.noticeBad || !strings.Contains(m.notice, "disk full; still writing to") {
		t.Fatalf("resets %d, notice %q (bad %v)", fb.resetCount(), m.notice, m.noticeBad)
	}
	if s := screen(m); !strings.Contains(s, "disk full") {
		t.Fatalf("the error is not on the screen:\n%s", s)
	}
}

// TestClearRefusedWhileBusy covers a Reset the agent refused: nothing is
// cleared and the notice says why.
func TestClearRefusedWhileBusy(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	fb.resetErr = agent.ErrBusy
	typeText(m, "hello")
	press(m, keyEnter)
	events(m, agent.Event{Kind: agent.EventTurnStarted}, agent.Event{Kind: agent.EventTextDelta, Text: "answer"},
		agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
	typeText(m, "/clear")
	press(m, keyEnter)
	if !m.noticeBad || !strings.HasPrefix(m.notice, "clear: ") || m.busy {
		t.Fatalf("notice %q (bad %v), busy %v", m.notice, m.noticeBad, m.busy)
	}
	if s := screen(m); !strings.Contains(s, "answer") {
		t.Fatalf("the transcript was cleared although Reset refused:\n%s", s)
	}
}
