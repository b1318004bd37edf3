package agent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

const (
	kStart    = EventTurnStarted
	kText     = EventTextDelta
	kReason   = EventReasoningDelta
	kCall     = EventToolCallStarted
	kReady    = EventToolCallReady
	kAsk      = EventApprovalRequested
	kResolved = EventApprovalResolved
	kRunning  = EventToolRunning
	kOutput   = EventToolOutput
	kDone     = EventToolFinished
	kUsage    = EventUsage
	kRetry    = EventRetrying
	kEnd      = EventTurnFinished
	kError    = EventError
)

func TestTextOnlyTurn(t *testing.T) {
	t.Parallel()
	read, _, _ := fakeTools()
	h := newHarness(t, tools.NewRegistry(read), nil, script{Deltas: []provider.Delta{
		reasoning("think"), text("Hel"), text("lo"), usage(10, 5), finish(provider.FinishStop)}})
	evs := h.turn("hi", nil)
	wantKinds(t, evs, kStart, kReason, kText, kText, kUsage, kEnd)
	if evs[0].Text != "hi" || evs[0].Turn != 1 {
		t.Errorf("turn started = %+v", evs[0])
	}
	fin := finishOf(t, evs)
	if fin.Reason != FinishDone || fin.Steps != 1 || fin.Usage != (provider.Usage{PromptTokens: 10, CompletionTokens: 5}) || fin.Err != nil {
		t.Errorf("finish = %+v", fin)
	}
	msgs := h.a.Messages()
	if len(msgs) != 3 || msgs[0].Role != provider.RoleSystem || msgs[1].Content != "hi" ||
		msgs[2].Content != "Hello" || msgs[2].Reasoning != "think" {
		t.Errorf("history:\n%s", dumpHistory(msgs))
	}
	if reqs := h.prov.Requests(); len(reqs) != 1 || reqs[0].Model != "test-model" || len(reqs[0].Tools) != 1 {
		t.Errorf("requests = %+v", reqs)
	}
}

func TestToolTurn(t *testing.T) {
	t.Parallel()
	read, _, _ := fakeTools()
	read.run = func(_ context.Context, args json.RawMessage, _ func(string)) tools.Result {
		return tools.Result{Status: tools.StatusOK, Output: "1\tpackage main\n", Summary: "1 line"}
	}
	h := newHarness(t, tools.NewRegistry(read), nil, calls("read_file", `{"path":"main.go"}`), answer("It is ", "main."))
	evs := h.turn("what is main.go?", nil)
	wantKinds(t, evs, kStart, kCall, kReady, kUsage, kRunning, kDone, kText, kText, kUsage, kEnd)
	started, ready, done := evs[1].Call, evs[2].Call, evs[5]
	if started.ID != "gw_read_file_0" || started.Name != "read_file" || started.Args != nil {
		t.Errorf("started call = %+v", started)
	}
	if ready.ID != started.ID || string(ready.Args) != `{"path":"main.go"}` {
		t.Errorf("ready call = %+v args %s", ready, ready.Args)
	}
	if done.Result.Status != tools.StatusOK || done.Result.Summary != "1 line" || done.Call.ID != started.ID {
		t.Errorf("tool finished = %+v", done.Result)
	}
	fin := finishOf(t, evs)
	if fin.Reason != FinishDone || fin.Steps != 2 || fin.Usage != (provider.Usage{PromptTokens: 30, CompletionTokens: 12}) {
		t.Errorf("finish = %+v", fin)
	}
	msgs := h.a.Messages()
	checkHistory(t, msgs)
	toolMsg := msgs[3]
	want := "<tool_result name=\"read_file\" status=\"ok\">\n1\tpackage main\n</tool_result>"
	if toolMsg.Role != provider.RoleTool || toolMsg.ToolCallID != started.ID || toolMsg.Content != want {
		t.Errorf("tool message = %+v", toolMsg)
	}
	reqs := h.prov.Requests()
	if len(reqs) != 2 || len(reqs[1].Messages) != 4 || reqs[1].Messages[3].Content != want {
		t.Fatalf("second request does not carry the result: %+v", reqs)
	}
}

func TestParallelCalls(t *testing.T) {
	t.Parallel()
	read, _, _ := fakeTools()
	// Interleaved fragments of two calls, as gateways stream parallel calls.
	s := script{Deltas: []provider.Delta{
		text("Reading both."),
		callFrag(0, "a", "read_file", `{"pa`),
		callFrag(1, "b", "read_file", `{"path":`),
		callFrag(0, "", "", `th":"x"}`),
		callFrag(1, "", "", `"y"}`),
		usage(5, 5), finish(provider.FinishToolCalls),
	}}
	h := newHarness(t, tools.NewRegistry(read), nil, s, answer("done"))
	evs := h.turn("read x and y", nil)
	// Two reads run at once; their results keep the order of the calls.
	wantKinds(t, evs, kStart, kText, kCall, kCall, kReady, kReady, kUsage,
		kRunning, kRunning, kDone, kDone, kText, kUsage, kEnd)
	if got := read.runs(); len(got) != 2 {
		t.Errorf("runs = %v", got)
	}
	if evs[9].Call.ID != "a" || evs[10].Call.ID != "b" {
		t.Errorf("results out of order: %v %v", evs[9].Call, evs[10].Call)
	}
	msgs := h.a.Messages()
	checkHistory(t, msgs)
	if msgs[2].Content != "Reading both." || len(msgs[2].ToolCalls) != 2 {
		t.Errorf("assistant message = %+v", msgs[2])
	}
}

func TestCallIDsAssignedAndUnique(t *testing.T) {
	t.Parallel()
	read, _, _ := fakeTools()
	noIDs := script{Deltas: []provider.Delta{
		{Kind: provider.DeltaToolCall, ToolCall: provider.ToolCallFragment{Name: "read_file", Arguments: `{"path":"a"}`}},
		{Kind: provider.DeltaToolCall, ToolCall: provider.ToolCallFragment{Name: "read_file", Arguments: `{"path":"b"}`}},
		finish(provider.FinishStop), // some gateways say stop even with calls
	}}
	// A gateway that reuses the same id in every answer.
	sameID := script{Deltas: []provider.Delta{callFrag(0, "call_1", "read_file", `{"path":"c"}`), finish(provider.FinishToolCalls)}}
	h := newHarness(t, tools.NewRegistry(read), nil, noIDs, sameID, sameID, answer("ok"))
	evs := h.turn("go", nil)
	var ids []string
	for _, e := range eventsOf(evs, kReady) {
		ids = append(ids, e.Call.ID)
	}
	if strings.Join(ids, " ") != "call_1 call_2 call_3 call_4" {
		t.Errorf("ids = %v", ids)
	}
	if n := len(read.runs()); n != 4 {
		t.Errorf("ran %d calls, want 4 (calls are run even when the finish reason is stop)", n)
	}
	checkHistory(t, h.a.Messages())
}

func TestDeniedCall(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		decision Decision
		want     string
	}{
		{"deny", Decision{Kind: Deny}, "The user denied this call, so it was not run. Do not retry the same call"},
		{"deny with message", Decision{Kind: DenyWithMessage, Message: "use sed instead"}, "and said: use sed instead"},
		{"deny with empty message", Decision{Kind: DenyWithMessage}, "Do not retry the same call"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, edit, _ := fakeTools()
			h := newHarness(t, tools.NewRegistry(edit), nil, calls("edit_file", `{"path":"a.go"}`), answer("ok"))
			evs := h.turn("edit", reply(tc.decision))
			wantKinds(t, evs, kStart, kCall, kReady, kUsage, kAsk, kResolved, kDone, kText, kUsage, kEnd)
			ask, res := evs[4].Approval, evs[6].Result
			if ask.ID != "ap_1" || ask.Kind != tools.KindEdit || ask.Preview.Title != `edit_file {"path":"a.go"}` ||
				ask.Scope != (Scope{Key: "edit", Label: "edits inside this workspace"}) || ask.Always || ask.Call.Name != "edit_file" {
				t.Errorf("request = %+v", ask)
			}
			if evs[5].Decision != tc.decision || evs[5].Approval != ask {
				t.Errorf("resolved = %+v", evs[5])
			}
			if res.Status != tools.StatusDenied || !strings.Contains(res.Output, tc.want) {
				t.Errorf("result = %+v", res)
			}
			if len(edit.runs()) != 0 {
				t.Error("denied edit ran")
			}
			msgs := h.a.Messages()
			checkHistory(t, msgs)
			if !strings.Contains(msgs[3].Content, `status="denied"`) || !strings.Contains(msgs[3].Content, tc.want) {
				t.Errorf("tool message = %q", msgs[3].Content)
			}
		})
	}
}

func TestAllowOnceRunsAndStreamsOutput(t *testing.T) {
	t.Parallel()
	_, _, shell := fakeTools()
	shell.run = func(_ context.Context, _ json.RawMessage, out func(string)) tools.Result {
		out("PASS\n")
		out("ok\n")
		return tools.Result{Status: tools.StatusOK, Output: "PASS\nok\n", ExitCode: 0, Summary: "exit 0"}
	}
	h := newHarness(t, tools.NewRegistry(shell), nil, calls("run_shell", `{"command":"go test ./..."}`), answer("green"))
	evs := h.turn("test", reply(Decision{Kind: AllowOnce}))
	wantKinds(t, evs, kStart, kCall, kReady, kUsage, kAsk, kResolved, kRunning, kOutput, kOutput, kDone, kText, kUsage, kEnd)
	if evs[7].Text != "PASS\n" || evs[8].Text != "ok\n" {
		t.Errorf("output events %q %q", evs[7].Text, evs[8].Text)
	}
	if sc := evs[4].Approval.Scope; sc.Key != "run_shell:go test" || sc.Label != "commands starting with `go test`" {
		t.Errorf("scope = %+v", sc)
	}
	if d := evs[9].Result.Duration; d <= 0 {
		t.Errorf("duration = %v", d)
	}
}

func TestPreviewErrorIsTheResult(t *testing.T) {
	t.Parallel()
	_, edit, _ := fakeTools()
	edit.preview = func(context.Context, json.RawMessage) (tools.Preview, error) {
		return tools.Preview{}, errors.New("old_string not found in a.go; the closest region is lines 3-5")
	}
	h := newHarness(t, tools.NewRegistry(edit), nil, calls("edit_file", `{"path":"a.go"}`), answer("retrying"))
	evs := h.turn("edit", reply(Decision{Kind: AllowOnce}))
	wantKinds(t, evs, kStart, kCall, kReady, kUsage, kDone, kText, kUsage, kEnd)
	if r := evs[4].Result; r.Status != tools.StatusError || !strings.Contains(r.Output, "closest region is lines 3-5") {
		t.Errorf("result = %+v", r)
	}
	if len(edit.runs()) != 0 {
		t.Error("edit ran")
	}
	checkHistory(t, h.a.Messages())
}

func TestInvalidCalls(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, tool, args string
		want             []string
		wantArgs         string
	}{
		{"unknown tool", "delete_everything", `{}`, []string{`no tool named "delete_everything"`, "edit_file, read_file"}, `{}`},
		{"wrong type", "read_file", `{"path": 3}`, []string{`"path"`, "string", "Expected parameters of read_file (JSON Schema): " +
			`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`}, `{"path":3}`},
		{"missing field", "read_file", `{}`, []string{`missing required field "path"`, "Expected parameters"}, `{}`},
		{"broken JSON", "read_file", `{"path": "a.go" "limit": 3}`, []string{"not valid JSON", `Arguments received: {"path": "a.go" "limit": 3}`, "Expected parameters"}, `{}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			read, edit, _ := fakeTools()
			h := newHarness(t, tools.NewRegistry(read, edit), nil, calls(tc.tool, tc.args), answer("sorry"))
			evs := h.turn("go", nil)
			wantKinds(t, evs, kStart, kCall, kReady, kUsage, kDone, kText, kUsage, kEnd)
			r := evs[4].Result
			if r.Status != tools.StatusError {
				t.Errorf("status = %v", r.Status)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.Output, w) {
					t.Errorf("result %q\nlacks %q", r.Output, w)
				}
			}
			if len(read.runs())+len(edit.runs()) != 0 {
				t.Error("an invalid call ran")
			}
			msgs := h.a.Messages()
			checkHistory(t, msgs)
			if got := msgs[2].ToolCalls[0].Arguments; got != tc.wantArgs {
				t.Errorf("stored arguments = %s, want %s", got, tc.wantArgs)
			}
		})
	}
}

func TestRepairedArgumentsRun(t *testing.T) {
	t.Parallel()
	read, _, _ := fakeTools()
	h := newHarness(t, tools.NewRegistry(read), nil,
		calls("read_file", "```json\n{\"arguments\": {\"path\": \"a.go\",}}\n```"), answer("ok"))
	evs := h.turn("go", nil)
	if r := eventsOf(evs, kDone)[0].Result; r.Status != tools.StatusOK {
		t.Fatalf("result = %+v", r)
	}
	if got := read.runs(); len(got) != 1 || got[0] != `{"path":"a.go"}` {
		t.Errorf("ran with %v", got)
	}
	if got := h.a.Messages()[2].ToolCalls[0].Arguments; got != `{"path":"a.go"}` {
		t.Errorf("stored %s", got)
	}
}

func TestFailedTurns(t *testing.T) {
	t.Parallel()
	authErr := &provider.Error{Kind: provider.ErrAuth, Status: 401, Message: "the API key was refused: check TERN_API_KEY"}
	protoErr := &provider.Error{Kind: provider.ErrProtocol, Message: "malformed chunk"}
	for _, tc := range []struct {
		name    string
		scripts []script
		want    []EventKind
		kind    provider.ErrorKind
	}{
		{"refused before output", []script{{StartErr: authErr}}, []EventKind{kStart, kEnd}, provider.ErrAuth},
		{"broken mid-stream", []script{{Deltas: []provider.Delta{text("par")}, Err: protoErr}},
			[]EventKind{kStart, kText, kEnd}, provider.ErrProtocol},
		{"call cut mid-stream", []script{{Deltas: []provider.Delta{callFrag(0, "c", "read_file", `{"pa`)}, Err: protoErr}},
			[]EventKind{kStart, kCall, kDone, kEnd}, provider.ErrProtocol},
		// The provider retries failures before the first delta itself; the
		// agent must not multiply those attempts.
		{"retryable before output is not retried again", []script{
			{StartErr: &provider.Error{Kind: provider.ErrServer, Status: 503}},
			answer("never requested"),
		}, []EventKind{kStart, kEnd}, provider.ErrServer},
		{"retries exhausted", []script{
			{Deltas: []provider.Delta{text("p")}, Err: &provider.Error{Kind: provider.ErrServer, Status: 503}},
			{Deltas: []provider.Delta{text("p")}, Err: &provider.Error{Kind: provider.ErrServer, Status: 503}},
			{Deltas: []provider.Delta{text("p")}, Err: &provider.Error{Kind: provider.ErrServer, Status: 503}},
			{Deltas: []provider.Delta{text("p")}, Err: &provider.Error{Kind: provider.ErrServer, Status: 503}},
		}, []EventKind{kStart, kText, kRetry, kText, kRetry, kText, kRetry, kText, kEnd}, provider.ErrServer},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			read, _, _ := fakeTools()
			h := newHarness(t, tools.NewRegistry(read), nil, tc.scripts...)
			evs := h.turn("hi", nil)
			wantKinds(t, evs, tc.want...)
			fin := finishOf(t, evs)
			if fin.Reason != FinishFailed || provider.KindOf(fin.Err) != tc.kind || last(evs).Err != fin.Err || fin.Steps != 1 {
				t.Errorf("finish = %+v", fin)
			}
			for _, d := range eventsOf(evs, kDone) {
				if d.Result.Status != tools.StatusError {
					t.Errorf("abandoned call status = %v", d.Result.Status)
				}
			}
			msgs := h.a.Messages()
			checkHistory(t, msgs)
			if len(msgs) != 2 {
				t.Errorf("failed answer kept in history:\n%s", dumpHistory(msgs))
			}
		})
	}
}

func TestRetriedTurns(t *testing.T) {
	t.Parallel()
	serverErr := &provider.Error{Kind: provider.ErrServer, Status: 502, Message: "bad gateway"}
	for _, tc := range []struct {
		name    string
		first   script
		want    []EventKind
		discard bool
	}{
		{"after partial text", script{Deltas: []provider.Delta{text("Hal")}, Err: serverErr},
			[]EventKind{kStart, kText, kRetry, kText, kUsage, kEnd}, true},
		{"after a partial call", script{Deltas: []provider.Delta{callFrag(0, "x", "read_file", `{"pa`)}, Err: serverErr},
			[]EventKind{kStart, kCall, kRetry, kText, kUsage, kEnd}, true},
		{"stream ended quietly without finishing", script{Deltas: []provider.Delta{text("Hal")}, Quiet: true},
			[]EventKind{kStart, kText, kRetry, kText, kUsage, kEnd}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			read, _, _ := fakeTools()
			h := newHarness(t, tools.NewRegistry(read), nil, tc.first, answer("Hello"))
			evs := h.turn("hi", nil)
			wantKinds(t, evs, tc.want...)
			r := eventsOf(evs, kRetry)[0].Retry
			if r.Attempt != 2 || r.MaxAttempts != defaultMaxRetries+1 || r.DiscardPartial != tc.discard || r.Wait != time.Millisecond || r.Reason == "" {
				t.Errorf("retry = %+v", r)
			}
			fin := finishOf(t, evs)
			if fin.Reason != FinishDone || fin.Steps != 1 {
				t.Errorf("finish = %+v", fin)
			}
			msgs := h.a.Messages()
			if len(msgs) != 3 || msgs[2].Content != "Hello" {
				t.Errorf("history keeps the failed attempt:\n%s", dumpHistory(msgs))
			}
			if n := len(h.prov.Requests()); n != 2 {
				t.Errorf("%d requests", n)
			}
		})
	}
}

func TestDefaultBackoff(t *testing.T) {
	t.Parallel()
	if d := defaultBackoff(1, errors.New("x")); d != time.Second {
		t.Errorf("first wait %v", d)
	}
	if d := defaultBackoff(3, errors.New("x")); d != 4*time.Second {
		t.Errorf("third wait %v", d)
	}
	if d := defaultBackoff(1, &provider.Error{Kind: provider.ErrRateLimited, RetryAfter: 7 * time.Second}); d != 7*time.Second {
		t.Errorf("retry-after wait %v", d)
	}
	if d := defaultBackoff(1, &provider.Error{Kind: provider.ErrRateLimited, RetryAfter: time.Hour}); d != maxRetryWait {
		t.Errorf("capped wait %v", d)
	}
}

func TestStepLimit(t *testing.T) {
	t.Parallel()
	read, _, _ := fakeTools()
	// The same call each time: the loop guard is off so the step limit
	// alone stops the turn.
	h := newHarness(t, tools.NewRegistry(read), func(o *Options) { o.MaxSteps, o.MaxRepeats = 3, -1 })
	h.prov.Reset(true, calls("read_file", `{"path":"a"}`))
	evs := h.turn("loop forever", nil)
	one := []EventKind{kCall, kReady, kUsage, kRunning, kDone}
	want := []EventKind{kStart}
	for range 3 {
		want = append(want, one...)
	}
	wantKinds(t, evs, append(want, kEnd)...)
	fin := finishOf(t, evs)
	if fin.Reason != FinishStepLimit || fin.Steps != 3 || !errors.Is(fin.Err, ErrStepLimit) ||
		!strings.Contains(fin.Err.Error(), "3 model requests") || fin.Usage.PromptTokens != 60 {
		t.Errorf("finish = %+v", fin)
	}
	if n := len(h.prov.Requests()); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
	checkHistory(t, h.a.Messages())
}

func TestCutOffAnswer(t *testing.T) {
	t.Parallel()
	_, edit, _ := fakeTools()
	cut := script{Deltas: []provider.Delta{callFrag(0, "c", "edit_file", `{"path":"a.go","new`), finish(provider.FinishLength)}}
	h := newHarness(t, tools.NewRegistry(edit), nil, cut, answer("ok"))
	evs := h.turn("edit", reply(Decision{Kind: AllowOnce}))
	wantKinds(t, evs, kStart, kCall, kReady, kError, kDone, kText, kUsage, kEnd)
	if r := evs[4].Result; r.Status != tools.StatusError || !strings.Contains(r.Output, "cut off") {
		t.Errorf("result = %+v", r)
	}
	checkHistory(t, h.a.Messages())
}

func TestSessionRequestsShareTheirPrefix(t *testing.T) {
	t.Parallel()
	read, edit, shell := fakeTools()
	reg := tools.NewRegistry(read, edit, shell)
	system := BuildSystemPrompt(SystemInfo{OS: "linux", Workspace: "/w", Date: time.Date(2026, 3, 4, 15, 4, 5, 0, time.UTC), GitRepo: true}, reg)
	h := newHarness(t, reg, func(o *Options) { o.System = system },
		calls("read_file", `{"path":"a"}`, "read_file", `{"path":"b"}`), answer("first"),
		calls("run_shell", `{"command":"ls"}`), answer("second"))
	h.turn("one", nil)
	h.turn("two", reply(Decision{Kind: Deny}))
	reqs := h.prov.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests", len(reqs))
	}
	for i := 1; i < len(reqs); i++ {
		prev, next := reqs[i-1], reqs[i]
		pm, _ := json.Marshal(prev.Messages)
		nm, _ := json.Marshal(next.Messages)
		prefix := pm[:len(pm)-1] // without the closing ]
		if !strings.HasPrefix(string(nm), string(prefix)) {
			t.Errorf("request %d does not start with request %d's messages:\n%s\n%s", i, i-1, pm, nm)
		}
		pt, _ := json.Marshal(prev.Tools)
		nt, _ := json.Marshal(next.Tools)
		if string(pt) != string(nt) {
			t.Errorf("tools changed between requests %d and %d", i-1, i)
		}
		if next.Messages[0].Content != system || next.Messages[0].Role != provider.RoleSystem {
			t.Errorf("request %d system prompt changed", i)
		}
	}
	var names []string
	for _, s := range reqs[0].Tools {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "read_file,edit_file,run_shell" {
		t.Errorf("tool order %v", names)
	}
}

func TestSubmitBusyResetAndModel(t *testing.T) {
	t.Parallel()
	read, _, _ := fakeTools()
	h := newHarness(t, tools.NewRegistry(read), nil,
		script{Deltas: []provider.Delta{text("a")}, Hang: true}, answer("b"), answer("c"))
	if err := h.a.Submit("one"); err != nil {
		t.Fatal(err)
	}
	if err := h.a.Submit("two"); !errors.Is(err, ErrBusy) {
		t.Errorf("second submit: %v", err)
	}
	if err := h.a.Reset(); !errors.Is(err, ErrBusy) {
		t.Errorf("reset while busy: %v", err)
	}
	if err := h.a.Submit("  "); err == nil {
		t.Error("empty message accepted")
	}
	// The turn hangs until cancelled; a submit right on TurnFinished must be accepted.
	var resubmit error
	h.collect(func(ev Event) {
		if ev.Kind == EventTextDelta {
			h.a.Cancel()
		}
		if ev.Kind == EventTurnFinished {
			h.a.SetModel("other-model")
			resubmit = h.a.Submit("again")
		}
	})
	if resubmit != nil {
		t.Fatalf("submit on TurnFinished: %v", resubmit)
	}
	evs := h.collect(nil)
	if evs[0].Turn != 2 || finishOf(t, evs).Reason != FinishDone {
		t.Errorf("second turn = %v", kinds(evs))
	}
	if reqs := h.prov.Requests(); reqs[1].Model != "other-model" || h.a.Model() != "other-model" {
		t.Errorf("model not switched: %q", reqs[1].Model)
	}
	if err := h.a.Reset(); err != nil {
		t.Fatal(err)
	}
	if msgs := h.a.Messages(); len(msgs) != 1 || msgs[0].Role != provider.RoleSystem {
		t.Errorf("after reset:\n%s", dumpHistory(msgs))
	}
	h.turn("fresh", nil)
	if reqs := h.prov.Requests(); len(reqs[2].Messages) != 2 || reqs[2].Messages[1].Content != "fresh" {
		t.Errorf("request after reset = %+v", reqs[2].Messages)
	}
}

func TestRunStopClosesEvents(t *testing.T) {
	t.Parallel()
	read, _, _ := fakeTools()
	h := newHarness(t, tools.NewRegistry(read), nil, script{Hang: true})
	if err := h.a.Submit("hang"); err != nil {
		t.Fatal(err)
	}
	if ev := <-h.a.Events(); ev.Kind != EventTurnStarted {
		t.Fatalf("first event %v", ev.Kind)
	}
	h.stop()
	select {
	case <-h.done:
	case <-time.After(2 * time.Second):
		t.Fatal("Run did not return after its context was cancelled")
	}
	for range h.a.Events() {
	}
	if err := h.a.Submit("late"); !errors.Is(err, ErrStopped) {
		t.Errorf("submit after stop: %v", err)
	}
	h.a.Run(context.Background()) // a second Run returns at once
}

func TestNewChecksOptions(t *testing.T) {
	t.Parallel()
	read, _, shell := fakeTools()
	reg := tools.NewRegistry(read, shell)
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ok := Options{Provider: &fakeProvider{}, Tools: reg, Workspace: ws}
	for _, tc := range []struct {
		name string
		edit func(*Options)
		want string
	}{
		{"no provider", func(o *Options) { o.Provider = nil }, "no provider"},
		{"no tools", func(o *Options) { o.Tools = nil }, "no tool registry"},
		{"no workspace", func(o *Options) { o.Workspace = nil }, "no workspace"},
		{"bad policy", func(o *Options) { o.Policy = 9 }, "unknown approval policy"},
		{"bad rule", func(o *Options) { o.Rules.Deny = []string{"run_shell:"} }, `deny rule "run_shell:"`},
		{"unknown tool in rule", func(o *Options) { o.Rules.Allow = []string{"run-shell:ls"} }, `unknown tool "run-shell"`},
	} {
		o := ok
		tc.edit(&o)
		if _, err := New(o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
	a, err := New(ok)
	if err != nil {
		t.Fatal(err)
	}
	if a.Policy() != PolicyAsk || a.opts.MaxSteps != DefaultMaxSteps {
		t.Errorf("defaults: policy %v steps %d", a.Policy(), a.opts.MaxSteps)
	}
	a.SetPolicy(PolicyFullAuto)
	a.SetPolicy(0) // ignored
	if a.Policy() != PolicyFullAuto {
		t.Errorf("policy = %v", a.Policy())
	}
}
