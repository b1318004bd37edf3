package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// script is one scripted model answer: the deltas one request streams.
type script struct {
	deltas []provider.Delta
	// delay is waited before each delta (honouring the context).
	delay time.Duration
	// startErr is returned by Stream itself.
	startErr error
	// err is reported by Err after the deltas.
	err error
	// hang blocks after the deltas until the context is cancelled.
	hang bool
	// quiet ends without a finish delta and without an error, breaking the
	// Stream contract, to check the agent's own guard.
	quiet bool
	// retried are the waits the provider announces through the context's
	// trace before it answers, as a provider that retried would.
	retried []provider.Retrying
}

// fakeProvider replays scripts, one per request, and records the requests.
type fakeProvider struct {
	mu      sync.Mutex
	scripts []script
	reqs    []provider.Request
	// repeat replays the last script forever once the others are used.
	repeat bool
}

func (p *fakeProvider) Stream(ctx context.Context, req provider.Request) (provider.Stream, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reqs = append(p.reqs, req)
	if len(p.scripts) == 0 {
		return nil, &provider.Error{Kind: provider.ErrBadRequest, Message: "the test scripted no more answers"}
	}
	s := p.scripts[0]
	if len(p.scripts) > 1 || !p.repeat {
		p.scripts = p.scripts[1:]
	}
	if tr := provider.TraceFrom(ctx); tr != nil && tr.Retrying != nil {
		for _, r := range s.retried {
			tr.Retrying(r)
		}
	}
	if s.startErr != nil {
		return nil, s.startErr
	}
	return &fakeStream{ctx: ctx, s: s}, nil
}

func (p *fakeProvider) requests() []provider.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]provider.Request(nil), p.reqs...)
}

type fakeStream struct {
	ctx       context.Context
	s         script
	i         int
	cur       provider.Delta
	cancelled bool
}

func (f *fakeStream) Next() bool {
	if f.ctx.Err() != nil {
		f.cancelled = true
		return false
	}
	if f.i >= len(f.s.deltas) {
		if f.s.hang {
			<-f.ctx.Done()
			f.cancelled = true
		}
		return false
	}
	if f.s.delay > 0 {
		tm := time.NewTimer(f.s.delay)
		select {
		case <-f.ctx.Done():
			tm.Stop()
			f.cancelled = true
			return false
		case <-tm.C:
		}
	}
	f.cur = f.s.deltas[f.i]
	f.i++
	return true
}

func (f *fakeStream) Delta() provider.Delta { return f.cur }

func (f *fakeStream) Err() error {
	if f.cancelled {
		return &provider.Error{Kind: provider.ErrCancelled, Message: "cancelled", Err: f.ctx.Err()}
	}
	if f.s.err != nil {
		return f.s.err
	}
	for _, d := range f.s.deltas {
		if d.Kind == provider.DeltaFinish {
			return nil
		}
	}
	if f.s.quiet {
		return nil
	}
	return &provider.Error{Kind: provider.ErrNetwork, Message: "stream ended before the model finished"}
}

func (f *fakeStream) Close() error { return nil }

// Delta constructors.
func text(s string) provider.Delta { return provider.Delta{Kind: provider.DeltaText, Text: s} }
func reasoning(s string) provider.Delta {
	return provider.Delta{Kind: provider.DeltaReasoning, Text: s}
}
func finish(r provider.FinishReason) provider.Delta {
	return provider.Delta{Kind: provider.DeltaFinish, Finish: r}
}
func usage(p, c int) provider.Delta {
	return provider.Delta{Kind: provider.DeltaUsage, Usage: provider.Usage{PromptTokens: p, CompletionTokens: c}}
}
func callFrag(index int, id, name, args string) provider.Delta {
	return provider.Delta{Kind: provider.DeltaToolCall, ToolCall: provider.ToolCallFragment{
		Index: index, HasIndex: true, ID: id, Name: name, Arguments: args}}
}

// answer is a text answer script.
func answer(parts ...string) script {
	var ds []provider.Delta
	for _, p := range parts {
		ds = append(ds, text(p))
	}
	return script{deltas: append(ds, usage(10, 5), finish(provider.FinishStop))}
}

// calls is a script whose answer is the given tool calls (name, args pairs),
// each in two fragments.
func calls(nameArgs ...string) script {
	var ds []provider.Delta
	for i := 0; i+1 < len(nameArgs); i += 2 {
		args := nameArgs[i+1]
		half := len(args) / 2
		ds = append(ds, callFrag(i/2, fmt.Sprintf("gw_%s_%d", nameArgs[i], i/2), nameArgs[i], args[:half]),
			callFrag(i/2, "", "", args[half:]))
	}
	return script{deltas: append(ds, usage(20, 7), finish(provider.FinishToolCalls))}
}

// fakeTool is a configurable tools.Tool.
type fakeTool struct {
	name    string
	kind    tools.Kind
	schema  string
	preview func(ctx context.Context, args json.RawMessage) (tools.Preview, error)
	run     func(ctx context.Context, args json.RawMessage, output func(string)) tools.Result

	mu  sync.Mutex
	ran []string
}

func (f *fakeTool) Spec() tools.Spec {
	s := f.schema
	if s == "" {
		s = `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`
	}
	return tools.Spec{Name: f.name, Description: "fake " + f.name, Parameters: json.RawMessage(s)}
}

func (f *fakeTool) Kind() tools.Kind { return f.kind }

func (f *fakeTool) Preview(ctx context.Context, args json.RawMessage) (tools.Preview, error) {
	if f.preview != nil {
		return f.preview(ctx, args)
	}
	return tools.Preview{Title: f.name + " " + string(args)}, nil
}

func (f *fakeTool) Run(ctx context.Context, args json.RawMessage, output func(string)) tools.Result {
	f.mu.Lock()
	f.ran = append(f.ran, string(args))
	f.mu.Unlock()
	if f.run != nil {
		return f.run(ctx, args, output)
	}
	return tools.Result{Status: tools.StatusOK, Output: f.name + " ok", Summary: "ok"}
}

func (f *fakeTool) runs() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.ran...)
}

const shellSchema = `{"type":"object","properties":{"command":{"type":"string"},"workdir":{"type":"string"}},"required":["command"],"additionalProperties":false}`

// fakeTools returns read, edit and shell fakes named like the real tools.
func fakeTools() (read, edit, shell *fakeTool) {
	read = &fakeTool{name: "read_file", kind: tools.KindRead}
	edit = &fakeTool{name: "edit_file", kind: tools.KindEdit}
	shell = &fakeTool{name: "run_shell", kind: tools.KindShell, schema: shellSchema}
	return read, edit, shell
}

// harness runs an agent against a fake provider.
type harness struct {
	t    *testing.T
	a    *Agent
	prov *fakeProvider
	ws   *tools.Workspace
	stop context.CancelFunc
	done chan struct{}
	// metered keeps the meter's events in what collect returns.
	metered bool
}

func newHarness(t *testing.T, reg *tools.Registry, configure func(*Options), scripts ...script) *harness {
	t.Helper()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	prov := &fakeProvider{scripts: scripts}
	opts := Options{Provider: prov, Model: "test-model", Tools: reg, Workspace: ws, System: "system prompt"}
	if configure != nil {
		configure(&opts)
	}
	a, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	a.backoff = func(int, error) time.Duration { return time.Millisecond }
	a.home = "/home/tester"
	ctx, cancel := context.WithCancel(context.Background())
	h := &harness{t: t, a: a, prov: prov, ws: ws, stop: cancel, done: make(chan struct{})}
	go func() {
		a.Run(ctx)
		close(h.done)
	}()
	t.Cleanup(func() {
		cancel()
		for range a.Events() {
		}
		<-h.done
	})
	return h
}

// turn submits text and collects the turn's events until it finishes,
// calling on for each event (to answer approvals or cancel).
func (h *harness) turn(text string, on func(Event)) []Event {
	h.t.Helper()
	if err := h.a.Submit(text); err != nil {
		h.t.Fatalf("Submit: %v", err)
	}
	return h.collect(on)
}

func (h *harness) collect(on func(Event)) []Event {
	h.t.Helper()
	var evs []Event
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-h.a.Events():
			if !ok {
				h.t.Fatalf("events closed before the turn finished; got %v", kinds(evs))
			}
			if !h.metered && meterEvent(ev) {
				continue
			}
			evs = append(evs, ev)
			if on != nil {
				on(ev)
			}
			if ev.Kind == EventTurnFinished {
				return evs
			}
		case <-timeout:
			h.t.Fatalf("turn did not finish; got %v", kinds(evs))
		}
	}
}

// meterEvent reports the meter's own events (requests and estimated
// usage), which collect leaves out unless the harness is metered: most
// tests check the conversation, meter_test.go checks these.
func meterEvent(ev Event) bool {
	return ev.Kind == EventRequest || (ev.Kind == EventUsage && ev.Response != nil && ev.Response.Estimated)
}

// reply answers every approval request with d.
func reply(d Decision) func(Event) {
	return func(ev Event) {
		if ev.Kind == EventApprovalRequested {
			ev.Approval.Reply(d)
		}
	}
}

func kinds(evs []Event) []EventKind {
	out := make([]EventKind, len(evs))
	for i, e := range evs {
		out[i] = e.Kind
	}
	return out
}

func kindsString(ks []EventKind) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = k.String()
	}
	return strings.Join(s, " ")
}

// wantKinds compares the events' kinds with want.
func wantKinds(t *testing.T, evs []Event, want ...EventKind) {
	t.Helper()
	got := kindsString(kinds(evs))
	if w := kindsString(want); got != w {
		t.Fatalf("events:\n got %s\nwant %s", got, w)
	}
}

func last(evs []Event) Event { return evs[len(evs)-1] }

func finishOf(t *testing.T, evs []Event) *Finish {
	t.Helper()
	ev := last(evs)
	if ev.Kind != EventTurnFinished || ev.Finish == nil {
		t.Fatalf("last event is %v, not a finished turn", ev.Kind)
	}
	return ev.Finish
}

func eventsOf(evs []Event, k EventKind) []Event {
	var out []Event
	for _, e := range evs {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// checkHistory verifies the conversation is valid for the next request:
// every assistant tool call is answered by exactly one tool message right
// after it, no tool message answers an unknown call, and ids are unique.
func checkHistory(t *testing.T, msgs []provider.Message) {
	t.Helper()
	if err := historyError(msgs); err != nil {
		t.Fatalf("invalid history: %v\n%s", err, dumpHistory(msgs))
	}
}

func historyError(msgs []provider.Message) error {
	seen := map[string]bool{}
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		switch m.Role {
		case provider.RoleTool:
			return fmt.Errorf("message %d: tool message for %q without a call before it", i, m.ToolCallID)
		case provider.RoleAssistant:
			if len(m.ToolCalls) == 0 {
				continue
			}
			want := map[string]int{}
			for _, c := range m.ToolCalls {
				if seen[c.ID] {
					return fmt.Errorf("message %d: call id %q used twice in the session", i, c.ID)
				}
				seen[c.ID] = true
				if !json.Valid([]byte(c.Arguments)) {
					return fmt.Errorf("message %d: call %q has invalid JSON arguments %q", i, c.ID, c.Arguments)
				}
				want[c.ID] = 0
			}
			j := i + 1
			for ; j < len(msgs) && msgs[j].Role == provider.RoleTool; j++ {
				id := msgs[j].ToolCallID
				n, ok := want[id]
				if !ok {
					return fmt.Errorf("message %d: tool message answers %q, which message %d did not call", j, id, i)
				}
				want[id] = n + 1
			}
			for id, n := range want {
				if n != 1 {
					return fmt.Errorf("message %d: call %q answered %d times", i, id, n)
				}
			}
			i = j - 1
		case provider.RoleSystem, provider.RoleUser:
		}
	}
	return nil
}

func dumpHistory(msgs []provider.Message) string {
	var b strings.Builder
	for i, m := range msgs {
		fmt.Fprintf(&b, "%d %s %q", i, m.Role, m.Content)
		for _, c := range m.ToolCalls {
			fmt.Fprintf(&b, " call(%s %s %s)", c.ID, c.Name, c.Arguments)
		}
		if m.ToolCallID != "" {
			fmt.Fprintf(&b, " answers %s", m.ToolCallID)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func TestHistoryCheckerCatchesErrors(t *testing.T) {
	t.Parallel()
	call := []provider.ToolCall{{ID: "a", Name: "x", Arguments: "{}"}}
	bad := map[string][]provider.Message{
		"unanswered": {{Role: provider.RoleAssistant, ToolCalls: call}, {Role: provider.RoleUser, Content: "hi"}},
		"twice": {{Role: provider.RoleAssistant, ToolCalls: call},
			{Role: provider.RoleTool, ToolCallID: "a"}, {Role: provider.RoleTool, ToolCallID: "a"}},
		"orphan":     {{Role: provider.RoleTool, ToolCallID: "b"}},
		"wrong id":   {{Role: provider.RoleAssistant, ToolCalls: call}, {Role: provider.RoleTool, ToolCallID: "b"}},
		"bad json":   {{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "a", Arguments: "{"}}}, {Role: provider.RoleTool, ToolCallID: "a"}},
		"reused ids": {{Role: provider.RoleAssistant, ToolCalls: call}, {Role: provider.RoleTool, ToolCallID: "a"}, {Role: provider.RoleAssistant, ToolCalls: call}, {Role: provider.RoleTool, ToolCallID: "a"}},
	}
	for name, msgs := range bad {
		if historyError(msgs) == nil {
			t.Errorf("%s: history accepted", name)
		}
	}
	good := []provider.Message{{Role: provider.RoleUser}, {Role: provider.RoleAssistant, ToolCalls: call}, {Role: provider.RoleTool, ToolCallID: "a"}, {Role: provider.RoleAssistant, Content: "done"}}
	if err := historyError(good); err != nil {
		t.Errorf("valid history refused: %v", err)
	}
}
