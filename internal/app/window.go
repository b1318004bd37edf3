package app

import (
	"cmp"
	"context"
	"sync"

	"github.com/ternhq/tern/agent"
)

// WindowSource says where a model's context window came from.
type WindowSource int

// Where a window comes from, in order of precedence; the zero value is the
// assumed window, used when nothing else knows.
const (
	// WindowAssumed is default_context_window (AssumedContextWindow unless
	// configured): nothing knew the model's window.
	WindowAssumed WindowSource = iota
	// WindowConfigured is the model's context_window in config.toml.
	WindowConfigured
	// WindowGateway is what the gateway's model list reported.
	WindowGateway
	// WindowDatabase is the model database's figure (provider/models).
	WindowDatabase
)

// String says where the window came from, for /context and tern doctor.
func (s WindowSource) String() string {
	switch s {
	case WindowAssumed:
		return "assumed (default_context_window)"
	case WindowConfigured:
		return "configured (config.toml)"
	case WindowGateway:
		return "the gateway's model list"
	case WindowDatabase:
		return "the model database"
	}
	return "unknown"
}

// windowSource finds a model's context window: the configured one, else
// what the gateway's model list reports, else the model database's, else
// the assumed one. It keeps the agent's window (for automatic compaction)
// in step with its model, and remembers what the gateway said, so it is
// asked once a model.
type windowSource struct {
	// ctx bounds the lookups the source starts itself; it ends with the
	// session.
	ctx        context.Context
	configured func(model string) int
	// lookup asks the gateway's model list; nil offline.
	lookup func(ctx context.Context, model string) (GatewayModel, error)
	// database is the model database's window of a model (0: unknown);
	// nil without a database.
	database func(model string) int
	// assumed is the window when nothing knows it; 0 is
	// AssumedContextWindow.
	assumed int

	mu       sync.Mutex
	reported map[string]GatewayModel
}

// GatewayModel is what a gateway's model list says of one model.
type GatewayModel struct {
	// Window is its context size in tokens; 0 when the list does not say.
	Window int
	// Images says whether it takes image input; nil when the list does
	// not say.
	Images *bool
}

// of is model's window and where it came from. It may ask the gateway.
func (w *windowSource) of(ctx context.Context, model string) (tokens int, source WindowSource) {
	if n := w.configured(model); n > 0 {
		return n, WindowConfigured
	}
	w.mu.Lock()
	g, ok := w.reported[model]
	w.mu.Unlock()
	if !ok && w.lookup != nil {
		var err error
		if g, err = w.lookup(ctx, model); err != nil {
			g = GatewayModel{} // asked again next time: the gateway may answer then
		} else {
			w.remember(model, g)
		}
	}
	if g.Window > 0 {
		return g.Window, WindowGateway
	}
	return w.known(model)
}

// known is model's window without asking the gateway: the configured one,
// else the database's, else the assumed one.
func (w *windowSource) known(model string) (int, WindowSource) {
	if n := w.configured(model); n > 0 {
		return n, WindowConfigured
	}
	if w.database != nil {
		if n := w.database(model); n > 0 {
			return n, WindowDatabase
		}
	}
	return cmp.Or(w.assumed, AssumedContextWindow), WindowAssumed
}

// remember keeps what the gateway reported of model.
func (w *windowSource) remember(model string, g GatewayModel) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.reported == nil {
		w.reported = map[string]GatewayModel{}
	}
	w.reported[model] = g
}

// images is what the gateway's model list said of model's image support,
// if it was asked already (follow asks when the model is set); nil when
// it was not, or did not say. It never waits for the gateway.
func (w *windowSource) images(model string) *bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.reported[model].Images
}

// follow sets a's window for model: at once from the config, the database
// or the assumed default, then, when the gateway reports the model's
// window, from that. Automatic compaction so always has a window. A lookup
// that answers after the model changed again is dropped.
func (w *windowSource) follow(a *agent.Agent, model string) {
	n, source := w.known(model)
	a.SetContextWindow(n)
	if source == WindowConfigured || w.lookup == nil {
		return
	}
	go func() {
		n, source := w.of(w.ctx, model)
		if source != WindowGateway || a.Model() != model {
			return // the known window stays; /context says where it is from
		}
		a.SetContextWindow(n)
	}()
}
