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
	"github.com/ternhq/tern/provider/providertest"
	"github.com/ternhq/tern/tools"
)

// script is one scripted model answer; fakeProvider replays them.
type (
	script       = providertest.Script
	fakeProvider = providertest.Provider
)

// Delta and script constructors, with this package's usage figures.
func text(s string) provider.Delta      { return providertest.Text(s) }
func reasoning(s string) provider.Delta { return providertest.Reasoning(s) }
func finish(r provider.FinishReason) provider.Delta {
	return providertest.Finish(r)
}
func usage(p, c int) provider.Delta {
	return providertest.Usage(provider.Usage{PromptTokens: p, CompletionTokens: c})
}
func callFrag(index int, id, name, args string) provider.Delta {
	return providertest.CallFragment(index, id, name, args)
}

// answer is a text answer script.
func answer(parts ...string) script {
	return providertest.Answer(provider.Usage{PromptTokens: 10, CompletionTokens: 5}, parts...)
}

// calls is a script whose answer is the given tool calls (name, args pairs),
// each in two fragments.
func calls(nameArgs ...string) script {
	return providertest.Calls(provider.Usage{PromptTokens: 20, CompletionTokens: 7}, providertest.CallID, nameArgs...)
}

// fakeTool is a configurable tools.Tool.
type fakeTool struct {
	name   string
	kind   tools.Kind
	schema string
	// guidance is the rule the system prompt gives for the tool.
	guidance string
	preview  func(ctx context.Context, args json.RawMessage) (tools.Preview, error)
	run      func(ctx context.Context, args json.RawMessage, output func(string)) tools.Result

	mu  sync.Mutex
	ran []string
}

func (f *fakeTool) Spec() tools.Spec {
	s := f.schema
	if s == "" {
		s = `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`
	}
	return tools.Spec{Name: f.name, Description: "fake " + f.name, Parameters: json.RawMessage(s), Guidance: f.guidance}
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
	read = &fakeTool{name: tools.ReadFileName, kind: tools.KindRead, guidance: "Use read_file to read files."}
	edit = &fakeTool{name: tools.EditFileName, kind: tools.KindEdit, guidance: "Prefer edit_file for changes to existing files."}
	shell = &fakeTool{name: tools.RunShellName, kind: tools.KindShell, schema: shellSchema, guidance: "Use run_shell to build and test."}
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
	// appends keeps the EventMessageAppended events in what collect returns.
	appends bool
}

func newHarness(t *testing.T, reg *tools.Registry, configure func(*Options), scripts ...script) *harness {
	t.Helper()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	prov := providertest.New(scripts...)
	opts := Options{Provider: prov, Model: "test-model", Tools: reg, Workspace: ws, System: "system prompt"}
	if configure != nil {
		configure(&opts)
	}
	a, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	a.backoff = func(int, error) time.Duration { return time.Millisecond }
	// A home of its own: the always-ask check must not depend on the tester's.
	if a.approvals, err = newJudge(a.opts, "/home/tester"); err != nil {
		t.Fatal(err)
	}
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
			if !h.metered && meterEvent(ev) || !h.appends && ev.Kind == EventMessageAppended {
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

// Most tests check the conversation itself (Messages); collect leaves out
// the EventMessageAppended that report it unless the harness keeps appends:
// appended_test.go checks those.

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
