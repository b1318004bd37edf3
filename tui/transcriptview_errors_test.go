package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tools"
)

// TestFailedCardShowsItsErrorOnce opens a failed tool card, expanded in the
// conversation and in full in the transcript view: its error is drawn once,
// in the error colour, not also as the card's output.
func TestFailedCardShowsItsErrorOnce(t *testing.T) {
	t.Parallel()
	const errText = `invalid pattern "TODO(": missing closing )`
	tests := []struct {
		name string
		key  tea.KeyPressMsg
	}{
		{"transcript view", keyCtrlT},
		{"expanded card", keyCtrlO},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m, _ := newTestModel(t, Options{})
			step(m, tea.WindowSizeMsg{Width: 80, Height: 40})
			typeText(m, "find the todos")
			press(m, keyEnter)
			evs := append([]agent.Event{{Kind: agent.EventTurnStarted}}, callEvents("g", "grep", `{"pattern":"TODO(","path":"internal"}`,
				agent.Event{Kind: agent.EventToolRunning},
				agent.Event{Kind: agent.EventToolFinished, Result: &agent.ToolResult{Status: tools.StatusError, Output: errText + "\nescape it as TODO\\(", Summary: "bad pattern", Duration: 2 * time.Millisecond}})...)
			events(m, append(evs, agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})...)
			press(m, tt.key)
			s := screen(m)
			for _, want := range []string{errText, `escape it as TODO\(`} {
				if n := strings.Count(s, want); n != 1 {
					t.Errorf("%q is drawn %d times:\n%s", want, n, s)
				}
			}
		})
	}
}
