package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tools/hooks"
)

// TestHookRuns: a hook that went on is shown only in the transcript view
// (event, command, exit, time); one that failed warns in the conversation.
func TestHookRuns(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	typeText(m, "format")
	press(m, keyEnter)
	ok := hooks.Run{Hook: hooks.Hook{Event: hooks.AfterTool, Command: "gofmt -l ."}, Event: hooks.AfterTool, Tool: "edit_file", Exit: 0, Duration: 12 * time.Millisecond}
	bad := hooks.Run{Hook: hooks.Hook{Event: hooks.TurnEnd, Command: "./notify.sh", Source: "/h/config.toml", Line: 4}, Event: hooks.TurnEnd, Exit: 3, Stderr: "no display", Duration: time.Second}
	events(m,
		agent.Event{Kind: agent.EventTurnStarted, Turn: 1, Text: "format"},
		agent.Event{Kind: agent.EventHook, Hook: &ok},
		agent.Event{Kind: agent.EventTextDelta, Text: "Formatted."},
		agent.Event{Kind: agent.EventHook, Hook: &bad},
		agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}},
	)
	frame(m)
	s := screen(m)
	if strings.Contains(s, "gofmt -l .") {
		t.Errorf("a hook that went on shows in the conversation:\n%s", s)
	}
	if !strings.Contains(s, "⚠ hook ./notify.sh (turn_end, /h/config.toml:4) exited with 3: no display") {
		t.Errorf("no warning for the failed hook:\n%s", s)
	}
	press(m, keyCtrlT)
	s = screen(m)
	for _, want := range []string{"⚙ hook after_tool edit_file · gofmt -l . · exit 0 · 12ms", "⚙ hook turn_end · ./notify.sh · exit 3 · 1s", "stderr: no display"} {
		if !strings.Contains(s, want) {
			t.Errorf("transcript view lacks %q:\n%s", want, s)
		}
	}
}
