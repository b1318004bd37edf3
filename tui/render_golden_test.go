package tui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tools"
)

// goSnippet and makeSnippet are indented with tabs, as gofmt and make want.
const (
	goSnippet   = "```go\ntype T struct {\n\tID\tint\n}\n\nfunc main() {\n\tif ok {\n\t\tfmt.Println(\"hi\")\n\t}\n}\n```\n"
	makeSnippet = "```make\nbuild:\n\tgo build -o /tmp/tern ./cmd/tern\n\ntest: build\n\tgo test ./...\n```\n"
)

// failedCommand is a run_shell call that writes to both streams and fails.
var failedCommand = callEvents("t", "run_shell", `{"command":"make check"}`,
	agent.Event{Kind: agent.EventToolRunning},
	agent.Event{Kind: agent.EventToolOutput, Text: "checking…\n"},
	agent.Event{Kind: agent.EventToolOutput, Text: "vet: ok\nmake: *** [check] ", Stderr: true},
	agent.Event{Kind: agent.EventToolOutput, Text: "still stdout\n"},
	agent.Event{Kind: agent.EventToolOutput, Text: "Error 3\n", Stderr: true},
	agent.Event{Kind: agent.EventToolFinished, Result: &agent.ToolResult{Status: tools.StatusOK, Summary: "exit 3", ExitCode: 3, Duration: 6100 * time.Millisecond}})

// TestGoldenRender draws answers and cards whose layout depends on how text
// is measured: tabs, tables, failed commands.
func TestGoldenRender(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		w, h int
		evs  []agent.Event
		keys []tea.KeyPressMsg // pressed once the events are shown
		want string            // the screen shows this at the end
	}{
		{
			name: "code-tabs",
			w:    80, h: 40,
			evs: append([]agent.Event{
				{Kind: agent.EventTextDelta, Text: "Go:\n\n" + goSnippet + "\nMake:\n\n" + makeSnippet},
			}, callEvents("t", "run_shell", `{"command":"printf 'a\\tb\\n'"}`,
				agent.Event{Kind: agent.EventToolRunning},
				agent.Event{Kind: agent.EventToolOutput, Text: "a\tb\n\tindented\n"},
				agent.Event{Kind: agent.EventToolFinished, Result: &agent.ToolResult{Status: tools.StatusOK, Summary: "exit 0", Duration: time.Second}})...),
			want: "indented",
		},
		{
			name: "table",
			w:    100, h: 20,
			evs: []agent.Event{
				{Kind: agent.EventTextDelta, Text: "| flag | meaning |\n|---|---|\n| `-r` | resume |\n| `-p` | prompt |\n\nDone.\n"},
			},
			want: "Done.",
		},
		{
			name: "failed-command",
			w:    80, h: 20,
			evs:  failedCommand,
			want: "exit 3",
		},
		{
			name: "failed-command-transcript",
			w:    80, h: 20,
			evs:  failedCommand,
			keys: []tea.KeyPressMsg{keyCtrlT},
			want: "exit 3",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			goldenRun(t, tt.w, tt.h, Options{}, func(tm *teatest.TestModel, fb *fakeBackend) {
				tm.Type("show me")
				tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
				waitFor(t, tm, "working")
				for _, e := range tt.evs {
					fb.ch <- e
				}
				waitFor(t, tm, tt.want)
				for _, k := range tt.keys {
					tm.Send(k)
				}
				if len(tt.keys) > 0 {
					waitFor(t, tm, tt.want)
				}
			})
		})
	}
}
