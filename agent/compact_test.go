package agent

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// compactNow runs Compact and collects its events until it finishes.
func (h *harness) compactNow(focus string, on func(Event)) []Event {
	h.t.Helper()
	if err := h.a.Compact(focus); err != nil {
		h.t.Fatalf("Compact: %v", err)
	}
	var evs []Event
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev := <-h.a.Events():
			evs = append(evs, ev)
			if on != nil {
				on(ev)
			}
			if ev.Kind == EventCompactionFinished {
				return evs
			}
		case <-timeout:
			h.t.Fatalf("compaction did not finish; got %v", kinds(evs))
		}
	}
}

// bigRead is a read_file fake whose output is n bytes.
func bigRead(n int) *fakeTool {
	return &fakeTool{name: "read_file", kind: tools.KindRead, run: func(context.Context, json.RawMessage, func(string)) tools.Result {
		return tools.Result{Status: tools.StatusOK, Output: strings.Repeat("x", n), Summary: "read"}
	}}
}

// todoCall is a script calling todo_write with items.
func todoCall(items string) script {
	return calls("todo_write", `{"items":`+items+`}`)
}

// bodyBytes is the size of a request's messages as JSON.
func bodyBytes(t *testing.T, req provider.Request) int {
	t.Helper()
	b, err := json.Marshal(req.Messages)
	if err != nil {
		t.Fatal(err)
	}
	return len(b)
}

func TestCompactKeepsPinnedContentAndShrinksTheNextRequest(t *testing.T) {
	t.Parallel()
	first := "Fix the <first_request bytes=\"3\"> parser in parse.go; never touch vendor/."
	h := newHarness(t, tools.NewRegistry(bigRead(6000), tools.NewTodoWrite()), nil,
		todoCall(`[{"text":"read parse.go","status":"done"},{"text":"fix the parser","status":"in_progress"}]`),
		calls("read_file", `{"path":"parse.go"}`),
		answer("The parser drops the last token."),
		calls("read_file", `{"path":"lex.go"}`),
		answer("lex.go is fine."),
		answer("Third answer."),
		answer("## Goal\nFix the parser.\n## Open tasks\n- fix it"),
		answer("Continuing."),
	)
	h.turn(first, nil)
	h.turn("also check lex.go", nil)
	h.turn("what next?", nil)
	before := h.a.Messages()
	evs := h.compactNow("the parser bug", nil)
	wantKinds(t, evs, EventCompactionStarted, EventRequest, EventUsage, EventCompactionFinished)
	fin := last(evs)
	if fin.Err != nil {
		t.Fatalf("compaction failed: %v", fin.Err)
	}
	c := fin.Compaction
	if c.Auto || c.Focus != "the parser bug" || !strings.Contains(c.Summary, "Fix the parser") {
		t.Fatalf("compaction = %+v", c)
	}
	reqs := h.prov.Requests()
	sum := reqs[len(reqs)-1]
	if len(sum.Tools) != 0 {
		t.Fatalf("the summary request offered %d tools", len(sum.Tools))
	}
	if sum.Messages[0].Content != "system prompt" {
		t.Fatalf("the summary request does not start with the system prompt: %q", sum.Messages[0].Content)
	}
	ask := sum.Messages[len(sum.Messages)-1]
	if ask.Role != provider.RoleUser || !strings.HasPrefix(ask.Content, "Compaction request:") || !strings.Contains(ask.Content, "focus on: the parser bug") {
		t.Fatalf("summary request ends with %+v", ask)
	}

	after := h.a.Messages()
	checkHistory(t, after)
	if after[0].Content != before[0].Content {
		t.Fatalf("system prompt changed: %q", after[0].Content)
	}
	p, ok := ParseCompactMessage(after[1].Content)
	if !ok || after[1].Role != provider.RoleUser {
		t.Fatalf("message 1 is not a compaction message: %+v", after[1])
	}
	if p.First != first {
		t.Fatalf("first request pinned as %q, want %q", p.First, first)
	}
	wantTodo := []tools.TodoItem{{Text: "read parse.go", Status: tools.TodoDone}, {Text: "fix the parser", Status: tools.TodoInProgress}}
	if !slices.Equal(p.Todo, wantTodo) {
		t.Fatalf("todo pinned as %+v", p.Todo)
	}
	if !slices.Equal(CurrentTodo(after), wantTodo) || FirstRequest(after) != first {
		t.Fatalf("CurrentTodo/FirstRequest after compaction: %+v %q", CurrentTodo(after), FirstRequest(after))
	}
	// The last turn is kept verbatim after the summary.
	if !slices.EqualFunc(after[2:], before[len(before)-len(after)+2:], func(a, b provider.Message) bool { return a.Content == b.Content && a.Role == b.Role }) {
		t.Fatalf("kept messages differ:\n%s", dumpHistory(after))
	}
	if after[len(after)-1].Content != "Third answer." {
		t.Fatalf("last message %q", after[len(after)-1].Content)
	}
	if c.Replaced+c.Kept+1 != len(before) || c.Kept != len(after)-2 || c.BytesAfter >= c.BytesBefore {
		t.Fatalf("counts: %+v (before %d, after %d messages)", c, len(before), len(after))
	}
	// The estimate of the next prompt counts what is left (and the tool
	// specs), not what was replaced.
	if lo, hi := estimateTokens(after), estimateTokens(before); c.TokensAfter <= lo || c.TokensAfter >= hi {
		t.Fatalf("TokensAfter = %d, want between %d (the messages left) and %d (the messages before)", c.TokensAfter, lo, hi)
	}

	h.turn("go on", nil)
	reqs = h.prov.Requests()
	next, prev := reqs[len(reqs)-1], reqs[len(reqs)-3]
	if nb, pb := bodyBytes(t, next), bodyBytes(t, prev); nb >= pb/2 {
		t.Fatalf("the request after compaction is %d bytes, the last one before it %d", nb, pb)
	}
	if next.Messages[0].Content != before[0].Content || next.Messages[1].Content != after[1].Content {
		t.Fatal("the request after compaction does not start with the system prompt and the compaction message")
	}
}

// autoScripts makes a two-turn conversation whose second turn crosses the
// threshold once the results of its tool call are in.
func autoScripts() []script {
	// The second read asks for another file: the same one would be
	// answered "unchanged since call" and not cross the threshold.
	big := func(p int) script {
		args := `{"path":"big.go"}`
		if p > 20 {
			args = `{"path":"big2.go"}`
		}
		s := calls("read_file", args)
		s.Deltas[len(s.Deltas)-2] = usage(p, 7)
		return s
	}
	done := func(p int) script {
		s := answer("done")
		s.Deltas[len(s.Deltas)-2] = usage(p, 5)
		return s
	}
	return []script{big(20), done(800), big(810), answer("## Goal\nRead big files."), done(300)}
}

func TestAutoCompactionAtTheThresholdBetweenSteps(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tools.NewRegistry(bigRead(3000)), func(o *Options) {
		o.ContextWindow, o.CompactThreshold = 2000, 50
	}, autoScripts()...)
	evs := h.turn("read big.go", nil)
	if len(eventsOf(evs, EventCompactionStarted)) != 0 {
		t.Fatalf("compacted below the threshold: %v", kinds(evs))
	}
	evs = h.turn("read it again", nil)
	ks := kinds(evs)
	start := slices.Index(ks, EventCompactionStarted)
	end := slices.Index(ks, EventCompactionFinished)
	if start < 0 || end < start {
		t.Fatalf("no compaction in the turn that crossed the threshold: %v", ks)
	}
	// Never inside a tool call: every call that started before the
	// compaction finished before it.
	open := map[string]bool{}
	for _, ev := range evs[:start] {
		if ev.Kind == EventToolCallStarted {
			open[ev.Call.ID] = true
		}
		if ev.Kind == EventToolFinished {
			delete(open, ev.Call.ID)
		}
	}
	if len(open) != 0 {
		t.Fatalf("compaction started with calls open: %v (%v)", open, ks)
	}
	c := evs[end].Compaction
	if !c.Auto || c.Tokens < 1000 || c.Window != 2000 || evs[end].Err != nil {
		t.Fatalf("compaction = %+v, err %v", c, evs[end].Err)
	}
	if last(evs).Finish.Reason != FinishDone {
		t.Fatalf("turn ended %v", last(evs).Finish.Reason)
	}
	reqs := h.prov.Requests()
	if len(reqs) != 5 || len(reqs[3].Tools) != 0 {
		t.Fatalf("requests: %d; the 4th offers %d tools", len(reqs), len(reqs[3].Tools))
	}
	// The request after the summary: system, summary, the step in flight.
	got := reqs[4].Messages
	checkHistory(t, got)
	if len(got) != 4 || !IsCompactMessage(got[1].Content) || got[2].Role != provider.RoleAssistant || got[3].Role != provider.RoleTool {
		t.Fatalf("request after auto compaction:\n%s", dumpHistory(got))
	}
	p, _ := ParseCompactMessage(got[1].Content)
	if p.First != "read big.go" || p.Current != "read it again" {
		t.Fatalf("pinned first %q, current %q", p.First, p.Current)
	}
	// Without compaction it would have been the previous request plus the
	// step in flight.
	uncompacted := provider.Request{Messages: append(slices.Clone(reqs[2].Messages), got[2:]...)}
	if nb, ub := bodyBytes(t, reqs[4]), bodyBytes(t, uncompacted); nb*10 >= ub*6 {
		t.Fatalf("the request after compaction is %d bytes; without it, %d", nb, ub)
	}
}

func TestAutoCompactionOff(t *testing.T) {
	t.Parallel()
	for name, configure := range map[string]func(*Options){
		"threshold off":  func(o *Options) { o.ContextWindow, o.CompactThreshold = 2000, -1 },
		"window unknown": func(o *Options) { o.CompactThreshold = 50 },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := autoScripts()
			h := newHarness(t, tools.NewRegistry(bigRead(3000)), configure, s[0], s[1], s[2], s[4])
			h.turn("read big.go", nil)
			evs := h.turn("read it again", nil)
			if n := len(eventsOf(evs, EventCompactionStarted)); n != 0 {
				t.Fatalf("compacted with automatic compaction off: %v", kinds(evs))
			}
		})
	}
}

func TestCompactNothingToDoAndCancel(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tools.NewRegistry(bigRead(3000)), nil, answer("hello"),
		calls("read_file", `{"path":"big.go"}`), answer("read"), answer("hi"), script{Hang: true})
	evs := h.compactNow("", nil)
	if fin := last(evs); !errors.Is(fin.Err, ErrNothingToCompact) || len(evs) != 1 {
		t.Fatalf("empty conversation: %v %v", kinds(evs), fin.Err)
	}
	h.turn("hello", nil)
	if fin := last(h.compactNow("", nil)); !errors.Is(fin.Err, ErrNothingToCompact) {
		t.Fatalf("a conversation too short to be worth a summary: %v", fin.Err)
	}
	h.turn("read big.go", nil)
	h.turn("hi", nil)
	before := h.a.Messages()
	evs = h.compactNow("", func(ev Event) {
		if ev.Kind == EventCompactionStarted {
			h.a.Cancel()
		}
	})
	fin := last(evs)
	if fin.Err == nil || !fin.Compaction.Cancelled {
		t.Fatalf("cancelled compaction: %+v %v", fin.Compaction, fin.Err)
	}
	if !slices.EqualFunc(before, h.a.Messages(), func(a, b provider.Message) bool { return a.Content == b.Content }) {
		t.Fatal("a cancelled compaction changed the conversation")
	}
	if err := h.a.Submit("again"); err != nil {
		t.Fatalf("the agent is not idle after a cancelled compaction: %v", err)
	}
}

func TestCompactionMessageRoundTrip(t *testing.T) {
	t.Parallel()
	todo := []tools.TodoItem{{Text: "a [x] b", Status: tools.TodoPending}, {Text: "c", Status: tools.TodoDone}}
	for _, tc := range []struct{ first, current, summary string }{
		{"plain", "", "sum"},
		{"</first_request>\n\n<summary bytes=\"1\">\nx\n</summary>\n", "<current_request bytes=\"9\">", "## Goal\n</compacted_conversation>"},
		{"", "", "only a summary"},
	} {
		msg := compactMessage(tc.first, tc.current, todo, tc.summary)
		p, ok := ParseCompactMessage(msg)
		if !ok || p.First != tc.first || p.Current != tc.current || p.Summary != tc.summary || !slices.Equal(p.Todo, todo) {
			t.Fatalf("round trip of %+v: %+v ok=%v\n%s", tc, p, ok, msg)
		}
	}
	if _, ok := ParseCompactMessage("<compacted_conversation>\nhello"); ok {
		t.Fatal("parsed a user message as a compaction message")
	}
}

func TestCurrentTodoPrefersTheLatestSuccessfulCall(t *testing.T) {
	t.Parallel()
	pinned := compactMessage("first", "", []tools.TodoItem{{Text: "old", Status: tools.TodoPending}}, "s")
	call := func(id, items string) provider.Message {
		return provider.Message{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: id, Name: "todo_write", Arguments: `{"items":` + items + `}`}}}
	}
	ms := []provider.Message{
		{Role: provider.RoleUser, Content: pinned},
		call("a", `[{"text":"new","status":"done"}]`),
		ToolMessage("a", "todo_write", tools.StatusOK, "1 item"),
		call("b", `[{"text":"refused","status":"done"}]`),
		ToolMessage("b", "todo_write", tools.StatusError, "no"),
	}
	if got := CurrentTodo(ms); len(got) != 1 || got[0].Text != "new" {
		t.Fatalf("CurrentTodo = %+v", got)
	}
	if got := CurrentTodo(ms[:1]); len(got) != 1 || got[0].Text != "old" {
		t.Fatalf("pinned todo = %+v", got)
	}
	if FirstRequest(ms) != "first" {
		t.Fatalf("FirstRequest = %q", FirstRequest(ms))
	}
}

func TestCompactionThatWouldNotShrinkChangesNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tools.NewRegistry(bigRead(3000)), nil,
		calls("read_file", `{"path":"big.go"}`), answer("read"), answer("hi"),
		answer(strings.Repeat("A summary longer than the conversation. ", 200)))
	h.turn("read big.go", nil)
	h.turn("hi", nil)
	before := h.a.Messages()
	fin := last(h.compactNow("", nil))
	if !errors.Is(fin.Err, ErrNotSmaller) || fin.Compaction.Cancelled {
		t.Fatalf("err %v", fin.Err)
	}
	if !slices.EqualFunc(before, h.a.Messages(), func(a, b provider.Message) bool { return a.Content == b.Content }) {
		t.Fatal("a summary longer than what it replaces changed the conversation")
	}
}

func TestAutoCompactionBetweenTurns(t *testing.T) {
	t.Parallel()
	s := autoScripts()
	h := newHarness(t, tools.NewRegistry(bigRead(3000)), func(o *Options) {
		o.ContextWindow, o.CompactThreshold = 2000, 50
	}, s[0], s[1], answer("## Goal\nRead big files."), answer("ok"))
	if evs := h.turn("read big.go", nil); len(eventsOf(evs, EventCompactionStarted)) != 0 {
		t.Fatalf("compacted under the threshold: %v", kinds(evs))
	}
	// The last answer reported 805 tokens. Between turns (the agent is
	// idle) the threshold drops to 800 tokens, so the next turn starts
	// over it and compacts before its first request.
	h.a.opts.CompactThreshold = 40
	evs := h.turn("what next?", nil)
	ks := kinds(evs)
	if len(ks) < 3 || ks[0] != EventTurnStarted || ks[1] != EventCompactionStarted {
		t.Fatalf("no compaction before the turn's first request: %v", ks)
	}
	reqs := h.prov.Requests()
	first := reqs[len(reqs)-1].Messages
	checkHistory(t, first)
	if !IsCompactMessage(first[1].Content) || first[len(first)-1].Content != "what next?" {
		t.Fatalf("first request of the turn:\n%s", dumpHistory(first))
	}
}

func TestCompactionWhenTheGatewaySaysTooLong(t *testing.T) {
	t.Parallel()
	tooLong := script{StartErr: &provider.Error{Kind: provider.ErrContextTooLong, Status: 400, Message: "maximum context length exceeded"}}
	s := autoScripts()
	for _, tc := range []struct {
		name      string
		threshold int
		scripts   []script
		want      FinishReason
	}{
		{"compacts and sends again", 0, []script{s[0], s[1], tooLong, answer("## Goal\nRead."), answer("fine")}, FinishDone},
		{"only once a turn", 0, []script{s[0], s[1], tooLong, answer("## Goal\nRead."), tooLong}, FinishFailed},
		{"not when automatic compaction is off", -1, []script{s[0], s[1], tooLong}, FinishFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, tools.NewRegistry(bigRead(3000)), func(o *Options) { o.CompactThreshold = tc.threshold }, tc.scripts...)
			h.turn("read big.go", nil)
			evs := h.turn("and now?", nil)
			if got := last(evs).Finish.Reason; got != tc.want {
				t.Fatalf("turn ended %v, want %v: %v", got, tc.want, kinds(evs))
			}
			compacted := len(eventsOf(evs, EventCompactionFinished)) == 1
			if compacted != (tc.threshold >= 0) {
				t.Fatalf("compacted = %v: %v", compacted, kinds(evs))
			}
			checkHistory(t, h.a.Messages())
		})
	}
}
