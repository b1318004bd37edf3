package headless

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// Helpers building synthetic agent events.

func turnStarted(text string) agent.Event {
	return agent.Event{Kind: agent.EventTurnStarted, Turn: 1, Text: text}
}
func text(s string) agent.Event { return agent.Event{Kind: agent.EventTextDelta, Turn: 1, Text: s} }
func reasoning(s string) agent.Event {
	return agent.Event{Kind: agent.EventReasoningDelta, Turn: 1, Text: s}
}
func callStarted(id, name string) agent.Event {
	return agent.Event{Kind: agent.EventToolCallStarted, Turn: 1, Call: &agent.Call{ID: id, Name: name}}
}
func callReady(id, name, args string) agent.Event {
	return agent.Event{Kind: agent.EventToolCallReady, Turn: 1, Call: &agent.Call{ID: id, Name: name, Args: json.RawMessage(args)}}
}
func running(id, name string) agent.Event {
	return agent.Event{Kind: agent.EventToolRunning, Turn: 1, Call: &agent.Call{ID: id, Name: name}}
}
func output(id, name, s string) agent.Event {
	return agent.Event{Kind: agent.EventToolOutput, Turn: 1, Call: &agent.Call{ID: id, Name: name}, Text: s}
}
func finished(id, name string, st tools.Status, out string, code int) agent.Event {
	return agent.Event{Kind: agent.EventToolFinished, Turn: 1, Call: &agent.Call{ID: id, Name: name},
		Result: &agent.ToolResult{Status: st, Output: out, ExitCode: code, Duration: 12 * time.Millisecond}}
}
func usage(p, c, cached int) agent.Event {
	return agent.Event{Kind: agent.EventUsage, Turn: 1, Usage: provider.Usage{PromptTokens: p, CompletionTokens: c, CachedPromptTokens: cached}}
}
func request(step, bytes, messages, toolBytes int) agent.Event {
	return agent.Event{Kind: agent.EventRequest, Turn: 1, Request: &agent.RequestInfo{Step: step, Attempt: 1, Bytes: bytes, Messages: messages, ToolResultBytes: toolBytes}}
}
func measured(p, c, cached int, ttft time.Duration, estimated bool) agent.Event {
	return agent.Event{Kind: agent.EventUsage, Turn: 1, Usage: provider.Usage{PromptTokens: p, CompletionTokens: c, CachedPromptTokens: cached},
		Response: &agent.ResponseInfo{Estimated: estimated, FirstToken: ttft, Duration: ttft + time.Second}}
}
func retrying(discard bool) agent.Event {
	err := &provider.Error{Kind: provider.ErrServer, Status: 502, Message: "bad gateway"}
	return agent.Event{Kind: agent.EventRetrying, Turn: 1, Retry: &agent.Retry{Attempt: 2, MaxAttempts: 4, Wait: time.Second, Err: err, Reason: err.Error(), DiscardPartial: discard}}
}

// kept is the agent's EventMessageAppended for an answer it keeps, with
// its text and the ids of its calls. The agent sends it once the answer's
// calls are ready and its usage is reported, before any of the calls is
// approved or runs.
func kept(content string, callIDs ...string) agent.Event {
	m := provider.Message{Role: provider.RoleAssistant, Content: content}
	for _, id := range callIDs {
		m.ToolCalls = append(m.ToolCalls, provider.ToolCall{ID: id})
	}
	return agent.Event{Kind: agent.EventMessageAppended, Turn: 1, Message: &m}
}

// keptInterrupted is the EventMessageAppended of an answer cut short: its
// partial text, marked, without calls. The agent sends it after finishing
// the calls it abandoned, before EventTurnFinished.
func keptInterrupted(partial string) agent.Event {
	m := agent.InterruptedMessage(partial, "")
	return agent.Event{Kind: agent.EventMessageAppended, Turn: 1, Message: &m, Interrupted: true, Text: partial}
}

func turnFinished(r agent.FinishReason, steps int, err error) agent.Event {
	return agent.Event{Kind: agent.EventTurnFinished, Turn: 1, Finish: &agent.Finish{Reason: r, Steps: steps, Err: err}}
}
func approvalRequest(id, callID, name, args string) *agent.ApprovalRequest {
	call := agent.Call{ID: callID, Name: name, Args: json.RawMessage(args)}
	preview := tools.Preview{Title: "write hello.txt", Path: "hello.txt", Diff: "--- a/hello.txt\n+++ b/hello.txt\n@@ -0,0 +1 @@\n+hi\n"}
	return agent.NewApprovalRequest(id, call, tools.KindEdit, preview, agent.Scope{Key: "edit", Label: "edits inside this workspace"})
}
func requested(r *agent.ApprovalRequest) agent.Event {
	c := r.Call
	return agent.Event{Kind: agent.EventApprovalRequested, Turn: 1, Call: &c, Approval: r}
}
func resolved(r *agent.ApprovalRequest, d agent.Decision) agent.Event {
	c := r.Call
	return agent.Event{Kind: agent.EventApprovalResolved, Turn: 1, Call: &c, Approval: r, Decision: d}
}

var testSession = Session{Tern: "test", Model: "gpt-test", Workspace: "/work/space", Approval: "ask", Offline: false}

func projectAll(evs []agent.Event) []Message {
	p := NewProjector(testSession)
	out := []Message{p.Start()}
	for _, ev := range evs {
		out = append(out, p.Project(ev)...)
	}
	return out
}

func encodeLines(t *testing.T, msgs []Message) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, m := range msgs {
		if err := enc.Encode(m); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

func projectionCases() map[string][]agent.Event {
	denyReq := approvalRequest("approval_1", "call_1", "write_file", `{"path":"hello.txt","content":"hi\n"}`)
	autoReq := approvalRequest("approval_1", "call_1", "write_file", `{"path":"hello.txt","content":"hi\n"}`)
	return map[string][]agent.Event{
		"text_only": {
			turnStarted("say hi"),
			reasoning("The user wants "), reasoning("a greeting."),
			text("Hello"), text(", "), text("world."),
			usage(120, 8, 100),
			kept("Hello, world."),
			turnFinished(agent.FinishDone, 1, nil),
		},
		"tool_call_full_auto": {
			turnStarted("create hello.txt"),
			text("I'll create the file."),
			callStarted("call_1", "write_file"),
			callReady("call_1", "write_file", `{"path": "hello.txt", "content": "hi\n"}`),
			usage(300, 20, 0),
			kept("I'll create the file.", "call_1"),
			resolved(autoReq, agent.Decision{Kind: agent.AllowOnce, Auto: true, Message: "policy full-auto"}),
			running("call_1", "write_file"),
			finished("call_1", "write_file", tools.StatusOK, "wrote hello.txt (1 line)", 0),
			text("Created `hello.txt`."),
			usage(340, 6, 300),
			kept("Created `hello.txt`."),
			turnFinished(agent.FinishDone, 2, nil),
		},
		"approval_denied": {
			turnStarted("create hello.txt"),
			callStarted("call_1", "write_file"),
			callReady("call_1", "write_file", `{"path":"hello.txt","content":"hi\n"}`),
			usage(300, 20, 0),
			kept("", "call_1"),
			requested(denyReq),
			resolved(denyReq, agent.Decision{Kind: agent.DenyWithMessage, Message: "headless run: no one to approve write_file"}),
			finished("call_1", "write_file", tools.StatusDenied, "denied: headless run: no one to approve write_file", 0),
			text("I could not write the file."),
			usage(340, 6, 300),
			kept("I could not write the file."),
			turnFinished(agent.FinishDone, 2, nil),
		},
		"retry_discards_partial": {
			turnStarted("explain"),
			reasoning("thinking A"),
			text("partial answer that "),
			callStarted("call_x", "read_file"),
			retrying(true),
			text("Complete answer."),
			usage(50, 5, 0),
			kept("Complete answer."),
			turnFinished(agent.FinishDone, 1, nil),
		},
		"retry_keeps_nothing_streamed": {
			turnStarted("explain"),
			retrying(false),
			text("Answer."),
			usage(50, 5, 0),
			kept("Answer."),
			turnFinished(agent.FinishDone, 1, nil),
		},
		"parallel_shell_calls": {
			turnStarted("run the tests"),
			callStarted("call_a", "run_shell"),
			callStarted("call_b", "read_file"),
			callReady("call_a", "run_shell", `{"command":"go test ./..."}`),
			callReady("call_b", "read_file", `{"path":"go.mod"}`),
			usage(200, 30, 0),
			kept("", "call_a", "call_b"),
			running("call_a", "run_shell"),
			output("call_a", "run_shell", "ok  \tpkg\t0.1s\n"),
			finished("call_a", "run_shell", tools.StatusError, "--- FAIL: TestX\nexit status 1", 1),
			running("call_b", "read_file"),
			finished("call_b", "read_file", tools.StatusOK, "1\tmodule x", 0),
			text("One test fails."),
			usage(260, 4, 200),
			kept("One test fails."),
			turnFinished(agent.FinishDone, 2, nil),
		},
		"invalid_arguments": {
			turnStarted("read"),
			callStarted("call_1", "read_file"),
			callReady("call_1", "read_file", `not json`),
			kept("", "call_1"),
			finished("call_1", "read_file", tools.StatusError, "invalid arguments: expected {path, offset?, limit?}", 0),
			text("Sorry."),
			kept("Sorry."),
			turnFinished(agent.FinishDone, 2, nil),
		},
		"failed_after_retries": {
			turnStarted("hi"),
			text("Hel"),
			turnFinished(agent.FinishFailed, 1, &provider.Error{Kind: provider.ErrServer, Status: 500, Message: "the gateway failed; try again later"}),
		},
		"failed_non_provider": {
			turnStarted("hi"),
			turnFinished(agent.FinishFailed, 0, errors.New("boom")),
		},
		"step_limit": {
			turnStarted("loop"),
			callReady("call_1", "list_files", `{}`),
			usage(10, 1, 0),
			kept("", "call_1"),
			running("call_1", "list_files"),
			finished("call_1", "list_files", tools.StatusOK, "a.go", 0),
			turnFinished(agent.FinishStepLimit, 1, nil),
		},
		"cancelled": {
			turnStarted("run it"),
			text("Running the command."),
			callReady("call_1", "run_shell", `{"command":"sleep 100"}`),
			usage(10, 1, 0),
			kept("Running the command.", "call_1"),
			running("call_1", "run_shell"),
			output("call_1", "run_shell", "starting\n"),
			finished("call_1", "run_shell", tools.StatusCancelled, "cancelled by the user", -1),
			turnFinished(agent.FinishCancelled, 1, nil),
		},
		"metered_with_estimate": {
			turnStarted("read go.mod"),
			request(1, 4000, 2, 0),
			callStarted("call_1", "read_file"),
			callReady("call_1", "read_file", `{"path":"go.mod"}`),
			measured(300, 20, 0, 450*time.Millisecond, false),
			kept("", "call_1"),
			running("call_1", "read_file"),
			finished("call_1", "read_file", tools.StatusOK, "1\tmodule x", 0),
			request(2, 4300, 4, 120),
			text("It is module x."),
			measured(340, 6, 0, 300*time.Millisecond, true),
			kept("It is module x."),
			agent.Event{Kind: agent.EventTurnFinished, Turn: 1, Finish: &agent.Finish{Reason: agent.FinishDone, Steps: 2, Requests: 2, Cost: 0.0012}},
		},
		"budget": {
			turnStarted("loop"),
			request(1, 4000, 2, 0),
			callReady("call_1", "list_files", `{}`),
			measured(10, 1, 0, 0, false),
			kept("", "call_1"),
			running("call_1", "list_files"),
			finished("call_1", "list_files", tools.StatusOK, "a.go", 0),
			agent.Event{Kind: agent.EventTurnFinished, Turn: 1, Finish: &agent.Finish{Reason: agent.FinishBudget, Steps: 1, Requests: 1,
				Err: fmt.Errorf("the turn stopped after 1 model request (the request budget, --max-requests): %w", agent.ErrBudget)}},
		},
		"auto_compaction": {
			turnStarted("keep reading"),
			request(1, 90000, 12, 80000),
			callReady("call_1", "read_file", `{"path":"big.go"}`),
			measured(22000, 10, 0, 0, false),
			kept("", "call_1"),
			running("call_1", "read_file"),
			finished("call_1", "read_file", tools.StatusOK, "1\tpackage big", 0),
			{Kind: agent.EventCompactionStarted, Turn: 1, Compaction: &agent.Compaction{Auto: true, Tokens: 24000, Window: 28000}},
			{Kind: agent.EventCompactionFinished, Turn: 1, Compaction: &agent.Compaction{Auto: true, Tokens: 24000, Window: 28000,
				Summary: "## Goal\nkeep reading", Replaced: 9, Kept: 3, BytesBefore: 90000, BytesAfter: 4000}},
			request(2, 6000, 5, 1200),
			text("Done."),
			measured(1500, 2, 0, 0, false),
			kept("Done."),
			turnFinished(agent.FinishDone, 2, nil),
		},
		"compaction_failed": {
			turnStarted("go on"),
			{Kind: agent.EventCompactionStarted, Turn: 1, Compaction: &agent.Compaction{Auto: true}},
			{Kind: agent.EventCompactionFinished, Turn: 1, Compaction: &agent.Compaction{Auto: true}, Err: agent.ErrNotSmaller, Text: agent.ErrNotSmaller.Error()},
			text("Going on."),
			kept("Going on."),
			turnFinished(agent.FinishDone, 1, nil),
		},
		"cancelled_without_tool_result": {
			turnStarted("run it"),
			callReady("call_1", "run_shell", `{"command":"sleep 100"}`),
			kept("", "call_1"),
			running("call_1", "run_shell"),
			turnFinished(agent.FinishCancelled, 1, nil),
		},
	}
}

func TestProjectionGolden(t *testing.T) {
	t.Parallel()
	for name, evs := range projectionCases() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := encodeLines(t, projectAll(evs))
			path := filepath.Join("testdata", name+".jsonl")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("projection differs from %s (go test -update rewrites it)\n got:\n%s\nwant:\n%s", path, got, want)
			}
		})
	}
}

// TestProjectionInvariants checks the protocol's promises on every case.
func TestProjectionInvariants(t *testing.T) {
	t.Parallel()
	for name, evs := range projectionCases() {
		dropsItems := strings.Contains(name, "retry") || strings.Contains(name, "failed")
		checkProtocol(t, name, encodeLines(t, projectAll(evs)), dropsItems)
	}
}

// checkProtocol checks the protocol's promises on one projection: every
// line has type and version, items complete at most once and only after
// they started, tool_call arguments are objects, and the last line ends the
// turn. Unless dropsItems, every item that started completes.
func checkProtocol(t *testing.T, name string, out []byte, dropsItems bool) {
	t.Helper()
	lines := bytes.Split(bytes.TrimSpace(out), []byte("\n"))
	started := map[string]bool{}
	completed := map[string]bool{}
	for i, l := range lines {
		var m struct {
			Type    string `json:"type"`
			Version int    `json:"version"`
			ItemID  string `json:"item_id"`
			Item    *struct {
				ID        string          `json:"id"`
				Type      string          `json:"type"`
				Arguments json.RawMessage `json:"arguments"`
				Status    string          `json:"status"`
			} `json:"item"`
		}
		if err := json.Unmarshal(l, &m); err != nil {
			t.Fatalf("%s line %d: %v", name, i+1, err)
		}
		if m.Type == "" || m.Version != Version {
			t.Errorf("%s line %d lacks type or version: %s", name, i+1, l)
		}
		switch m.Type {
		case TypeItemStarted:
			if started[m.Item.ID] {
				t.Errorf("%s: item %s started twice", name, m.Item.ID)
			}
			started[m.Item.ID] = true
		case TypeItemDelta:
			if !started[m.ItemID] || completed[m.ItemID] {
				t.Errorf("%s: delta for item %s outside its lifetime", name, m.ItemID)
			}
		case TypeItemCompleted:
			if !started[m.Item.ID] || completed[m.Item.ID] {
				t.Errorf("%s: item %s completed without starting, or twice", name, m.Item.ID)
			}
			completed[m.Item.ID] = true
			if m.Item.Type == ItemToolCall {
				if !bytes.HasPrefix(m.Item.Arguments, []byte("{")) {
					t.Errorf("%s: tool_call arguments %s are not an object", name, m.Item.Arguments)
				}
				switch m.Item.Status {
				case "ok", "error", "denied", "cancelled":
				default:
					t.Errorf("%s: tool_call status %q", name, m.Item.Status)
				}
			}
		}
		if i == len(lines)-1 && m.Type != TypeTurnCompleted && m.Type != TypeTurnFailed {
			t.Errorf("%s: last line is %s, want turn.completed or turn.failed", name, m.Type)
		}
	}
	for id := range started {
		if !completed[id] && !dropsItems {
			t.Errorf("%s: item %s started but never completed", name, id)
		}
	}
}

// TestRetryDropsDiscardedText is the protocol's promise in one assertion:
// completed agent_message items hold only text of the final conversation.
func TestRetryDropsDiscardedText(t *testing.T) {
	t.Parallel()
	msgs := projectAll(projectionCases()["retry_discards_partial"])
	var texts []string
	for _, m := range msgs {
		if c, ok := m.(ItemCompleted); ok {
			if c.Item.Type == ItemToolCall {
				t.Errorf("a discarded tool call was reported: %+v", c.Item)
			}
			if c.Item.Text != nil {
				texts = append(texts, c.Item.Type+":"+*c.Item.Text)
			}
		}
		if s, ok := m.(ItemStarted); ok && s.Item.Type == ItemToolCall {
			t.Errorf("a discarded tool call was started: %+v", s.Item)
		}
	}
	if want := []string{"agent_message:Complete answer."}; strings.Join(texts, "|") != strings.Join(want, "|") {
		t.Errorf("completed texts = %q, want %q", texts, want)
	}
}

func TestUsageSummedAsReported(t *testing.T) {
	t.Parallel()
	msgs := projectAll(projectionCases()["tool_call_full_auto"])
	last, ok := msgs[len(msgs)-1].(TurnCompleted)
	if !ok {
		t.Fatalf("last message = %T", msgs[len(msgs)-1])
	}
	if want := (Usage{PromptTokens: 640, CompletionTokens: 26, CachedTokens: 300, Requests: 2}); last.Usage != want {
		t.Errorf("usage = %+v, want %+v", last.Usage, want)
	}
}

func TestRunSummaryMarksEstimates(t *testing.T) {
	t.Parallel()
	priced := testSession
	priced.Priced = true
	r := &runner{opts: Options{Session: priced}, proj: NewProjector(priced)}
	r.proj.sent = 48_200
	f := &agent.Finish{Requests: 3, Usage: provider.Usage{PromptTokens: 12_000, CachedPromptTokens: 8000, CompletionTokens: 300},
		Estimated: provider.Usage{PromptTokens: 4000, CompletionTokens: 100}, Cost: 0.0123}
	got := r.summary(f)
	want := "tern run: 3 model requests · ~16.0k prompt tokens (8.0k cached) · ~400 completion tokens · 48.2 KB sent · ~$0.0123 (~ estimated: the gateway reported no usage for some requests)"
	if got != want {
		t.Errorf("summary\n got %s\nwant %s", got, want)
	}
	f.Estimated = provider.Usage{}
	if got := r.summary(f); strings.Contains(got, "~") {
		t.Errorf("reported figures marked: %s", got)
	}
}

func TestTurnUsageCostWhenPriced(t *testing.T) {
	t.Parallel()
	priced := testSession
	priced.Priced = true
	p := NewProjector(priced)
	p.Project(turnStarted("hi"))
	out := p.Project(agent.Event{Kind: agent.EventTurnFinished, Turn: 1, Finish: &agent.Finish{Reason: agent.FinishDone, Cost: 0.5}})
	done, ok := out[len(out)-1].(TurnCompleted)
	if !ok || done.Usage.Cost == nil || *done.Usage.Cost != 0.5 {
		t.Fatalf("turn.completed = %+v", out[len(out)-1])
	}
}

// TestProjectionFollowsWhatTheAgentKept checks the commit points on answers
// the goldens do not hold: items start and complete as the agent's appends
// say, whatever else was announced.
func TestProjectionFollowsWhatTheAgentKept(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		evs  []agent.Event
		// want lists the item lines: type, then the item's type or id.
		want []string
	}{
		{
			name: "a call announced but not kept is dropped",
			evs: []agent.Event{
				turnStarted("go"), text("Reading."),
				callStarted("c1", "read_file"), callStarted("c2", "read_file"),
				callReady("c1", "read_file", `{"path":"a"}`),
				kept("Reading.", "c1"),
				running("c1", "read_file"), finished("c1", "read_file", tools.StatusOK, "a", 0),
				text("Done."), kept("Done."),
				turnFinished(agent.FinishDone, 2, nil),
			},
			want: []string{
				"item.started agent_message", "item.completed agent_message",
				"item.started tool_call", "item.completed tool_call",
				"item.started agent_message", "item.completed agent_message",
			},
		},
		{
			name: "calls abandoned by an answer cut short start and complete after its text",
			evs: []agent.Event{
				turnStarted("go"), reasoning("Hmm."), text("Let me"),
				callStarted("c1", "read_file"), callStarted("c2", "write_file"),
				finished("c1", "read_file", tools.StatusCancelled, "cancelled", 0),
				finished("c2", "write_file", tools.StatusCancelled, "cancelled", 0),
				keptInterrupted("Let me"),
				turnFinished(agent.FinishCancelled, 1, nil),
			},
			want: []string{
				"item.started reasoning", "item.started agent_message",
				"item.completed reasoning", "item.completed agent_message",
				"item.started tool_call", "item.started tool_call",
				"item.completed tool_call", "item.completed tool_call",
			},
		},
		{
			name: "an answer not kept leaves its items open",
			evs: []agent.Event{
				turnStarted("go"), text("Let me"), callStarted("c1", "read_file"),
				finished("c1", "read_file", tools.StatusError, "Not run", 0),
				turnFinished(agent.FinishBudget, 1, fmt.Errorf("stopped: %w", agent.ErrBudget)),
			},
			want: []string{"item.started agent_message"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, m := range projectAll(tc.evs) {
				switch m := m.(type) {
				case ItemStarted:
					got = append(got, m.Type+" "+m.Item.Type)
				case ItemCompleted:
					got = append(got, m.Type+" "+m.Item.Type)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("item lines:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}
