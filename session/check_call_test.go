package session

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// TestCheckBeforeACallWritesItsAnswer follows the agent's order: the
// answer streams, its calls are ready, the agent appends it
// (EventMessageAppended), then checks the log before the first call runs
// (EventToolRunning comes after). The answer that holds the call must be
// written by then, so that a full disk stops the call instead of letting
// it run unrecorded.
func TestCheckBeforeACallWritesItsAnswer(t *testing.T) {
	t.Parallel()
	for _, full := range []bool{false, true} {
		sink := &memSink{}
		w := newWriter(sink, "mem", Header{}, 0, options{flush: time.Hour, now: time.Now})
		rec := NewRecorder(w)
		ctx := context.Background()
		in := make(chan agent.Event, 8)
		out := rec.Tap(ctx, in)
		send := func(ev agent.Event) {
			in <- ev
			<-out
		}
		send(agent.Event{Kind: agent.EventTurnStarted, Turn: 1, Text: "go"})
		if err := rec.Check(ctx, 1); err != nil {
			t.Fatalf("Check before any failure: %v", err)
		}
		if full {
			sink.mu.Lock()
			sink.fail = syscall.ENOSPC
			sink.mu.Unlock()
		}
		call := &agent.Call{ID: "c1", Name: "run_shell", Args: json.RawMessage(`{"command":"touch ran"}`)}
		send(agent.Event{Kind: agent.EventTextDelta, Turn: 1, Text: "I will run it"})
		send(agent.Event{Kind: agent.EventToolCallStarted, Turn: 1, Call: call})
		send(agent.Event{Kind: agent.EventToolCallReady, Turn: 1, Call: call})
		send(agent.Event{Kind: agent.EventMessageAppended, Turn: 1, Message: &provider.Message{
			Role: provider.RoleAssistant, Content: "I will run it",
			ToolCalls: []provider.ToolCall{{ID: call.ID, Name: call.Name, Arguments: string(call.Args)}},
		}})
		err := rec.Check(ctx, 5)
		switch {
		case full && !errors.Is(err, syscall.ENOSPC):
			t.Errorf("Check before the call on a full disk = %v, want ENOSPC: the call would run unrecorded", err)
		case !full && err != nil:
			t.Errorf("Check before the call = %v", err)
		case !full:
			sink.mu.Lock()
			got := sink.buf.String()
			sink.mu.Unlock()
			if !strings.Contains(got, `touch ran`) || !strings.Contains(got, "I will run it") {
				t.Errorf("the answer with the call was not written before the check:\n%s", got)
			}
		}
		_ = w.Close()
	}
}

// probeTool is a read-kind tool that, when it runs, reads the session log
// as it is on disk.
type probeTool struct {
	path string
	seen chan string
}

func (p *probeTool) Spec() tools.Spec {
	return tools.Spec{Name: "probe", Description: "probe", Parameters: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`)}
}
func (p *probeTool) Kind() tools.Kind { return tools.KindRead }
func (p *probeTool) Preview(context.Context, json.RawMessage) (tools.Preview, error) {
	return tools.Preview{Title: "probe"}, nil
}
func (p *probeTool) Run(context.Context, json.RawMessage, func(string)) tools.Result {
	b, err := os.ReadFile(p.path)
	if err != nil {
		return tools.Result{Status: tools.StatusError, Output: err.Error()}
	}
	p.seen <- string(b)
	return tools.Result{Status: tools.StatusOK, Output: "probed"}
}

// TestACallRunsOnlyOnceItsAnswerIsInTheLog runs a real agent whose calls
// are gated by Recorder.Check, as tern wires it: when each call runs, the
// answer that asked for it is already written to the log file, and so is
// the result of the call before it.
func TestACallRunsOnlyOnceItsAnswerIsInTheLog(t *testing.T) {
	t.Parallel()
	w, err := Create(t.TempDir(), testHeader(), WithFlushInterval(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = w.Close() }()
	rec := NewRecorder(w)
	probe := &probeTool{path: w.Path(), seen: make(chan string, 2)}
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	prov := &fakeProvider{}
	prov.Add(calls("Probing twice.", "probe", `{"n":1}`, "probe", `{"n":2}`), answer("done"))
	a, err := agent.New(agent.Options{
		Provider: prov, Model: "m", Tools: tools.NewRegistry(probe), Workspace: ws, Policy: agent.PolicyFullAuto,
		BeforeTool: rec.Check, BeforeRequest: rec.Check,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go a.Run(ctx)
	events := rec.Tap(ctx, a.Events())
	if err := a.Submit("probe"); err != nil {
		t.Fatal(err)
	}
	for ev := range events {
		if ev.Kind == agent.EventTurnFinished {
			break
		}
	}
	first, second := <-probe.seen, <-probe.seen
	if !strings.Contains(first, `"type":"assistant_message"`) || !strings.Contains(first, "Probing twice.") || !strings.Contains(first, `{\"n\":2}`) {
		t.Errorf("when the first call ran, the log lacked its answer:\n%s", first)
	}
	if !strings.Contains(second, `"type":"tool_result"`) || !strings.Contains(second, `"output":"probed"`) {
		t.Errorf("when the second call ran, the log lacked the first result:\n%s", second)
	}
}
