package tui

import (
	"encoding/json"
	"strings"

	"github.com/ternhq/tern/internal/sanitize"
	"github.com/ternhq/tern/tools/mcp"
)

// mcpCard draws the calls of MCP tools: the arguments folded into one
// line as the main argument (the approval dialog and the transcript show
// them whole), and the result when open.
type mcpCard struct{}

func (mcpCard) icon() string { return "⇄" }

func (mcpCard) setArgs(c *toolCard, args map[string]any) {
	if len(args) == 0 {
		return
	}
	b, err := json.Marshal(args) // sorted keys: the same line each time
	if err != nil {
		return
	}
	c.main = truncate(sanitize.Visible(string(b)), 72)
}

func (mcpCard) body(c *toolCard, rc *renderCtx, d cardDetail, width int) []string {
	return resultBody(c, rc, d, width)
}

// isMCPTool reports whether a tool name is an MCP server's.
func isMCPTool(name string) bool { return strings.HasPrefix(name, mcp.Prefix) }
