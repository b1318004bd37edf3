package acp

import (
	sdk "github.com/coder/acp-go-sdk"

	"github.com/ternhq/tern/tools/mcp"
)

// mcpServers converts the MCP servers an editor passes with session/new
// into tern's: stdio and Streamable HTTP ones, named safely. It returns the
// names of those it cannot connect (SSE, ACP-carried, unnamed), which the
// session's _meta reports.
func mcpServers(list []sdk.McpServer) (servers []mcp.ServerConfig, skipped []string) {
	seen := map[string]bool{}
	for _, s := range list {
		var c mcp.ServerConfig
		switch {
		case s.Stdio != nil:
			c = mcp.ServerConfig{Name: mcp.SafeServerName(s.Stdio.Name), Command: s.Stdio.Command, Args: s.Stdio.Args}
			for _, e := range s.Stdio.Env {
				if c.Env == nil {
					c.Env = map[string]string{}
				}
				c.Env[e.Name] = e.Value
			}
		case s.Http != nil:
			c = mcp.ServerConfig{Name: mcp.SafeServerName(s.Http.Name), URL: s.Http.Url}
			for _, h := range s.Http.Headers {
				if c.Headers == nil {
					c.Headers = map[string]string{}
				}
				c.Headers[h.Name] = h.Value
			}
		case s.Sse != nil:
			skipped = append(skipped, s.Sse.Name+" (SSE)")
			continue
		default:
			skipped = append(skipped, "a server of an unsupported transport")
			continue
		}
		c.Literal = true // the editor sends values, not $VARs to expand
		if c.Validate() != nil || seen[c.Name] {
			skipped = append(skipped, c.Name)
			continue
		}
		seen[c.Name] = true
		servers = append(servers, c)
	}
	return servers, skipped
}
