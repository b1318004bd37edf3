package tui

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ternhq/tern/agent"
)

// TestRecordingFailureCardAndUnrecorded checks the interactive side of a
// failed session log: the failed turn shows a card that says recording
// failed and why and offers /unrecorded, which hands the choice to the
// backend once, and says so.
func TestRecordingFailureCardAndUnrecorded(t *testing.T) {
	t.Parallel()
	failed := true
	chose := 0
	m, _ := newTestModel(t, Options{}, func(f *fakeBackend) {
		f.recorded = true
		f.continueUnrecorded = func() bool {
			chose++
			ok := failed
			failed = false
			return ok
		}
	})
	typeText(m, "hello")
	press(m, keyEnter)
	err := fmt.Errorf("%w: write session x.jsonl: no space left on device; nothing more runs", agent.ErrRecording)
	events(m, agent.Event{Kind: agent.EventTurnStarted},
		agent.Event{Kind: agent.EventTurnFinished, Err: err, Finish: &agent.Finish{Reason: agent.FinishFailed, Err: err}})
	s := screen(m)
	for _, want := range []string{"Recording the session failed", "no space left", "/unrecorded"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	typeText(m, "/unrecorded")
	press(m, keyEnter)
	if chose != 1 || !strings.Contains(m.notice, "without a log") {
		t.Errorf("/unrecorded: %d choices, notice %q", chose, m.notice)
	}
	typeText(m, "/unrecorded")
	press(m, keyEnter)
	if chose != 2 || !strings.Contains(m.notice, "recording goes on") {
		t.Errorf("/unrecorded while recording works: notice %q", m.notice)
	}
}

func TestExplainBounds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		err         error
		title, hint string
	}{
		{fmt.Errorf("%w: disk full", agent.ErrRecording), "Recording the session failed", "/unrecorded"},
		{fmt.Errorf("%w (8 MiB)", agent.ErrAnswerTooLarge), "too large", "max_answer_bytes"},
	} {
		title, _, hint := explain(tc.err)
		if !strings.Contains(title, tc.title) || !strings.Contains(hint, tc.hint) {
			t.Errorf("%v: %q / %q", tc.err, title, hint)
		}
	}
	if title, _, _ := explain(errors.New("other")); title != "Error" {
		t.Errorf("plain error titled %q", title)
	}
}
