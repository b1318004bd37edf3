package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// exampleRecords is a small session: two turns with reasoning, tool calls
// (one denied, one with long output holding backticks), an error, a model
// change, and a third turn that was rewound away.
func exampleRecords() []Body {
	long := "```go\n" + strings.Repeat("line\n", 20) + "```\n"
	return []Body{
		UserMessage{Turn: 1, Text: "Why does the build fail?"},
		AssistantMessage{Text: "Let me run it.", Reasoning: "Run the build first.", ToolCalls: []ToolCall{
			{ID: "c1", Name: "run_shell", Arguments: `{"command":"go build ./..."}`},
			{ID: "c2", Name: "edit_file", Arguments: `{"path":"main.go","old_string":"a","new_string":"b"}`},
		}},
		Approval{RequestID: "ap_1", CallID: "c1", Tool: "run_shell", Decision: DecisionAllowOnce, Scope: "run_shell:go build"},
		ToolResult{CallID: "c1", Tool: "run_shell", Status: StatusOK, Output: long, Summary: "exit 1", ExitCode: 1, DurationMS: 900},
		Approval{RequestID: "ap_2", CallID: "c2", Tool: "edit_file", Decision: DecisionDeniedWithMessage, Message: "not that file"},
		ToolResult{CallID: "c2", Tool: "edit_file", Status: StatusDenied, Output: "The user denied this call.", Summary: "denied"},
		AssistantMessage{Text: "The build fails because `main` is missing."},
		Usage{Prompt: 1200, Completion: 80, Cached: 1000},
		ModelChange{Model: "bigger-model"},
		UserMessage{Turn: 2, Text: "Fix it."},
		ErrorRecord{Kind: "rate_limited", Message: "429 Too Many Requests"},
		AssistantMessage{Text: "Fixing", Interrupted: true},
		UserMessage{Turn: 3, Text: "Never mind."},
		Rewind{Turn: 3, Conversation: true},
	}
}

func writeExample(t *testing.T, home string) string {
	t.Helper()
	h := testHeader()
	h.ID = "0123456789abcdef"
	h.Created = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	w, err := Create(home, h, WithClock(fixedClock(h.Created, time.Second)))
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range exampleRecords() {
		if _, err := w.Append(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w.Path()
}

func TestExport(t *testing.T) {
	t.Parallel()
	s, err := Load(writeExample(t, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	got := Export(s)
	// The start time is shown in local time; fix it for the golden file.
	got = strings.Replace(got, s.Header.Created.Local().Format(time.DateTime), "2026-01-02 03:04:05", 1)
	golden := filepath.Join("testdata", "export.md")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("export changed; if intended, run with -update\n got:\n%s\nwant:\n%s", got, want)
	}
	for _, must := range []string{"## You (turn 1)", "**▸ run_shell** `go build ./...` — ok, exit 1", "— denied (not that file)", "*(interrupted)*", "… (10 more lines)", "````text"} {
		if !strings.Contains(got, must) {
			t.Errorf("export lacks %q", must)
		}
	}
	if strings.Contains(got, "Never mind") {
		t.Error("the export holds a turn that was rewound away")
	}
}

func TestReplay(t *testing.T) {
	t.Parallel()
	s, err := Load(writeExample(t, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	st, err := Restore(s)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ev := range st.Replay() {
		k := ev.Kind.String()
		if ev.Finish != nil {
			k += ":" + ev.Finish.Reason.String()
		}
		got = append(got, k)
	}
	want := "turn_started reasoning_delta text_delta tool_call_started tool_call_ready approval_resolved tool_finished tool_call_started tool_call_ready approval_resolved tool_finished text_delta turn_finished:done " +
		"turn_started error text_delta usage usage turn_finished:cancelled"
	if strings.Join(got, " ") != want {
		t.Errorf("replay = %s\nwant     %s", strings.Join(got, " "), want)
	}
	evs := st.Replay()
	var total int
	for _, ev := range evs {
		total += ev.Usage.PromptTokens
		if ev.Approval != nil {
			select {
			case <-ev.Approval.Decisions():
			default:
				t.Errorf("approval %s is left waiting for an answer", ev.Approval.ID)
			}
		}
	}
	if total != 1200 {
		t.Errorf("replayed usage sums to %d prompt tokens, want 1200", total)
	}
}
