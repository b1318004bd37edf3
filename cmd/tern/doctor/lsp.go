package doctor

import (
	"fmt"
	"strings"

	"github.com/ternhq/tern/cmd/tern/config"
	"github.com/ternhq/tern/tools/lsp"
)

// lspCheck says whether language servers are on, the wait, and which
// servers are on PATH. A missing server is no failure: its language just
// gets no diagnostics.
func lspCheck(c *config.Config) Check {
	if !c.LSP.On.V {
		return Check{Mark: Pass, Name: "language servers", Detail: fmt.Sprintf("off (%s)", c.LSP.On.Source)}
	}
	found, missing := lsp.OnPath(lsp.Merge(lsp.KnownServers(), c.LSP.Servers))
	onPath := "none"
	if len(found) > 0 {
		onPath = strings.Join(found, ", ")
	}
	detail := fmt.Sprintf("on (%s), lsp_wait %s (%s), lsp_settle %s (%s); on PATH: %s", c.LSP.On.Source, c.LSP.Wait.V, c.LSP.Wait.Source,
		c.LSP.Settle.V, c.LSP.Settle.Source, onPath)
	if len(missing) > 0 {
		detail += "; not found: " + strings.Join(missing, ", ")
	}
	return Check{Mark: Pass, Name: "language servers", Detail: detail}
}
