package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/tools/mcp"
	"github.com/ternhq/tern/tui/sanitize"
)

// mcpChangedMsg says a server's state or tools changed.
type mcpChangedMsg struct{}

// watchMCP waits for the next change of the MCP servers. It returns when
// they change or stop (Close wakes it), so it never outlives them.
func watchMCP(s app.MCP) tea.Cmd {
	if s == nil {
		return nil
	}
	ch := s.Changed()
	return func() tea.Msg {
		<-ch
		return mcpChangedMsg{}
	}
}

// onMCPChanged redraws with the new states and waits for the next change,
// unless the servers stopped.
func (m *model) onMCPChanged() tea.Cmd {
	return watchMCP(m.opts.MCP)
}

// mcpStatus is the status line's badge, "mcp 2/3", while any server is
// configured and enabled; a server that failed colours it.
func (m *model) mcpStatus() (statusPart, bool) {
	if m.opts.MCP == nil {
		return statusPart{}, false
	}
	ready, enabled := m.opts.MCP.Counts()
	if enabled == 0 {
		return statusPart{}, false
	}
	text := fmt.Sprintf("mcp %d/%d", ready, enabled)
	style := m.rc.th.dim
	for _, s := range m.opts.MCP.Servers() {
		if s.State == mcp.StateFailed {
			style = m.rc.th.warn
		}
	}
	return statusPart{text: style.Render(text), keep: 4}, true
}

// cmdMCP lists the MCP servers (/mcp) or reconnects one (/mcp NAME, or
// /mcp reconnect NAME).
func (m *model) cmdMCP(args string) tea.Cmd {
	if m.opts.MCP == nil {
		m.setNotice("mcp: no MCP servers are configured; add one with `tern mcp add` (docs/config.md)", true)
		return nil
	}
	name := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(args), "reconnect"))
	if name == "" {
		m.tr.end()
		m.tr.add(&noticeBlock{lines: m.mcpLines()})
		return nil
	}
	if err := m.opts.MCP.Reconnect(name); err != nil {
		m.setNotice("mcp: "+sanitize.Clean(err.Error()), true)
		return nil
	}
	m.setNotice("mcp: reconnecting "+sanitize.Clean(name)+"; its tools are offered from the next turn once it is ready", false)
	return nil
}

// mcpLines are /mcp's list: each server's state, error and tools.
func (m *model) mcpLines() []string {
	th := m.rc.th
	lines := []string{th.bold.Render("MCP servers") + th.dim.Render(" · their tools are offered as mcp__<server>__<tool> from the next turn")}
	for _, s := range m.opts.MCP.Servers() {
		state := s.State.String()
		switch s.State {
		case mcp.StateReady:
			state = th.ok.Render(state)
		case mcp.StateFailed:
			state = th.bad.Render(state)
		case mcp.StateStarting, mcp.StateDisabled:
			state = th.dim.Render(state)
		}
		origin := ""
		if s.Project {
			origin = th.dim.Render(" · " + mcp.ProjectFile)
		}
		lines = append(lines, fmt.Sprintf("  %s  %s %s%s", th.bold.Render(sanitize.Clean(s.Name)), state,
			th.dim.Render(fmt.Sprintf("%s · %d tools", s.Transport, len(s.Tools))), origin))
		if s.Err != "" {
			lines = append(lines, "    "+th.bad.Render(sanitize.Clean(s.Err)))
		}
		for _, t := range s.Tools {
			desc, _, _ := strings.Cut(t.Description, "\n")
			line := "    " + sanitize.Clean(t.Remote)
			if desc != "" {
				line += th.dim.Render("  " + sanitize.Clean(desc))
			}
			lines = append(lines, line)
		}
	}
	return append(lines, th.dim.Render("  /mcp <server> reconnects one (a failed one starts again)"))
}

// prettyArgs indents a call's JSON arguments for the approval dialog (an
// MCP call's arguments are all there is to see); arguments that are not
// JSON are shown as they are.
func prettyArgs(args []byte) string {
	var b bytes.Buffer
	if json.Indent(&b, args, "", "  ") != nil {
		return string(args)
	}
	return b.String()
}
