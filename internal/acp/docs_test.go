package acp

import (
	"os"
	"strings"
	"testing"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tools"
)

// TestDocsProjectionTable checks that docs/acp.md's projection table has a
// row for every internal event kind, so a new kind is documented as well as
// decided in project's switch.
func TestDocsProjectionTable(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../docs/acp.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for k := agent.EventKind(1); k.String() != "unknown"; k++ {
		if !strings.Contains(doc, "\n| `"+k.String()+"` |") {
			t.Errorf("docs/acp.md's projection table has no row for %s", k)
		}
	}
}

// TestProjectEveryKind runs every event kind through the projection, with
// and without the fields it reads, live and in a replay: nothing panics and
// nothing unexpected is sent.
func TestProjectEveryKind(t *testing.T) {
	t.Parallel()
	for _, replay := range []bool{false, true} {
		p := newProjector("/w")
		p.replay = replay
		for k := agent.EventKind(1); k.String() != "unknown"; k++ {
			_ = p.project(agent.Event{Kind: k})
			call := &agent.Call{ID: "c", Name: "future_tool", Args: []byte(`not json`)}
			_ = p.project(agent.Event{Kind: k, Call: call, Text: "x", Result: &agent.ToolResult{}, Retry: &agent.Retry{DiscardPartial: true},
				Approval: agent.NewApprovalRequest("a", *call, 0, toolsPreview(), agent.Scope{}), Finish: &agent.Finish{}})
		}
	}
}

func toolsPreview() tools.Preview {
	return tools.Preview{Path: "a.go", Diff: "--- a/a.go\n+++ b/a.go\n@@ -1 +1 @@\n-a\n+b\n"}
}
