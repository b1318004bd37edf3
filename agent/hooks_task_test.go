package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/hooks"
)

// TestSubagentRunsToolHooksOnly: a subagent's calls go through the
// session's before_tool and after_tool hooks (a denial holds for them too,
// and its runs arrive inside EventSubagent), while the prompt and turn_end
// hooks run for the session's own turn only.
func TestSubagentRunsToolHooksOnly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	count := func(name string) string {
		return hookScript(t, dir, name+".sh", "cat > /dev/null; echo x >> "+filepath.Join(dir, name+".count"))
	}
	guard := hookScript(t, dir, "guard.sh", `grep -q 'secret' && { echo "not that file" >&2; exit 2; }; exit 0`)
	read, _, _ := fakeTools()
	g := &gateway{route: func(req provider.Request) script {
		switch {
		case isChild(req) && len(toolResults(req)) == 0:
			return calls("read_file", `{"path":"secret.env"}`)
		case isChild(req):
			return answer("I could not read it.")
		case len(toolResults(req)) == 0:
			return calls("task", taskCall("Read the secret", "What is in secret.env?"))
		default:
			return answer("done")
		}
	}}
	h := taskHarness(t, g, tools.NewRegistry(read), withHooks(dir,
		hooks.Hook{Event: hooks.BeforeTool, Match: "read_file", Command: guard},
		hooks.Hook{Event: hooks.AfterTool, Command: count("after")},
		hooks.Hook{Event: hooks.Prompt, Command: count("prompt")},
		hooks.Hook{Event: hooks.TurnEnd, Command: count("end")},
		hooks.Hook{Event: hooks.SessionStart, Command: count("start")},
	))
	evs := h.turn("look", nil)
	if fin := finishOf(t, evs); fin.Reason != FinishDone {
		t.Fatalf("finish %+v", fin)
	}
	if len(read.runs()) != 0 {
		t.Errorf("the subagent's denied read ran: %v", read.runs())
	}
	done := eventsOf(evs, EventToolFinished)
	if len(done) != 1 || done[0].Call.Name != TaskTool {
		t.Fatalf("results %+v", done)
	}
	sub := subEvents(evs, done[0].Call.ID)
	denied := eventsOf(sub, EventToolFinished)
	if len(denied) != 1 || denied[0].Result.Status != tools.StatusDenied || !strings.Contains(denied[0].Result.Output, "not that file") {
		t.Errorf("the child's read: %+v", denied)
	}
	if hk := eventsOf(sub, EventHook); len(hk) != 1 || !hk[0].Hook.Blocked() {
		t.Errorf("the child's hook events: %+v", hk)
	}
	runs := func(name string) int {
		data, _ := os.ReadFile(filepath.Join(dir, name+".count"))
		return strings.Count(string(data), "x")
	}
	// after_tool: the task call itself (the child's read was denied).
	for name, want := range map[string]int{"prompt": 1, "end": 1, "start": 1, "after": 1} {
		if got := runs(name); got != want {
			t.Errorf("%s hooks ran %d times, want %d", name, got, want)
		}
	}
}
