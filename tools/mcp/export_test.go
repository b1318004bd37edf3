package mcp

import sdk "github.com/modelcontextprotocol/go-sdk/mcp"

// WithTransport makes the manager connect through tr instead of starting
// the configured command (tests with in-process servers).
func WithTransport(o Options, tr func(ServerConfig) (sdk.Transport, error)) Options {
	o.transport = tr
	return o
}
