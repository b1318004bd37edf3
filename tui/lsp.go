package tui

import (
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/internal/sanitize"
)

// lspActive reports whether a server is starting or running.
func lspActive(s app.LanguageServer) bool { return s.State == "starting" || s.State == "running" }

// lspServers lists the servers; nil when language servers are off.
func (m *model) lspServers() []app.LanguageServer {
	servers, _ := m.be.LanguageServers()
	return servers
}

// lspBadge is the status line's mark while servers run: "lsp", "lsp 2"
// for several, in the warning colour when one failed.
func (m *model) lspBadge() (statusPart, bool) {
	servers := m.lspServers()
	active := 0
	for _, s := range servers {
		if lspActive(s) {
			active++
		}
	}
	failed := slices.ContainsFunc(servers, func(s app.LanguageServer) bool { return s.State == "failed" })
	if active == 0 && !failed {
		return statusPart{}, false
	}
	text := "lsp"
	if active > 1 {
		text = fmt.Sprintf("lsp %d", active)
	}
	style := m.rc.th.dim
	if failed {
		style = m.rc.th.warn
		text += "!"
	}
	return statusPart{text: style.Render(text), keep: 1}, true
}

// cmdLSP lists the language servers: state, root, documents and last error.
func (m *model) cmdLSP(string) tea.Cmd {
	th := m.rc.th
	servers, on := m.be.LanguageServers()
	if !on {
		m.setNotice("language servers are off (lsp = false in config.toml)", false)
		return nil
	}
	if len(servers) == 0 {
		m.setNotice("no language server started yet: one starts when a file of its language is read or edited", false)
		return nil
	}
	lines := []string{th.bold.Render("Language servers")}
	for _, s := range servers {
		state := s.State
		switch s.State {
		case "running":
			state = th.ok.Render(state)
		case "failed":
			state = th.bad.Render(state)
		default:
			state = th.dim.Render(state)
		}
		detail := fmt.Sprintf("%s · %s", shortPath(sanitize.Clean(s.Root), m.getenv("HOME"), 50), plural(s.Files, "file"))
		if s.Restarts > 0 {
			detail += " · " + plural(s.Restarts, "restart")
		}
		lines = append(lines, fmt.Sprintf("  %-20s %s · %s", sanitize.Clean(s.Name), state, detail))
		if s.LastError != "" {
			lines = append(lines, "  "+th.dim.Render("  last error: "+sanitize.Clean(s.LastError)))
		}
	}
	m.tr.end()
	m.tr.add(&noticeBlock{lines: lines, hangs: slices.Repeat([]int{23}, len(lines))})
	return nil
}
