package app

import (
	"github.com/ternhq/tern/tools/lsp"
	"github.com/ternhq/tern/tools/mcp"
)

// Servers are the processes the session talks to besides the model: MCP
// servers and language servers, which the user configured and which run
// outside the shell sandbox.
type Servers interface {
	// MCP is the session's MCP servers; nil when none is configured.
	MCP() MCP
	// LanguageServers lists the language servers started so far; ok is
	// false when language servers are off (lsp = false).
	LanguageServers() (servers []LanguageServer, ok bool)
}

// LanguageServer is one language server, for /lsp and the status line.
type LanguageServer struct {
	Name string
	// Root is the folder it works on.
	Root string
	// State is "starting", "running", "failed" or "stopped".
	State string
	// Files counts the documents it was sent; Restarts its restarts after
	// a crash.
	Files, Restarts int
	// LastError is its latest failure, "" when none.
	LastError string
}

// MCP is the session's MCP servers; nil when none is configured.
func (s *Session) MCP() MCP {
	if s.mcp == nil {
		return nil // a nil *mcp.Manager in the interface would not be nil
	}
	return s.mcp
}

// LanguageServers lists the language servers started so far.
func (s *Session) LanguageServers() ([]LanguageServer, bool) {
	if s.lsp == nil {
		return nil, false
	}
	var out []LanguageServer
	for _, st := range s.lsp.Servers() {
		out = append(out, LanguageServer{Name: st.Name, Root: st.Root, State: st.State.String(), Files: st.Files, Restarts: st.Restarts, LastError: st.LastError})
	}
	return out, true
}

// The managers the session keeps, checked against what it offers.
var (
	_ MCP = (*mcp.Manager)(nil)
	_     = (*lsp.Manager).Servers
)
