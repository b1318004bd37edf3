package app

import (
	"context"
	"sync"

	"github.com/ternhq/tern/agent"
)

// windowSource finds a model's context window: the configured one, else
// what the gateway's model list reports, else AssumedContextWindow. It
// keeps the agent's window (for automatic compaction) in step with its
// model, and remembers what the gateway said, so it is asked once a model.
type windowSource struct {
	// ctx bounds the lookups the source starts itself; it ends with the
	// session.
	ctx        context.Context
	configured func(model string) int
	// lookup asks the gateway's model list; nil offline.
	lookup func(ctx context.Context, model string) (int, error)

	mu       sync.Mutex
	reported map[string]int
}

// of is model's window, and whether it is assumed. It may ask the gateway.
func (w *windowSource) of(ctx context.Context, model string) (tokens int, assumed bool) {
	if n := w.configured(model); n > 0 {
		return n, false
	}
	w.mu.Lock()
	n, ok := w.reported[model]
	w.mu.Unlock()
	if !ok && w.lookup != nil {
		var err error
		if n, err = w.lookup(ctx, model); err != nil {
			n = 0 // asked again next time: the gateway may answer then
		} else {
			w.remember(model, n)
		}
	}
	if n > 0 {
		return n, false
	}
	return AssumedContextWindow, true
}

// remember keeps what the gateway reported of model's window (0: nothing).
func (w *windowSource) remember(model string, n int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.reported == nil {
		w.reported = map[string]int{}
	}
	w.reported[model] = n
}

// follow sets a's window for model: at once from the config or the assumed
// default, then, when the gateway reports the model's window, from that. A
// lookup that answers after the model changed again is dropped.
func (w *windowSource) follow(a *agent.Agent, model string) {
	if n := w.configured(model); n > 0 {
		a.SetContextWindow(n)
		return
	}
	a.SetContextWindow(AssumedContextWindow)
	if w.lookup == nil {
		return
	}
	go func() {
		n, assumed := w.of(w.ctx, model)
		if assumed || a.Model() != model {
			return // the assumed window stays; /context says so
		}
		a.SetContextWindow(n)
	}()
}
