package session

import (
	"strings"
	"testing"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
)

// TestTaskIsRecordedAndResumedWithItsResult records a turn whose task
// call ran a subagent: the subagent's conversation goes to subagent
// records, its requests and usage carry the task's call id, and a resumed
// session shows the finished task with its result and the subagent's
// messages, while its conversation holds only the task's result.
func TestTaskIsRecordedAndResumedWithItsResult(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{files: map[string]string{"a.txt": "alpha secret-ish content\n"}, subagents: true})
	h.prov.Add(
		calls("", "task", `{"description":"Read a.txt","prompt":"what does a.txt say?"}`),
		calls("", "read_file", args("path", "a.txt")),
		answer("a.txt:1 says alpha."),
		answer("It says alpha."),
	)
	h.turn("what does a.txt say? delegate it")
	st := h.restored()
	for _, m := range st.Messages {
		if strings.Contains(m.Content, "alpha secret-ish content") {
			t.Fatalf("the subagent's read entered the session's conversation: %q", m.Content)
		}
	}
	var task *ToolEntry
	for _, e := range st.Entries {
		if e.Tool != nil && e.Tool.Name == agent.TaskTool {
			task = e.Tool
		}
	}
	if task == nil || task.Result == nil || task.Result.Status != StatusOK || task.Result.Output != "a.txt:1 says alpha." {
		t.Fatalf("task entry: %+v", task)
	}
	roles := []string{}
	for _, m := range task.Subagent {
		roles = append(roles, m.Role)
	}
	if strings.Join(roles, " ") != "user assistant tool assistant" || task.Subagent[2].Tool != "read_file" ||
		!strings.Contains(task.Subagent[2].Text, "alpha secret-ish content") {
		t.Fatalf("subagent messages: %+v", task.Subagent)
	}
	if st.SubagentUsage == (provider.Usage{}) || st.Usage.PromptTokens <= st.SubagentUsage.PromptTokens {
		t.Errorf("usage %+v, subagents %+v", st.Usage, st.SubagentUsage)
	}
	s, err := Load(h.w.Path())
	if err != nil {
		t.Fatal(err)
	}
	tasked := 0
	for _, r := range s.Records {
		if u, ok := r.Body.(Request); ok && u.Task == task.CallID {
			tasked++
		}
	}
	if tasked != 2 {
		t.Errorf("%d request records name the task", tasked)
	}
}
