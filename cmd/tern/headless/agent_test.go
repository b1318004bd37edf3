package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/provider/providertest"
	"github.com/ternhq/tern/tools"
)

// stubTool is a tool of a given kind that always succeeds.
type stubTool struct {
	name string
	kind tools.Kind
}

func (s stubTool) Spec() tools.Spec {
	return tools.Spec{Name: s.name, Description: s.name, Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)}
}
func (s stubTool) Kind() tools.Kind { return s.kind }
func (s stubTool) Preview(context.Context, json.RawMessage) (tools.Preview, error) {
	return tools.Preview{Title: s.name}, nil
}
func (s stubTool) Run(context.Context, json.RawMessage, func(string)) tools.Result {
	return tools.Result{Status: tools.StatusOK, Output: s.name + " done", Summary: "ok"}
}

// agentTurn runs one turn of a real agent on scripts, under budget, and
// returns its events: approvals are denied, and the turn is cancelled at
// the first event of kind cancelAt (0: never).
func agentTurn(t *testing.T, cancelAt agent.EventKind, budget agent.Budget, scripts ...providertest.Script) []agent.Event {
	t.Helper()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry(stubTool{name: "read_file", kind: tools.KindRead}, stubTool{name: "write_file", kind: tools.KindEdit})
	a, err := agent.New(agent.Options{Provider: providertest.New(scripts...), Model: "m", Tools: reg, Workspace: ws, Policy: agent.PolicyAsk, Budget: budget})
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go a.Run(ctx)
	if err := a.Submit("go"); err != nil {
		t.Fatal(err)
	}
	var evs []agent.Event
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev := <-a.Events():
			evs = append(evs, ev)
			if ev.Kind == cancelAt {
				a.Cancel()
			}
			if ev.Kind == agent.EventApprovalRequested {
				ev.Approval.Reply(agent.Decision{Kind: agent.DenyWithMessage, Message: "no one to approve"})
			}
			if ev.Kind == agent.EventTurnFinished {
				return evs
			}
		case <-timeout:
			t.Fatal("the turn did not finish")
		}
	}
}

// timings are the figures of a projection that vary from run to run.
var timings = regexp.MustCompile(`"(duration_ms|first_token_ms)":\d+`)

// TestProjectionOfAgentTurns projects real agent turns, one per way an
// answer is kept or not, and compares them with their golden files. Those
// of answers the agent keeps hold what the projection wrote before the
// agent reported its appends; an answer that breaks off midway (failed, or
// stopped by the budget) is not kept, and leaves its items open.
func TestProjectionOfAgentTurns(t *testing.T) {
	t.Parallel()
	u := provider.Usage{PromptTokens: 100, CompletionTokens: 10}
	id := func(name string, i int) string { return providertest.CallID(name, i) }
	halfDeltas := []provider.Delta{providertest.Reasoning("Let me read."), providertest.Text("Reading"),
		providertest.CallFragment(0, "gw_half", "read_file", `{"pa`)}
	half := providertest.Script{Deltas: halfDeltas[1:], Hang: true}
	broken := func(kind provider.ErrorKind) providertest.Script {
		return providertest.Script{Deltas: halfDeltas, Err: &provider.Error{Kind: kind, Message: "the stream broke"}}
	}
	for name, tc := range map[string]struct {
		cancelAt agent.EventKind
		budget   agent.Budget
		scripts  []providertest.Script
		// drops is set when the answer is not kept: its items never complete.
		drops bool
	}{
		"agent_text": {scripts: []providertest.Script{{Deltas: []provider.Delta{
			providertest.Reasoning("Think."), providertest.Text("Hello."), providertest.Usage(u), providertest.Finish(provider.FinishStop)}}}},
		"agent_calls_denied_and_run": {scripts: []providertest.Script{
			providertest.Calls(u, id, "read_file", `{"path":"a"}`, "write_file", `{"path":"b"}`),
			providertest.Calls(u, id, "read_file", `not json`),
			providertest.Answer(u, "Could not write b."),
		}},
		"agent_only_reasoning": {scripts: []providertest.Script{{Deltas: []provider.Delta{
			providertest.Reasoning("Nothing to add."), providertest.Usage(u), providertest.Finish(provider.FinishStop)}}}},
		"agent_cancelled_mid_call": {cancelAt: agent.EventToolCallStarted, scripts: []providertest.Script{half}},
		"agent_cancelled_mid_text": {cancelAt: agent.EventTextDelta, scripts: []providertest.Script{
			{Deltas: []provider.Delta{providertest.Text("Half an answer")}, Hang: true}}},
		"agent_failed_mid_call": {drops: true, scripts: []providertest.Script{broken(provider.ErrAuth)}},
		"agent_budget_mid_call": {drops: true, budget: agent.Budget{MaxRequests: 1}, scripts: []providertest.Script{broken(provider.ErrServer)}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			evs := agentTurn(t, tc.cancelAt, tc.budget, tc.scripts...)
			got := timings.ReplaceAll(encodeLines(t, projectAll(evs)), []byte(`"$1":0`))
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
				t.Errorf("projection differs from %s\n got:\n%s\nwant:\n%s", path, got, want)
			}
			checkProtocol(t, name, got, tc.drops)
			if tc.drops && bytes.Contains(got, []byte(`"type":"tool_call"`)) {
				t.Errorf("a call of an answer that was not kept was reported:\n%s", got)
			}
		})
	}
}
