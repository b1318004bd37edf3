package main

import (
	"context"

	"github.com/ternhq/tern/agent"
)

// windowSource finds a model's context window for automatic compaction: the
// configured one, else what the gateway's model list reports, else
// assumedContextWindow.
type windowSource struct {
	// ctx bounds the gateway lookups; it ends with the session.
	ctx        context.Context
	configured func(model string) int
	// lookup asks the gateway's model list; nil offline.
	lookup func(ctx context.Context, model string) (int, error)
}

// follow sets a's window for model: at once from the config or the assumed
// default, then, when the gateway reports the model's window, from that. A
// lookup that answers after the model changed again is dropped.
func (w *windowSource) follow(a *agent.Agent, model string) {
	if n := w.configured(model); n > 0 {
		a.SetContextWindow(n)
		return
	}
	a.SetContextWindow(assumedContextWindow)
	if w.lookup == nil {
		return
	}
	go func() {
		n, err := w.lookup(w.ctx, model)
		if err != nil || n <= 0 || a.Model() != model {
			return // the assumed window stays; /context says so
		}
		a.SetContextWindow(n)
	}()
}
