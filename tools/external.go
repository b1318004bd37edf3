package tools

import "context"

// External is a tool of KindExternal: one tool of an MCP server. The
// approval engine reads the server's claims through it; they are hints from a
// program tern does not control and loosen nothing unless the user said so.
type External interface {
	Tool
	// Server is the server's configured name; Remote the tool's own name
	// on that server (the tool's Spec().Name is mcp__<server>__<tool>).
	Server() string
	Remote() string
	// ReadOnlyHint reports the server's readOnlyHint annotation.
	ReadOnlyHint() bool
}

// Source offers tools that come and go while a session runs (the tools of
// MCP servers). The agent reads it at turn boundaries only, so the tool
// list of one turn never changes inside it.
type Source interface {
	// Wait returns once no server is still starting, or when ctx ends.
	Wait(ctx context.Context)
	// Tools returns the tools offered now, sorted by name.
	Tools() []Tool
}
