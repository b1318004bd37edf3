package headless

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/provider/providertest"
	"github.com/ternhq/tern/tools"
)

// TestSubagentEventsNestUnderTheTaskItem projects a real turn whose task
// call ran a subagent: the subagent's own lines (turn.started, its items,
// turn.completed) come wrapped in item.subagent lines naming the task's
// item, between the task's item.started and item.completed.
func TestSubagentEventsNestUnderTheTaskItem(t *testing.T) {
	t.Parallel()
	u := provider.Usage{PromptTokens: 10, CompletionTokens: 5}
	prov := providertest.New(
		providertest.Calls(u, providertest.CallID, "task", `{"description":"Read it","prompt":"read a.go"}`),
		providertest.Calls(u, providertest.CallID, "read_file", `{"path":"a.go"}`),
		providertest.Answer(u, "a.go is fine"),
		providertest.Answer(u, "done"),
	)
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry(stubTool{name: "read_file", kind: tools.KindRead})
	a, err := agent.New(agent.Options{Provider: prov, Model: "m", Tools: reg, Workspace: ws, Subagents: &agent.Subagents{}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go a.Run(ctx)
	if err := a.Submit("go"); err != nil {
		t.Fatal(err)
	}
	p := NewProjector(Session{Model: "m"})
	var lines []map[string]any
	timeout := time.After(10 * time.Second)
	for done := false; !done; {
		select {
		case ev := <-a.Events():
			for _, m := range p.Project(ev) {
				b, err := json.Marshal(m)
				if err != nil {
					t.Fatal(err)
				}
				var v map[string]any
				_ = json.Unmarshal(b, &v)
				lines = append(lines, v)
			}
			done = ev.Kind == agent.EventTurnFinished
		case <-timeout:
			t.Fatal("the turn did not finish")
		}
	}
	taskItem := ""
	var nested []string
	for _, l := range lines {
		switch l["type"] {
		case TypeItemStarted:
			if it := l["item"].(map[string]any); it["tool"] == agent.TaskTool {
				taskItem = it["id"].(string)
			}
		case TypeItemSubagent:
			if l["item_id"] != taskItem || taskItem == "" {
				t.Fatalf("nested under %v, the task is %q", l["item_id"], taskItem)
			}
			ev := l["event"].(map[string]any)
			typ := ev["type"].(string)
			if typ == TypeItemCompleted {
				typ += ":" + ev["item"].(map[string]any)["type"].(string)
			}
			nested = append(nested, typ)
		}
	}
	want := []string{"turn.started", "request.completed", "item.started", "item.completed:tool_call", "item.started", "item.delta",
		"request.completed", "item.completed:agent_message", "turn.completed"}
	if len(nested) != len(want) {
		t.Fatalf("nested lines %v, want %v", nested, want)
	}
	for i := range want {
		if nested[i] != want[i] {
			t.Fatalf("nested lines %v, want %v", nested, want)
		}
	}
}
