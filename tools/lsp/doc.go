// Package lsp runs the workspace's language servers (gopls, rust-analyzer,
// pyright, ...) on demand and reports their diagnostics to the file tools
// through tools.Diagnoser. JSON-RPC framing comes from
// github.com/sourcegraph/jsonrpc2; the few protocol messages used are typed here.
package lsp
