package tui

import (
	"strings"
	"testing"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// subEv wraps a subagent's event under the task call.
func subEv(task *agent.Call, ev agent.Event) agent.Event {
	return agent.Event{Kind: agent.EventSubagent, Turn: 1, Call: task, Sub: &ev}
}

// taskEvents is a turn whose task call's subagent reads two files.
func taskEvents(finished bool) []agent.Event {
	task := &agent.Call{ID: "t1", Name: agent.TaskTool, Args: []byte(`{"description":"Explore the parser","prompt":"find the parser's entry point"}`)}
	read := func(id, path string) *agent.Call {
		return &agent.Call{ID: id, Name: tools.ReadFileName, Args: []byte(`{"path":"` + path + `"}`)}
	}
	evs := []agent.Event{
		{Kind: agent.EventTurnStarted, Turn: 1, Text: "where is the parser?"},
		{Kind: agent.EventToolCallStarted, Turn: 1, Call: &agent.Call{ID: "t1", Name: agent.TaskTool}},
		{Kind: agent.EventToolCallReady, Turn: 1, Call: task},
		{Kind: agent.EventToolRunning, Turn: 1, Call: task},
		subEv(task, agent.Event{Kind: agent.EventTurnStarted, Turn: 1, Text: "find the parser's entry point"}),
		subEv(task, agent.Event{Kind: agent.EventRequest, Request: &agent.RequestInfo{Step: 1, Attempt: 1, Bytes: 4000}}),
		subEv(task, agent.Event{Kind: agent.EventUsage, Usage: provider.Usage{PromptTokens: 1000, CompletionTokens: 200}}),
		subEv(task, agent.Event{Kind: agent.EventMessageAppended, Message: &provider.Message{Role: provider.RoleAssistant, Content: "Reading the parser files."}}),
		subEv(task, agent.Event{Kind: agent.EventToolCallReady, Call: read("c1", "parse/lexer.go")}),
		subEv(task, agent.Event{Kind: agent.EventToolCallReady, Call: read("c2", "parse/parser.go")}),
		subEv(task, agent.Event{Kind: agent.EventToolRunning, Call: read("c1", "parse/lexer.go")}),
		subEv(task, agent.Event{Kind: agent.EventToolFinished, Call: read("c1", "parse/lexer.go"), Result: &agent.ToolResult{Status: tools.StatusOK, Summary: "120 lines"}}),
		subEv(task, agent.Event{Kind: agent.EventMessageAppended, Message: &provider.Message{Role: provider.RoleTool, ToolCallID: "c1"},
			Call: read("c1", "parse/lexer.go"), Result: &agent.ToolResult{Status: tools.StatusOK, Output: "     1\tpackage lexer_marker", Summary: "120 lines"}}),
	}
	if !finished {
		return evs
	}
	return append(evs,
		subEv(task, agent.Event{Kind: agent.EventToolFinished, Call: read("c2", "parse/parser.go"), Result: &agent.ToolResult{Status: tools.StatusOK, Summary: "80 lines"}}),
		subEv(task, agent.Event{Kind: agent.EventMessageAppended, Message: &provider.Message{Role: provider.RoleAssistant, Content: "The entry point is parse/parser.go:12 (Parse)."}}),
		subEv(task, agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}}),
		agent.Event{Kind: agent.EventToolFinished, Turn: 1, Call: task, Result: &agent.ToolResult{Status: tools.StatusOK,
			Output: "The entry point is parse/parser.go:12 (Parse).", Summary: "2 tool calls, 2 requests"}},
	)
}

func TestTaskCardShowsLiveCallsThenTheAnswer(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	events(m, taskEvents(false)...)
	frame(m)
	s := screen(m)
	for _, want := range []string{"Task Explore the parser", "running", "↳ read_file parse/lexer.go  ✓ 120 lines", "↳ read_file parse/parser.go", "2 tool calls · 1.2k tokens · 1 request"} {
		if !strings.Contains(s, want) {
			t.Errorf("the running card lacks %q:\n%s", want, s)
		}
	}
	if m.meter.subRequests != 1 || m.usage.PromptTokens != 1000 {
		t.Errorf("the subagent's usage was not counted: %+v, %d", m.usage, m.meter.subRequests)
	}
	events(m, taskEvents(true)[len(taskEvents(false)):]...)
	frame(m)
	s = screen(m)
	for _, want := range []string{"2 tool calls, 2 requests", "│ The entry point is parse/parser.go:12 (Parse).", "answered"} {
		if !strings.Contains(s, want) {
			t.Errorf("the finished card lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "lexer_marker") {
		t.Errorf("the card shows the subagent's results in the conversation:\n%s", s)
	}
	press(m, keyCtrlT)
	press(m, keyHome)
	var all strings.Builder
	for range 5 {
		all.WriteString(screen(m))
		press(m, keyPgDown)
	}
	for _, want := range []string{"› find the parser's entry point", "Reading the parser files.", "lexer_marker", "The entry point is parse/parser.go:12"} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("the transcript view lacks the subagent's %q:\n%s", want, all.String())
		}
	}
}

func TestSubagentApprovalNamesTheSubagent(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	task := &agent.Call{ID: "t1", Name: agent.TaskTool, Args: []byte(`{"description":"Run tests","prompt":"run them"}`)}
	call := agent.Call{ID: "c1", Name: tools.RunShellName, Args: []byte(`{"command":"go test ./..."}`)}
	req := agent.NewApprovalRequest("ap_1", call, tools.KindShell, tools.Preview{Title: "run go test ./...", Command: "go test ./..."}, agent.Scope{})
	req.Subagent = "subagent: Run tests"
	events(m, agent.Event{Kind: agent.EventToolCallReady, Turn: 1, Call: task},
		subEv(task, agent.Event{Kind: agent.EventToolCallReady, Call: &call}),
		subEv(task, agent.Event{Kind: agent.EventApprovalRequested, Call: &call, Approval: req}))
	frame(m)
	if m.dlg == nil || m.dlg.req != req {
		t.Fatal("no dialog for the subagent's question")
	}
	if s := screen(m); !strings.Contains(s, "[subagent: Run tests] run go test ./...") {
		t.Errorf("the dialog does not name the subagent:\n%s", s)
	}
}
