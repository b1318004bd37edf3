package mock_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// TestOfflinePlanMode plans a change in plan mode (reads run, the change
// becomes a numbered plan, the file stays as it was), then accepts the
// plan: the same scene carries it out.
func TestOfflinePlanMode(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{"main.go": mainGo})
	a := startAgent(t, dir, nil)
	// run collects the names of the tools that ran, allowing every request.
	run := func() (ran []string, fin *agent.Finish) {
		t.Helper()
		for ev := range a.Events() {
			switch ev.Kind {
			case agent.EventApprovalRequested:
				ev.Approval.Reply(agent.Decision{Kind: agent.AllowOnce})
			case agent.EventToolFinished:
				if ev.Result.Status == tools.StatusOK {
					ran = append(ran, ev.Call.Name)
				}
			case agent.EventTurnFinished:
				return ran, ev.Finish
			case agent.EventTurnStarted, agent.EventTextDelta, agent.EventReasoningDelta, agent.EventToolCallStarted,
				agent.EventToolCallReady, agent.EventApprovalResolved, agent.EventToolRunning, agent.EventToolOutput,
				agent.EventUsage, agent.EventRetrying, agent.EventError, agent.EventRequest,
				agent.EventCompactionStarted, agent.EventCompactionFinished, agent.EventMessageAppended, agent.EventHook, agent.EventSubagent:
			}
		}
		t.Fatal("events closed")
		return nil, nil
	}
	a.EnterPlan()
	if err := a.Submit("add a comment to main.go"); err != nil {
		t.Fatal(err)
	}
	ran, fin := run()
	if fin.Reason != agent.FinishDone || strings.Join(ran, ",") != "read_file,todo_write,propose_plan" {
		t.Fatalf("plan turn: %v, ran %v", fin.Reason, ran)
	}
	if plan := proposed(t, a.Messages()); !strings.Contains(plan, "1. Edit `main.go` with `edit_file`.") {
		t.Fatalf("the plan: %q", plan)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "main.go")); string(b) != mainGo {
		t.Fatal("main.go changed in plan mode")
	}
	if err := a.AcceptPlan(); err != nil {
		t.Fatal(err)
	}
	ran, fin = run()
	if fin.Reason != agent.FinishDone || !strings.Contains(strings.Join(ran, ","), "edit_file") || ran[len(ran)-1] != "todo_write" {
		t.Fatalf("accepted plan: %v, ran %v", fin.Reason, ran)
	}
	if todo := agent.CurrentTodo(a.Messages()); len(todo) != 2 || tools.TodoOpen(todo) {
		t.Fatalf("the plan's todo list after carrying it out: %+v", todo)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "main.go")); string(b) == mainGo {
		t.Fatal("the accepted plan did not change main.go")
	}
}

// proposed is the plan of the last propose_plan call in msgs.
func proposed(t *testing.T, msgs []provider.Message) string {
	t.Helper()
	for i := len(msgs) - 1; i >= 0; i-- {
		for _, c := range msgs[i].ToolCalls {
			if c.Name == agent.ProposePlanTool {
				plan, err := agent.PlanOf(json.RawMessage(c.Arguments))
				if err != nil {
					t.Fatal(err)
				}
				return plan
			}
		}
	}
	t.Fatal("no propose_plan call")
	return ""
}
