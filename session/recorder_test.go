package session

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
)

// roundTrip is one scenario: a turn of a real agent whose log must restore
// to exactly the agent's conversation.
type roundTrip struct {
	name     string
	policy   agent.Policy
	maxSteps int
	files    map[string]string
	scripts  []script
	decide   func(*agent.ApprovalRequest) agent.Decision
	// cancelAt cancels the turn when the first event of this kind arrives.
	cancelAt agent.EventKind
	// check looks at the restored state and the raw records.
	check func(t *testing.T, h *harness, st State, raw []Record)
}

func roundTrips() []roundTrip {
	return []roundTrip{
		{
			name:    "text and reasoning",
			scripts: []script{{Deltas: []provider.Delta{reasoning("Think "), reasoning("more."), text("Hel"), text("lo."), usage(100, 10, 50), finish(provider.FinishStop)}}},
			check: func(t *testing.T, _ *harness, st State, raw []Record) {
				e := st.Entries
				if len(e) != 2 || e[1].Kind != EntryAssistant || e[1].Text != "Hello." || e[1].Reasoning != "Think more." {
					t.Errorf("entries = %+v", e)
				}
				if st.Usage != (provider.Usage{PromptTokens: 100, CompletionTokens: 10, CachedPromptTokens: 50}) {
					t.Errorf("usage = %+v", st.Usage)
				}
				m := findBody[AssistantMessage](raw)
				if len(m) != 1 || m[0].Stream == "" {
					t.Errorf("assistant messages = %+v, want one with its stream id", m)
				}
			},
		},
		{
			name:  "tools with approvals, output and checkpoints",
			files: map[string]string{"a.txt": "one\n"},
			scripts: []script{
				calls("Let me look.", "read_file", args("path", "a.txt")),
				calls("", "edit_file", args("path", "a.txt", "old_string", "one", "new_string", "two"),
					"write_file", args("path", "b.txt", "content", "hi\n"),
					"run_shell", args("command", "command echo out"),
					"run_shell", args("command", "date")),
				answer("Done."),
			},
			decide: func(r *agent.ApprovalRequest) agent.Decision {
				switch {
				case r.Call.Name == "write_file":
					return agent.Decision{Kind: agent.AllowSession}
				case strings.Contains(string(r.Call.Args), "date"):
					return agent.Decision{Kind: agent.DenyWithMessage, Message: "not now"}
				}
				return agent.Decision{Kind: agent.AllowOnce}
			},
			check: func(t *testing.T, h *harness, st State, raw []Record) {
				if !reflect.DeepEqual(st.Grants, []string{"edit"}) {
					t.Errorf("grants = %v, want [edit]", st.Grants)
				}
				var decisions []string
				for _, a := range findBody[Approval](raw) {
					decisions = append(decisions, a.Tool+":"+string(a.Decision))
				}
				want := []string{"edit_file:allow_once", "write_file:allow_session", "run_shell:allow_once", "run_shell:denied_with_message"}
				if !reflect.DeepEqual(decisions, want) {
					t.Errorf("approvals = %v, want %v", decisions, want)
				}
				var cps []string
				for _, c := range findBody[Checkpoint](raw) {
					cps = append(cps, c.Path)
					if c.Turn != 1 || c.After == "" {
						t.Errorf("checkpoint %+v: want turn 1 and the content after", c)
					}
				}
				if !reflect.DeepEqual(cps, []string{"a.txt", "b.txt"}) {
					t.Errorf("checkpoints = %v", cps)
				}
				var tools []string
				for _, e := range st.Entries {
					if e.Kind == EntryTool {
						tools = append(tools, e.Tool.Name+":"+string(e.Tool.Result.Status))
						if e.Tool.Name != "read_file" && e.Tool.Approval == nil {
							t.Errorf("%s has no approval in the transcript", e.Tool.Name)
						}
					}
				}
				if want := []string{"read_file:ok", "edit_file:ok", "write_file:ok", "run_shell:ok", "run_shell:denied"}; !reflect.DeepEqual(tools, want) {
					t.Errorf("tool entries = %v, want %v", tools, want)
				}
				if got, _ := h.file("a.txt"); got != "two\n" {
					t.Errorf("a.txt = %q", got)
				}
			},
		},
		{
			name:   "automatic approvals",
			policy: agent.PolicyFullAuto,
			scripts: []script{
				calls("", "run_shell", args("command", "command echo auto")),
				answer("ok"),
			},
			check: func(t *testing.T, _ *harness, _ State, raw []Record) {
				a := findBody[Approval](raw)
				if len(a) != 1 || !a[0].Auto || a[0].Decision != DecisionAllowOnce || !strings.Contains(a[0].Message, "full-auto") {
					t.Errorf("approvals = %+v, want one automatic allow naming the policy", a)
				}
				if len(findBody[Grant](raw)) != 0 {
					t.Error("an automatic approval granted something")
				}
			},
		},
		{
			name: "retry drops the failed attempt",
			scripts: []script{
				{Deltas: []provider.Delta{text("partial")}, Err: &provider.Error{Kind: provider.ErrServer, Message: "overloaded", RetryAfter: time.Millisecond}},
				answer("whole"),
			},
			check: func(t *testing.T, _ *harness, st State, _ []Record) {
				if last := st.Entries[len(st.Entries)-1]; last.Text != "whole" {
					t.Errorf("last entry = %+v, want the retried answer only", last)
				}
			},
		},
		{
			name:     "cancelled mid-answer keeps the partial text",
			scripts:  []script{{Deltas: []provider.Delta{text("I will")}, Hang: true}},
			cancelAt: agent.EventTextDelta,
			check: func(t *testing.T, _ *harness, st State, raw []Record) {
				last := st.Entries[len(st.Entries)-1]
				if !last.Interrupted || last.Text != "I will" {
					t.Errorf("last entry = %+v, want the interrupted answer", last)
				}
				m := findBody[AssistantMessage](raw)
				if len(m) != 1 || !m[0].Interrupted || m[0].Text != "I will" || m[0].Stream == "" || len(m[0].ToolCalls) != 0 {
					t.Errorf("assistant messages = %+v, want the partial text, marked interrupted, under its stream", m)
				}
			},
		},
		{
			name:    "an answer of only reasoning shows but is not kept",
			scripts: []script{{Deltas: []provider.Delta{reasoning("Nothing to say."), usage(10, 3, 0), finish(provider.FinishStop)}}},
			check: func(t *testing.T, _ *harness, st State, raw []Record) {
				m := findBody[AssistantMessage](raw)
				if len(m) != 1 || m[0].Reasoning != "Nothing to say." || m[0].Text != "" || m[0].Interrupted {
					t.Errorf("assistant messages = %+v, want the reasoning alone", m)
				}
				if last := st.Entries[len(st.Entries)-1]; last.Kind != EntryAssistant || last.Reasoning != "Nothing to say." {
					t.Errorf("last entry = %+v, want the reasoning", last)
				}
			},
		},
		{
			name: "cancelled with a call half streamed",
			scripts: []script{{Deltas: []provider.Delta{text("Reading"), {Kind: provider.DeltaToolCall, ToolCall: provider.ToolCallFragment{
				HasIndex: true, ID: "gw_half", Name: "read_file", Arguments: `{"pa`}}}, Hang: true}},
			cancelAt: agent.EventToolCallStarted,
			check: func(t *testing.T, _ *harness, st State, _ []Record) {
				var tool *ToolEntry
				for _, e := range st.Entries {
					if e.Kind == EntryTool {
						tool = e.Tool
					}
				}
				if tool == nil || tool.Result == nil || tool.Result.Status != StatusCancelled {
					t.Errorf("the abandoned call is not in the transcript as cancelled: %+v", tool)
				}
			},
		},
		{
			name:     "cancelled while an approval waits",
			scripts:  []script{calls("", "run_shell", args("command", "command echo never"))},
			decide:   func(*agent.ApprovalRequest) agent.Decision { return agent.Decision{} },
			cancelAt: agent.EventApprovalRequested,
			check: func(t *testing.T, _ *harness, _ State, raw []Record) {
				a := findBody[Approval](raw)
				if len(a) != 1 || a[0].Decision != DecisionCancelled {
					t.Errorf("approvals = %+v, want one cancelled", a)
				}
			},
		},
		{
			name:    "failed turn drops the partial answer",
			scripts: []script{{Deltas: []provider.Delta{text("half")}, Err: &provider.Error{Kind: provider.ErrBadRequest, Message: "bad request"}}},
			check: func(t *testing.T, _ *harness, st State, _ []Record) {
				last := st.Entries[len(st.Entries)-1]
				if last.Kind != EntryError || last.ErrorKind != "bad_request" {
					t.Errorf("last entry = %+v, want the error", last)
				}
				if len(st.Messages) != 1 {
					t.Errorf("conversation = %s, want the prompt alone", dump(st.Messages))
				}
			},
		},
		{
			name:     "step limit",
			maxSteps: 1,
			files:    map[string]string{"a.txt": "x"},
			scripts:  []script{calls("", "read_file", args("path", "a.txt"))},
			check: func(t *testing.T, _ *harness, st State, _ []Record) {
				last := st.Entries[len(st.Entries)-1]
				if last.Kind != EntryError || last.ErrorKind != "step_limit" {
					t.Errorf("last entry = %+v, want the step limit", last)
				}
			},
		},
		{
			name:    "cut off at the token limit",
			scripts: []script{{Deltas: []provider.Delta{text("long answer"), usage(10, 4096, 0), finish(provider.FinishLength)}}},
			check: func(t *testing.T, _ *harness, st State, _ []Record) {
				n := len(st.Entries)
				if n < 2 || st.Entries[n-2].Kind != EntryAssistant || st.Entries[n-1].Kind != EntryError || st.Entries[n-1].ErrorKind != "warning" {
					t.Errorf("entries = %+v, want the answer, then the warning", st.Entries)
				}
			},
		},
		{
			name: "unknown tool and arguments that are not JSON",
			scripts: []script{
				calls("", "no_such_tool", `{}`, "read_file", "not json at all"),
				answer("sorry"),
			},
			check: func(t *testing.T, _ *harness, st State, raw []Record) {
				var statuses []Status
				for _, e := range st.Entries {
					if e.Kind == EntryTool {
						statuses = append(statuses, e.Tool.Result.Status)
					}
				}
				if !reflect.DeepEqual(statuses, []Status{StatusError, StatusError}) {
					t.Errorf("statuses = %v", statuses)
				}
				// The arguments as the agent keeps them: {} for ones it
				// could not repair.
				m := findBody[AssistantMessage](raw)
				if len(m) == 0 || len(m[0].ToolCalls) != 2 || m[0].ToolCalls[0].Arguments != `{}` || m[0].ToolCalls[1].Arguments != `{}` {
					t.Errorf("assistant messages = %+v", m)
				}
			},
		},
		{
			name: "metered requests, one without usage",
			scripts: []script{
				calls("Let me look.", "read_file", args("path", "a.txt")),
				{Deltas: []provider.Delta{text("It says one."), finish(provider.FinishStop)}},
			},
			files: map[string]string{"a.txt": "one\n"},
			check: func(t *testing.T, h *harness, st State, raw []Record) {
				reqs := findBody[Request](raw)
				if len(reqs) != 2 || reqs[0].Step != 1 || reqs[1].Step != 2 || reqs[1].Bytes <= reqs[0].Bytes ||
					reqs[1].ToolResults != 1 || reqs[1].ToolResultBytes == 0 || reqs[1].PrefixBytes == 0 || reqs[1].Tokens == 0 {
					t.Errorf("request records = %+v", reqs)
				}
				us := findBody[Usage](raw)
				if len(us) != 2 || us[0].Estimated || !us[1].Estimated || us[1].Prompt != reqs[1].Tokens {
					t.Errorf("usage records = %+v", us)
				}
				if !st.LastEstimated || st.Estimated != st.LastUsage || st.Usage == st.Estimated {
					t.Errorf("state usage %+v, estimated %+v (last %v)", st.Usage, st.Estimated, st.LastEstimated)
				}
				var marked []bool
				for _, ev := range st.Replay() {
					if ev.Kind == agent.EventUsage {
						marked = append(marked, ev.Response != nil && ev.Response.Estimated)
					}
				}
				if !reflect.DeepEqual(marked, []bool{false, true}) {
					t.Errorf("replayed usage estimated = %v, want the reported part then the estimate", marked)
				}
				s, err := Load(h.w.Path())
				if err != nil {
					t.Fatal(err)
				}
				if md := Export(s); !strings.Contains(md, "- Tokens: ~") || !strings.Contains(md, "partly estimated") {
					t.Errorf("the export does not mark the estimate:\n%s", md)
				}
			},
		},
	}
}

// TestRecorderRoundTrip runs each scenario on a real agent, then checks
// that the log restores to exactly the agent's conversation, and that an
// agent resumed from it sends that conversation, byte for byte, as the
// prefix of its next request. Together the scenarios produce every event
// kind.
func TestRecorderRoundTrip(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	seen := map[agent.EventKind]bool{}
	t.Run("scenarios", func(t *testing.T) {
		for _, tc := range roundTrips() {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				h := newHarness(t, harnessOptions{files: tc.files, policy: tc.policy, maxSteps: tc.maxSteps})
				h.prov.Add(tc.scripts...)
				h.decide = tc.decide
				if tc.cancelAt != 0 {
					once := sync.Once{}
					h.onEvent = func(ev agent.Event) {
						if ev.Kind == tc.cancelAt {
							once.Do(h.a.Cancel)
						}
					}
				}
				evs := h.turn("do it")
				mu.Lock()
				for _, ev := range evs {
					seen[ev.Kind] = true
				}
				mu.Unlock()
				st := h.restored()
				h.checkConversation(st)
				raw := rawRecords(t, h.w.Path())
				if tc.check != nil {
					tc.check(t, h, st, raw)
				}
				want := h.a.Messages()
				h.close()
				checkResume(t, h, st, want)
			})
		}
	})
	for k := agent.EventTurnStarted; k <= agent.EventError; k++ {
		if !seen[k] {
			t.Errorf("no scenario produced %s", k)
		}
	}
	if !seen[agent.EventMessageAppended] {
		t.Errorf("no scenario produced %s", agent.EventMessageAppended)
	}
}

// checkResume continues a session from its restored state and checks the
// next request repeats the conversation exactly.
func checkResume(t *testing.T, h *harness, st State, want []provider.Message) {
	t.Helper()
	h2 := newHarness(t, harnessOptions{resume: &st, path: h.w.Path(), home: h.home, ws: h.ws})
	h2.prov.Add(answer("again"))
	h2.turn("next")
	reqs := h2.prov.Requests()
	if len(reqs) != 1 {
		t.Fatalf("resumed agent made %d requests", len(reqs))
	}
	want = append(cloneConv(want), provider.Message{Role: provider.RoleUser, Content: "next"})
	if got := reqs[0].Messages; !reflect.DeepEqual(nilIfEmpty(got), nilIfEmpty(want)) {
		t.Errorf("resumed request differs\n got: %s\nwant: %s", dump(got), dump(want))
	}
	if reqs[0].Model != st.Model {
		t.Errorf("resumed model = %s, want %s", reqs[0].Model, st.Model)
	}
	st2 := h2.restored()
	if n := len(st2.Turns); n == 0 || st2.Turns[n-1].Turn != st.LastTurn+1 {
		t.Errorf("resumed turns = %+v, want the next one numbered %d", st2.Turns, st.LastTurn+1)
	}
}

// findBody returns the records of type B, in order.
func findBody[B Body](rs []Record) []B {
	var out []B
	for _, r := range rs {
		if b, ok := r.Body.(B); ok {
			out = append(out, b)
		}
	}
	return out
}

func TestRecorderStreamsDeltasAndSupersedesThem(t *testing.T) {
	t.Parallel()
	w, err := Create(t.TempDir(), testHeader(), WithFlushInterval(time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = w.Close() }()
	r := NewRecorder(w)
	r.Handle(agent.Event{Kind: agent.EventTurnStarted, Turn: 1, Text: "hi"})
	r.Handle(agent.Event{Kind: agent.EventTextDelta, Turn: 1, Text: "Hel"})
	deadline := time.Now().Add(5 * time.Second)
	for len(findBody[AssistantDelta](rawRecords(t, w.Path()))) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the streamed text was never flushed")
		}
		time.Sleep(2 * time.Millisecond)
	}
	// A crash now loses nothing already flushed: Load recovers it.
	s, err := Load(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := Restore(s); len(st.Messages) != 2 || st.Messages[1].Content != agent.InterruptedMessage("Hel", "").Content {
		t.Errorf("recovered conversation = %s", dump(st.Messages))
	}
	r.Handle(agent.Event{Kind: agent.EventTextDelta, Turn: 1, Text: "lo"})
	r.Handle(agent.Event{Kind: agent.EventUsage, Turn: 1})
	r.Handle(agent.Event{Kind: agent.EventTurnFinished, Turn: 1, Finish: &agent.Finish{Reason: agent.FinishDone}})
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	s, err = Load(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	msgs := findBody[AssistantMessage](s.Records)
	if len(msgs) != 1 || msgs[0].Text != "Hello" || msgs[0].Interrupted {
		t.Errorf("messages = %+v, want the whole answer superseding its deltas", msgs)
	}
	var deltaText string
	for _, d := range findBody[AssistantDelta](rawRecords(t, w.Path())) {
		deltaText += d.Text
	}
	if !strings.HasPrefix("Hello", deltaText) || deltaText == "" {
		t.Errorf("deltas hold %q, want the text streamed before the answer ended, each part once", deltaText)
	}
}

func TestRecorderChangesOfModelAndPolicy(t *testing.T) {
	t.Parallel()
	w, err := Create(t.TempDir(), testHeader())
	if err != nil {
		t.Fatal(err)
	}
	r := NewRecorder(w)
	r.StartAfter(4)
	r.Handle(agent.Event{Kind: agent.EventTurnStarted, Turn: 1, Text: "hi"})
	r.ModelChanged("model-b")
	r.PolicyChanged(agent.PolicyReadOnly)
	if err := r.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := Load(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	st, err := Restore(s)
	if err != nil {
		t.Fatal(err)
	}
	if st.Model != "model-b" || st.Policy != agent.PolicyReadOnly || st.LastTurn != 5 {
		t.Errorf("model %s policy %s last turn %d; want model-b, read-only, 5", st.Model, st.Policy, st.LastTurn)
	}
}

func TestTapPassesEveryEventAndCloses(t *testing.T) {
	t.Parallel()
	w, err := Create(t.TempDir(), testHeader())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = w.Close() }()
	in := make(chan agent.Event, 4)
	out := NewRecorder(w).Tap(context.Background(), in)
	in <- agent.Event{Kind: agent.EventTurnStarted, Text: "a"}
	in <- agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}}
	close(in)
	var got []agent.EventKind
	for ev := range out {
		got = append(got, ev.Kind)
	}
	if !slices.Equal(got, []agent.EventKind{agent.EventTurnStarted, agent.EventTurnFinished}) {
		t.Errorf("passed on %v", got)
	}
	if s, err := Load(w.Path()); err != nil || len(findBody[UserMessage](s.Records)) != 1 {
		t.Errorf("log = %+v, %v; want the user message", s, err)
	}
}

// TestRestoreAnswersCallsLeftWithoutResult covers a crash while a tool ran:
// the call gets a result saying it may have run partially (a command is
// killed with tern, but may have done part of its work), so the next
// request is valid and the model checks before running it again.
func TestRestoreAnswersCallsLeftWithoutResult(t *testing.T) {
	t.Parallel()
	s := &Session{Header: testHeader(), Records: []Record{
		{Seq: 1, Body: UserMessage{Turn: 1, Text: "go"}},
		{Seq: 2, Body: AssistantMessage{ToolCalls: []ToolCall{{ID: "c1", Name: "run_shell", Arguments: `{"command":"make"}`}, {ID: "c2", Name: "read_file", Arguments: `{"path":"x"}`}}}},
		{Seq: 3, Body: ToolResult{CallID: "c1", Tool: "run_shell", Status: StatusOK, Output: "built"}},
	}}
	s.Header.Workspace = ""
	st, err := Restore(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Messages) != 4 || st.Messages[3].ToolCallID != "c2" || !strings.Contains(st.Messages[3].Content, "may have run partially: check before running it again") {
		t.Fatalf("conversation = %s", dump(st.Messages))
	}
	if len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], "c2") {
		t.Errorf("warnings = %q", st.Warnings)
	}
	b, _ := json.Marshal(st.Messages[2])
	if !strings.Contains(string(b), `status=\"ok\"`) {
		t.Errorf("tool message = %s", b)
	}
}

// TestCheckpointsBelongToTheTurnThatMadeThem covers a Recorder that lags
// behind the agent: a change queued before the Recorder saw its turn start
// still gets that turn's number.
func TestCheckpointsBelongToTheTurnThatMadeThem(t *testing.T) {
	t.Parallel()
	w, err := Create(t.TempDir(), testHeader())
	if err != nil {
		t.Fatal(err)
	}
	r := NewRecorder(w)
	cp := NewCheckpointer(r, nil)
	dir := t.TempDir()
	abs := dir + "/a.txt"
	r.Handle(agent.Event{Kind: agent.EventTurnStarted, Text: "one"})
	r.Handle(agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
	// The agent is already running turn 2's tool ...
	if err := cp.BeforeWrite(abs, "a.txt"); err != nil {
		t.Fatal(err)
	}
	cp.AfterWrite(abs, "a.txt", []byte("new"))
	// ... when the Recorder sees turn 2 start.
	r.Handle(agent.Event{Kind: agent.EventTurnStarted, Text: "two"})
	r.Handle(agent.Event{Kind: agent.EventToolFinished, Call: &agent.Call{ID: "c", Name: "write_file"}, Result: &agent.ToolResult{}})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := Load(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	cps := findBody[Checkpoint](s.Records)
	if len(cps) != 1 || cps[0].Turn != 2 || cps[0].Hash != Absent || cps[0].After == "" {
		t.Errorf("checkpoints = %+v, want one of turn 2 from absent", cps)
	}
}

// BenchmarkRecorderDelta measures what recording one streamed fragment
// costs the event consumer.
func BenchmarkRecorderDelta(b *testing.B) {
	w, err := Create(b.TempDir(), testHeader())
	if err != nil {
		b.Fatal(err)
	}
	r := NewRecorder(w)
	r.Handle(agent.Event{Kind: agent.EventTurnStarted, Text: "go"})
	ev := agent.Event{Kind: agent.EventTextDelta, Text: "token "}
	b.ReportAllocs()
	for b.Loop() {
		r.Handle(ev)
	}
	b.StopTimer()
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
}
