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

// checkEveryCallAnswered fails when a tool call in the history has no
// tool message, which a gateway would reject on the next request.
func checkEveryCallAnswered(t *testing.T, msgs []provider.Message) {
	t.Helper()
	open := map[string]bool{}
	for _, m := range msgs {
		for _, c := range m.ToolCalls {
			open[c.ID] = true
		}
		if m.Role == provider.RoleTool {
			delete(open, m.ToolCallID)
		}
	}
	if len(open) > 0 {
		t.Errorf("calls without a result: %v\n%s", open, dumpHistory(msgs))
	}
}

func TestBudgetStopsTheTurn(t *testing.T) {
	t.Parallel()
	loop := calls("read_file", `{"path":"a.go"}`) // usage 20 prompt, 7 completion
	tests := []struct {
		name     string
		budget   Budget
		requests int
		says     string
	}{
		{"requests", Budget{MaxRequests: 3}, 3, "after 3 model requests (the request budget, --max-requests)"},
		// 20 prompt + 7 completion tokens at $1000 per million: $0.027 a request.
		{"cost", Budget{MaxCost: 0.05, Prices: &Prices{Input: 1000, Output: 1000}}, 2, "the cost budget, --max-cost, is $0.0500"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			read, _, _ := fakeTools()
			b := tt.budget
			h := newHarness(t, tools.NewRegistry(read), func(o *Options) { o.Budget = b; o.MaxSteps = 20 })
			h.prov.Reset(true, loop)
			evs := h.turn("loop", nil)
			fin := finishOf(t, evs)
			if fin.Reason != FinishBudget || !errors.Is(fin.Err, ErrBudget) || fin.Requests != tt.requests {
				t.Fatalf("finish %+v (%v), want budget after %d requests", fin, fin.Err, tt.requests)
			}
			if !strings.Contains(fin.Err.Error(), tt.says) {
				t.Errorf("error %q lacks %q", fin.Err, tt.says)
			}
			if n := len(h.prov.Requests()); n != tt.requests {
				t.Errorf("%d requests sent, want %d", n, tt.requests)
			}
			if want := float64(tt.requests) * b.Prices.costOr0(provider.Usage{PromptTokens: 20, CompletionTokens: 7}); b.Prices != nil && abs(fin.Cost-want) > 1e-9 {
				t.Errorf("cost %v, want %v", fin.Cost, want)
			}
			checkEveryCallAnswered(t, h.a.Messages())
			// The next turn starts with a fresh budget.
			h.prov.Reset(false, answer("done"))
			if fin := finishOf(t, h.turn("go on", nil)); fin.Reason != FinishDone {
				t.Errorf("the next turn: %+v", fin)
			}
		})
	}
}

// costOr0 is p.Cost(u), 0 for no prices.
func (p *Prices) costOr0(u provider.Usage) float64 {
	if p == nil {
		return 0
	}
	return p.Cost(u)
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

func TestBudgetCachedInputAtItsPrice(t *testing.T) {
	t.Parallel()
	p := Prices{Input: 1000, CachedInput: 100, Output: 2000}
	got := p.Cost(provider.Usage{PromptTokens: 1000, CachedPromptTokens: 400, CompletionTokens: 10})
	if want := (600*1000 + 400*100 + 10*2000) / 1e6; abs(got-want) > 1e-12 {
		t.Errorf("cost %v, want %v", got, want)
	}
}

func TestBudgetDurationInterruptsARunningTool(t *testing.T) {
	t.Parallel()
	_, _, shell := fakeTools()
	started := make(chan struct{})
	shell.run = func(ctx context.Context, _ json.RawMessage, _ func(string)) tools.Result {
		close(started)
		<-ctx.Done()
		return tools.Result{Status: tools.StatusCancelled, Output: "killed"}
	}
	h := newHarness(t, tools.NewRegistry(shell), func(o *Options) {
		o.Budget = Budget{MaxDuration: 150 * time.Millisecond}
		o.Policy = PolicyFullAuto
	}, calls("run_shell", `{"command":"sleep 100"}`, "run_shell", `{"command":"echo never"}`))
	start := time.Now()
	evs := h.turn("sleep", nil)
	fin := finishOf(t, evs)
	if fin.Reason != FinishBudget || !strings.Contains(fin.Err.Error(), "--max-duration") {
		t.Fatalf("finish %+v (%v)", fin, fin.Err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the turn took %v with a 150ms budget", d)
	}
	select {
	case <-started:
	default:
		t.Error("the tool never ran")
	}
	done := eventsOf(evs, EventToolFinished)
	if len(done) != 2 || done[0].Result.Status != tools.StatusCancelled || done[1].Result.Status != tools.StatusCancelled {
		t.Errorf("tool results: %+v", done)
	}
	// The model learns that the budget stopped the calls, not the user.
	for _, ev := range done {
		if out := ev.Result.Output; !strings.Contains(out, "time budget") || strings.Contains(out, "by the user") {
			t.Errorf("result of %s says %q", ev.Call.Name, out)
		}
	}
	checkEveryCallAnswered(t, h.a.Messages())
	if n := len(h.prov.Requests()); n != 1 {
		t.Errorf("%d requests after the time ran out, want 1", n)
	}
}

func TestBudgetDurationInterruptsAStream(t *testing.T) {
	t.Parallel()
	hang := script{Deltas: []provider.Delta{text("thinking about it")}, Hang: true}
	h := newHarness(t, tools.NewRegistry(), func(o *Options) { o.Budget = Budget{MaxDuration: 100 * time.Millisecond} }, hang)
	evs := h.turn("go", nil)
	fin := finishOf(t, evs)
	if fin.Reason != FinishBudget {
		t.Fatalf("finish %+v", fin)
	}
	msgs := h.a.Messages()
	if last := msgs[len(msgs)-1]; last.Role != provider.RoleAssistant || !strings.HasPrefix(last.Content, "thinking about it") {
		t.Errorf("the partial answer was not kept:\n%s", dumpHistory(msgs))
	}
}

func TestBudgetValidation(t *testing.T) {
	t.Parallel()
	for _, b := range []Budget{
		{MaxCost: 1},
		{MaxCost: 1, Prices: &Prices{}},
		{MaxRequests: -1},
		{MaxDuration: -time.Second},
	} {
		if err := b.Validate(); err == nil {
			t.Errorf("%+v is valid", b)
		}
		_, err := New(Options{Provider: &fakeProvider{}, Tools: tools.NewRegistry(), Workspace: &tools.Workspace{}, Budget: b})
		if err == nil {
			t.Errorf("New accepted %+v", b)
		}
	}
	if err := (Budget{MaxCost: 1, Prices: &Prices{Input: 1}}).Validate(); err != nil {
		t.Errorf("priced cost limit: %v", err)
	}
}
