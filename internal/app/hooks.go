package app

import (
	"context"

	"github.com/ternhq/tern/tools/hooks"
)

// sessionHooks gives the user's hooks the running session's id.
type sessionHooks struct {
	runner *hooks.Runner
	id     func() string
}

// Run runs the hooks of in.Event with the session id filled in.
func (h sessionHooks) Run(ctx context.Context, in hooks.Input) []hooks.Run {
	in.SessionID = h.id()
	return h.runner.Run(ctx, in)
}

// Hooks lists the configured hooks.
func (h sessionHooks) Hooks() []hooks.Hook { return h.runner.Hooks() }
