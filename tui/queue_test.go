package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/ternhq/tern/agent"
)

// queueTwo starts a turn and queues two more messages behind it.
func queueTwo(t *testing.T) (*model, *fakeBackend) {
	t.Helper()
	m, fb := newTestModel(t, Options{})
	typedClock(m, 100*time.Millisecond)
	typeText(m, "first")
	press(m, keyEnter)
	startTurn(m)
	typeText(m, "second")
	press(m, keyEnter)
	typeText(m, "third")
	press(m, keyEnter)
	return m, fb
}

var cancelled = agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishCancelled}}

func TestInterruptPausesQueue(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		interrupt []tea.KeyPressMsg
		then      []tea.KeyPressMsg
		typed     string   // typed before then
		sent      []string // submitted in all, in order
		queued    []string // left in the queue
		input     string
		paused    bool
	}{
		{"esc, then nothing", []tea.KeyPressMsg{keyEsc}, nil, "",
			[]string{"first"}, []string{"second", "third"}, "", true},
		{"ctrl+c, then nothing", []tea.KeyPressMsg{keyCtrlC}, nil, "",
			[]string{"first"}, []string{"second", "third"}, "", true},
		{"esc, then enter sends the queue in order", []tea.KeyPressMsg{keyEsc}, []tea.KeyPressMsg{keyEnter}, "",
			[]string{"first", "second"}, []string{"third"}, "", false},
		{"esc, then ↑ takes the last one back to edit", []tea.KeyPressMsg{keyEsc}, []tea.KeyPressMsg{keyUp}, "",
			[]string{"first"}, []string{"second"}, "third", true},
		{"esc, then a new message goes behind the queue", []tea.KeyPressMsg{keyEsc}, []tea.KeyPressMsg{keyEnter}, "fourth",
			[]string{"first", "second"}, []string{"third", "fourth"}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m, fb := queueTwo(t)
			for _, k := range tt.interrupt {
				press(m, k)
			}
			events(m, cancelled)
			typeText(m, tt.typed)
			for _, k := range tt.then {
				press(m, k)
			}
			if got := fb.sent(); strings.Join(got, "|") != strings.Join(tt.sent, "|") {
				t.Errorf("sent %q, want %q", got, tt.sent)
			}
			if strings.Join(m.queued, "|") != strings.Join(tt.queued, "|") {
				t.Errorf("queue %q, want %q", m.queued, tt.queued)
			}
			if m.input.Value() != tt.input {
				t.Errorf("input %q, want %q", m.input.Value(), tt.input)
			}
			shown := strings.Contains(screen(m), "paused: enter sends, ↑ edits")
			if shown != tt.paused {
				t.Errorf("paused line shown %v, want %v:\n%s", shown, tt.paused, screen(m))
			}
		})
	}
}

func TestQueueUnpausedWhenEmptied(t *testing.T) {
	t.Parallel()
	m, fb := queueTwo(t)
	press(m, keyEsc)
	events(m, cancelled)
	press(m, keyUp) // third
	m.input.Reset()
	press(m, keyUp) // second
	if len(m.queued) != 0 || m.queuePaused() || strings.Contains(screen(m), "paused") {
		t.Fatalf("queue %q paused %v", m.queued, m.paused)
	}
	press(m, keyEnter)
	if got := fb.sent(); len(got) != 2 || got[1] != "second" {
		t.Fatalf("sent %q", got)
	}
	events(m, agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
	typeText(m, "later")
	press(m, keyEnter)
	if got := fb.sent(); len(got) != 3 {
		t.Fatalf("a later message was held back: %q", got)
	}
}

func TestPauseEndsWithTheNextTurn(t *testing.T) {
	t.Parallel()
	m, fb := queueTwo(t)
	press(m, keyEsc)
	events(m, cancelled)
	typeText(m, "/clear")
	press(m, keyEnter) // drops the paused queue
	typeText(m, "fresh")
	press(m, keyEnter)
	startTurn(m)
	typeText(m, "follow-up")
	press(m, keyEnter)
	events(m, agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
	if got := fb.sent(); strings.Join(got, "|") != "first|fresh|follow-up" {
		t.Fatalf("sent %q: a message queued after the paused queue was dropped is held back", got)
	}
}

func TestGoldenQueuePaused(t *testing.T) {
	t.Parallel()
	goldenRun(t, 80, 20, Options{}, func(tm *teatest.TestModel, fb *fakeBackend) {
		fb.finishOnCancel = true
		tm.Type("write a poem")
		tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
		waitFor(t, tm, "working")
		fb.ch <- agent.Event{Kind: agent.EventTextDelta, Text: "Roses are red,\nviolets are"}
		waitFor(t, tm, "violets")
		tm.Type("make it rhyme")
		tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
		waitFor(t, tm, "queued: make it rhyme")
		tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
		waitFor(t, tm, "interrupted")
		waitFor(t, tm, "paused")
	})
}
