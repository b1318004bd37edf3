package acp

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tools"
)

func TestLiveOutputPaced(t *testing.T) {
	t.Parallel()
	p := newProjector("/w")
	clock := time.Unix(1000, 0)
	p.now = func() time.Time { return clock }
	call := &agent.Call{ID: "c", Name: tools.RunShellName, Args: json.RawMessage(`{"command":"go test ./..."}`)}
	p.project(agent.Event{Kind: agent.EventTurnStarted, Turn: 1})
	p.project(agent.Event{Kind: agent.EventToolCallStarted, Call: call})
	p.project(agent.Event{Kind: agent.EventToolRunning, Call: call})
	var sent []string
	for _, step := range []struct {
		after time.Duration
		text  string
	}{{0, "ok  a\n"}, {100 * time.Millisecond, "ok  b\n"}, {300 * time.Millisecond, "ok  c\n"}} {
		clock = clock.Add(step.after)
		for _, u := range p.project(agent.Event{Kind: agent.EventToolOutput, Call: call, Text: step.text}) {
			sent = append(sent, u.ToolCallUpdate.Content[0].Content.Content.Text.Text)
		}
	}
	if len(sent) != 2 || !strings.Contains(sent[0], "ok  a") || !strings.Contains(sent[1], "ok  a\nok  b\nok  c") {
		t.Errorf("live updates %q: want the first chunk at once, then all of it once %v passed", sent, liveEvery)
	}
	fin := p.project(agent.Event{Kind: agent.EventToolFinished, Call: call, Result: &agent.ToolResult{Status: tools.StatusOK, Output: "ok  a\nok  b\nok  c\n"}})
	if len(fin) != 1 || *fin[0].ToolCallUpdate.Status != sdk.ToolCallStatusCompleted || !strings.HasPrefix(fin[0].ToolCallUpdate.Content[0].Content.Content.Text.Text, "```\nok  a") {
		t.Errorf("completion %+v", fin)
	}
}

func TestTailBuffer(t *testing.T) {
	t.Parallel()
	var b tailBuffer
	for i := 0; i < 5000; i++ {
		b.add("line of output é\n")
	}
	s := b.String()
	if len(s) > liveTail+8 || !strings.HasPrefix(s, "…\nline of output") || !strings.HasSuffix(s, "é\n") {
		t.Errorf("tail: %d bytes, %q…%q", len(s), s[:30], s[len(s)-20:])
	}
	if len(b.b) > 2*liveTail {
		t.Errorf("the buffer holds %d bytes", len(b.b))
	}
}

func TestPreviewDiff(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		diff     string
		old, new string
		hasOld   bool
	}{
		{"edit", "--- a/a.go\n+++ b/a.go\n@@ -1,3 +1,3 @@\n package a\n-x := 1\n+x := 2\n y\n", "package a\nx := 1\ny\n", "package a\nx := 2\ny\n", true},
		{"new file", "--- a/n.txt\n+++ b/n.txt\n@@ -0,0 +1 @@\n+hi\n", "", "hi\n", false},
		{"two hunks", "--- a/a\n+++ b/a\n@@ -1 +1 @@\n-a\n+b\n@@ -9 +9 @@\n-c\n+d\n", "a\n⋮\nc\n", "b\n⋮\nd\n", true},
	} {
		got := previewDiff("/w", tools.Preview{Path: "a.go", Diff: tc.diff})
		d := got[0].Diff
		if d.Path != "/w/a.go" || d.NewText != tc.new || (d.OldText != nil) != tc.hasOld || (tc.hasOld && *d.OldText != tc.old) {
			t.Errorf("%s: %+v (old %v)", tc.name, d, d.OldText)
		}
	}
	if previewDiff("/w", tools.Preview{Title: "run x"}) != nil {
		t.Error("a preview without a diff gave diff content")
	}
}

func TestStopReasons(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		reason agent.FinishReason
		note   sdk.StopReason
		want   sdk.StopReason
		err    bool
	}{
		{agent.FinishDone, "", sdk.StopReasonEndTurn, false},
		{agent.FinishDone, sdk.StopReasonMaxTokens, sdk.StopReasonMaxTokens, false},
		{agent.FinishDone, sdk.StopReasonRefusal, sdk.StopReasonRefusal, false},
		{agent.FinishCancelled, "", sdk.StopReasonCancelled, false},
		{agent.FinishStepLimit, "", sdk.StopReasonMaxTurnRequests, false},
		{agent.FinishBudget, "", sdk.StopReasonMaxTurnRequests, false},
		{agent.FinishFailed, "", "", true},
	} {
		resp, err := stopReason(outcome{ev: agent.Event{Finish: &agent.Finish{Reason: tc.reason}}, stop: tc.note})
		if resp.StopReason != tc.want || (err != nil) != tc.err {
			t.Errorf("%s (note %q): %q, %v", tc.reason, tc.note, resp.StopReason, err)
		}
	}
	// The projection reads the notes of an answer cut off or filtered.
	p := newProjector("/w")
	p.project(agent.Event{Kind: agent.EventError, Text: agent.NoteAnswerCutOff})
	if p.stop != sdk.StopReasonMaxTokens {
		t.Errorf("cut off: stop %q", p.stop)
	}
	p.project(agent.Event{Kind: agent.EventTurnStarted, Turn: 2})
	if p.stop != "" {
		t.Errorf("a new turn keeps the stop reason %q", p.stop)
	}
}

// TestSubagentShowsInItsTask: a task call's subagent draws into the task's
// tool call, a line per call it made, and its calls never become tool
// calls of their own; the task's completion keeps the lines before the
// answer.
func TestSubagentShowsInItsTask(t *testing.T) {
	t.Parallel()
	p := newProjector("/w")
	task := &agent.Call{ID: "task1", Name: agent.TaskTool, Args: json.RawMessage(`{"description":"tour the code","prompt":"read it all"}`)}
	p.project(agent.Event{Kind: agent.EventTurnStarted, Turn: 1})
	p.project(agent.Event{Kind: agent.EventToolCallStarted, Call: task})
	ready := p.project(agent.Event{Kind: agent.EventToolCallReady, Call: task})
	if len(ready) != 1 || *ready[0].ToolCallUpdate.Title != "Task: tour the code" {
		t.Fatalf("task announced as %+v", ready)
	}
	read := &agent.Call{ID: "r1", Name: tools.ReadFileName, Args: json.RawMessage(`{"path":"agent/turn.go"}`)}
	sub := func(ev agent.Event) []sdk.SessionUpdate {
		return p.project(agent.Event{Kind: agent.EventSubagent, Call: task, Sub: &ev})
	}
	for _, ev := range []agent.Event{
		{Kind: agent.EventTurnStarted, Turn: 1, Text: "read it all"},
		{Kind: agent.EventToolCallStarted, Call: read},
		{Kind: agent.EventToolCallReady, Call: read},
		{Kind: agent.EventToolRunning, Call: read},
		{Kind: agent.EventTextDelta, Text: "partial"},
	} {
		if got := sub(ev); len(got) != 0 {
			t.Fatalf("%v of the subagent sent %+v", ev.Kind, got)
		}
	}
	done := sub(agent.Event{Kind: agent.EventToolFinished, Call: read, Result: &agent.ToolResult{Status: tools.StatusOK, Summary: "117 lines"}})
	if len(done) != 1 || done[0].ToolCallUpdate.ToolCallId != "t1-task1" ||
		done[0].ToolCallUpdate.Content[0].Content.Content.Text.Text != "↳ Read agent/turn.go ✓ 117 lines" {
		t.Fatalf("a subagent call's end: %+v", done)
	}
	fin := p.project(agent.Event{Kind: agent.EventToolFinished, Call: task, Result: &agent.ToolResult{Status: tools.StatusOK, Output: "turn.go runs the loop"}})
	if len(fin) != 1 {
		t.Fatalf("task completion %+v", fin)
	}
	c := fin[0].ToolCallUpdate.Content
	if len(c) != 2 || c[0].Content.Content.Text.Text != "↳ Read agent/turn.go ✓ 117 lines" || c[1].Content.Content.Text.Text != "turn.go runs the loop" {
		t.Errorf("task completion content %+v", c)
	}
}
