package main

import (
	"github.com/ternhq/tern/cmd/tern/config"
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/lsp"
	"github.com/ternhq/tern/tui"
)

// wireLSP gives the workspace its language servers, unless lsp = false:
// none starts before a file of its language is read or edited. The
// servers run as the user's processes, outside the shell sandbox, with
// run_shell's environment (tern's API keys removed). The manager returned
// (nil when off) must be closed when the session ends.
func wireLSP(cfg *config.Config, ws *tools.Workspace, environ []string) *lsp.Manager {
	if !cfg.LSP.On.V {
		return nil
	}
	m := lsp.New(lsp.Options{
		Root:    ws.Root,
		Servers: lsp.Merge(lsp.KnownServers(), cfg.LSP.Servers),
		Wait:    cfg.LSP.Wait.V,
		Settle:  cfg.LSP.Settle.V,
		Env:     tools.FilterEnv(environ),
	})
	ws.Diagnoser = m
	return m
}

// lspServers lists the manager's servers for the interface (/lsp, the
// status line); nil when language servers are off.
func lspServers(m *lsp.Manager) func() []tui.LSPServer {
	if m == nil {
		return nil
	}
	return func() []tui.LSPServer {
		var out []tui.LSPServer
		for _, s := range m.Servers() {
			out = append(out, tui.LSPServer{Name: s.Name, Root: s.Root, State: s.State.String(), Files: s.Files, Restarts: s.Restarts, LastError: s.LastError})
		}
		return out
	}
}
