// Package lsp runs the workspace's language servers on demand and reports
// their diagnostics to the file tools (tools.Diagnoser); JSON-RPC framing is
// github.com/sourcegraph/jsonrpc2's, the few protocol messages are typed here.
package lsp
