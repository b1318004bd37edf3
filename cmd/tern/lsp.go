package main

import (
	"github.com/ternhq/tern/cmd/tern/config"
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/lsp"
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
