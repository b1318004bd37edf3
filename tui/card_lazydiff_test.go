package tui

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tools"
)

// TestEditCardMakesItsDiffWhenDrawn guards resuming a long session: an edit
// card replayed makes no diff until it is drawn, and then shows it.
func TestEditCardMakesItsDiffWhenDrawn(t *testing.T) {
	t.Parallel()
	for _, name := range []string{tools.EditFileName, tools.WriteFileName} {
		c := &toolCard{id: "e", name: name, state: cardRunning}
		c.setArgs(json.RawMessage(`{"path":"x.go","old_string":"a\n","new_string":"b\n","content":"b\n"}`))
		c.finish(&agent.ToolResult{Status: tools.StatusOK, Output: "done", Duration: time.Millisecond})
		if c.diff != "" || !c.diffPending {
			t.Fatalf("%s: the diff was made before the card was drawn: %q", name, c.diff)
		}
		got := stripAll(c.render(testRC(80)))
		if !strings.Contains(got, "+ b") {
			t.Errorf("%s: the drawn card shows no diff:\n%s", name, got)
		}
	}
}
