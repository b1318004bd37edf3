package tui

import (
	"context"

	"github.com/ternhq/tern/agent"
)

// The rest of app.Service on the fake: what the interface asks of the
// session besides sending prompts. Each answers from the field a test set,
// or says it is unavailable.

func (f *fakeBackend) Run(ctx context.Context) { <-ctx.Done() }

func (f *fakeBackend) Compact(focus string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.compactErr != nil {
		return f.compactErr
	}
	f.focuses = append(f.focuses, focus)
	return nil
}

func (f *fakeBackend) Context() agent.ContextBytes {
	if f.context == nil {
		return agent.ContextBytes{}
	}
	return f.context()
}

func (f *fakeBackend) SetBudget(agent.Budget) error { return unavailable("budget") }

func (f *fakeBackend) RememberModel(id string) error {
	if f.rememberModel == nil {
		return unavailable("remember the model")
	}
	return f.rememberModel(id)
}

func (f *fakeBackend) Models(ctx context.Context) ([]string, error) {
	if f.models == nil {
		return nil, unavailable("models")
	}
	return f.models(ctx)
}

// ContextWindow is the window the test gave, else none known: the
// interface then assumes one.
func (f *fakeBackend) ContextWindow(ctx context.Context, model string) (int, bool) {
	if f.window == nil {
		return 0, true
	}
	return f.window(ctx, model)
}

// fixedWindow is a configured window of n tokens for every model.
func fixedWindow(n int) func(context.Context, string) (int, bool) {
	return func(context.Context, string) (int, bool) { return n, false }
}

func (f *fakeBackend) EnterPlan() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.planning {
		f.planning, f.prev = true, f.policy
		f.policy = agent.PolicyReadOnly
	}
}

func (f *fakeBackend) LeavePlan() agent.Policy {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.planning {
		f.planning = false
		f.policy = f.prev
	}
	return f.policy
}

func (f *fakeBackend) Planning() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.planning
}

func (f *fakeBackend) PlanPolicy() agent.Policy {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.planning {
		return f.prev
	}
	return f.policy
}

func (f *fakeBackend) AcceptPlan(p agent.Policy) error {
	f.LeavePlan()
	if p != 0 {
		f.SetPolicy(p)
	}
	f.mu.Lock()
	f.accepted++
	f.mu.Unlock()
	return f.Submit(agent.PlanAccepted)
}
