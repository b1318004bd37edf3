package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/internal/sanitize"
	"github.com/ternhq/tern/tools/mcp"
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
	return watchMCP(m.be.MCP())
}

// mcpStatus is the status line's badge, "mcp 2/3", while any server is
// configured and enabled; a server that failed colours it.
func (m *model) mcpStatus() (statusPart, bool) {
	if m.be.MCP() == nil {
		return statusPart{}, false
	}
	ready, enabled := m.be.MCP().Counts()
	if enabled == 0 {
		return statusPart{}, false
	}
	text := fmt.Sprintf("mcp %d/%d", ready, enabled)
	style := m.rc.th.dim
	for _, s := range m.be.MCP().Servers() {
		if s.State == mcp.StateFailed {
			style = m.rc.th.warn
		}
	}
	return statusPart{text: style.Render(text), keep: 4}, true
}

// cmdMCP lists the MCP servers (/mcp) or reconnects one (/mcp NAME, or
// /mcp reconnect NAME).
func (m *model) cmdMCP(args string) tea.Cmd {
	if m.be.MCP() == nil {
		m.setNotice("mcp: no MCP servers are configured; add one with `tern mcp add` (docs/config.md)", true)
		return nil
	}
	name := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(args), "reconnect"))
	if name == "" {
		m.tr.end()
		m.tr.add(&noticeBlock{lines: m.mcpLines()})
		return nil
	}
	if err := m.be.MCP().Reconnect(name); err != nil {
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
	for _, s := range m.be.MCP().Servers() {
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

// mcpPromptMsg is a fetched MCP prompt, ready to send, or why it is not.
type mcpPromptMsg struct {
	display, text string
	err           error
}

// findMCPPrompt finds the prompt a "/mcp__<server>__<prompt>" command
// names (commands are matched without regard to case).
func (m *model) findMCPPrompt(name string) (mcp.PromptInfo, bool) {
	if m.be.MCP() == nil || !strings.HasPrefix(name, mcp.Prefix) {
		return mcp.PromptInfo{}, false
	}
	for _, s := range m.be.MCP().Servers() {
		for _, p := range s.Prompts {
			if strings.EqualFold(p.Name, name) {
				return p, true
			}
		}
	}
	return mcp.PromptInfo{}, false
}

// isMCPPrompt reports whether a "/name args" line names an MCP prompt.
func (m *model) isMCPPrompt(line string) bool {
	_, ok := m.findMCPPrompt(commandName(line))
	return ok
}

// runMCPPrompt fetches the prompt a command names and sends it to the
// model as the user's message. Arguments are given in the prompt's order
// or as name=value.
func (m *model) runMCPPrompt(name, args string) (tea.Cmd, bool) {
	p, ok := m.findMCPPrompt(name)
	if !ok {
		return nil, false
	}
	if m.busy {
		m.setNotice("the agent is working: wait for the turn to end, then /"+name, true)
		return nil, true
	}
	values, err := promptArgs(p, args)
	if err != nil {
		m.setNotice("/"+sanitize.Clean(p.Name)+": "+err.Error(), true)
		return nil, true
	}
	m.busy, m.awaiting = true, true // until TurnStarted confirms
	m.turnStart = m.rc.now
	display := "/" + p.Name
	if args != "" {
		display += " " + args
	}
	svc, ctx := m.be.MCP(), m.ctx
	return func() tea.Msg {
		text, err := svc.Prompt(ctx, p.Name, values)
		return mcpPromptMsg{display: display, text: text, err: err}
	}, true
}

// onMCPPrompt sends a fetched prompt, or says why it could not be fetched.
func (m *model) onMCPPrompt(msg mcpPromptMsg) tea.Cmd {
	if msg.err != nil {
		m.busy, m.awaiting = false, false
		m.setNotice("mcp: "+sanitize.Clean(msg.err.Error()), true)
		return nil
	}
	return m.onAttached(attachedMsg{display: msg.display, text: msg.text, chips: []string{"mcp prompt"}})
}

// promptArgs maps a command's arguments to the prompt's: name=value
// words by name, the others in the prompt's order; a missing required
// argument is an error naming the usage.
func promptArgs(p mcp.PromptInfo, args string) (map[string]string, error) {
	values := map[string]string{}
	next := 0
	for _, w := range strings.Fields(args) {
		if k, v, ok := strings.Cut(w, "="); ok && slicesHasArg(p.Args, k) {
			values[k] = v
			continue
		}
		for next < len(p.Args) && values[p.Args[next].Name] != "" {
			next++
		}
		if next >= len(p.Args) {
			return nil, fmt.Errorf("too many arguments; usage: %s", promptUsage(p))
		}
		values[p.Args[next].Name] = w
		next++
	}
	for _, a := range p.Args {
		if a.Required && values[a.Name] == "" {
			return nil, fmt.Errorf("the argument %s is missing; usage: %s", a.Name, promptUsage(p))
		}
	}
	return values, nil
}

func slicesHasArg(args []mcp.PromptArg, name string) bool {
	for _, a := range args {
		if a.Name == name {
			return true
		}
	}
	return false
}

// promptUsage is "/name <required> [optional]".
func promptUsage(p mcp.PromptInfo) string {
	parts := []string{"/" + p.Name}
	for _, a := range p.Args {
		if a.Required {
			parts = append(parts, "<"+a.Name+">")
		} else {
			parts = append(parts, "["+a.Name+"]")
		}
	}
	return sanitize.Clean(strings.Join(parts, " "))
}

// mentionAttacher reads an @-mention: @<server>:<uri> from that MCP
// server when one is named so, any other through the session's Attach.
func (m *model) mentionAttacher() func(string) (string, error) {
	be, svc, ctx := m.be, m.be.MCP(), m.ctx
	if svc == nil {
		return be.Attach
	}
	names := map[string]bool{}
	for _, s := range svc.Servers() {
		names[s.Name] = true
	}
	return func(p string) (string, error) {
		if server, uri, ok := strings.Cut(p, ":"); ok && names[server] && uri != "" {
			return svc.Resource(ctx, server, uri)
		}
		return be.Attach(p)
	}
}

// mcpPromptItems are the palette rows of the MCP servers' prompts.
func (m *model) mcpPromptItems() []palItem {
	if m.be.MCP() == nil {
		return nil
	}
	var out []palItem
	for _, s := range m.be.MCP().Servers() {
		for _, p := range s.Prompts {
			desc, _, _ := strings.Cut(p.Description, "\n")
			out = append(out, palItem{value: p.Name, label: promptUsage(p), desc: sanitize.Clean(desc)})
		}
	}
	return out
}
