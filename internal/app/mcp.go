package app

import (
	"context"

	"github.com/ternhq/tern/tools/mcp"
)

// MCP is what a front end shows of the session's MCP servers and does with
// them: the status badge, /mcp's list, reconnecting a failed server.
// *mcp.Manager implements it; Service.MCP returns it, nil when the session
// has no server configured.
type MCP interface {
	// Servers are every configured server's state, error and tools.
	Servers() []mcp.Status
	// Counts are the servers ready and the servers enabled.
	Counts() (ready, enabled int)
	// Reconnect restarts a server in the background.
	Reconnect(name string) error
	// Changed is closed at the next change of any server (and when the
	// servers stop).
	Changed() <-chan struct{}
	// Prompt fetches the prompt behind the slash command name with its
	// arguments, as text to send.
	Prompt(ctx context.Context, name string, args map[string]string) (string, error)
	// Resource reads a server's resource (an @server:uri mention).
	Resource(ctx context.Context, server, uri string) (string, error)
}
