package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/internal/commands"
	"github.com/ternhq/tern/internal/sanitize"
)

// builtinCommand reports whether name is one of commandTable's.
func builtinCommand(name string) bool {
	for _, c := range commandTable() {
		if c.name == name {
			return true
		}
	}
	return false
}

// loadCustom reads the custom commands anew (the palette opening, a line
// sent that names no built-in), so a file added while tern runs counts at
// once. A file that could not be read is said in the notice line.
func (m *model) loadCustom() []commands.Command {
	cmds, err := m.be.Commands(builtinCommand)
	if err != nil {
		m.setNotice("custom commands: "+sanitize.Clean(err.Error()), true)
	}
	m.custom = cmds
	return cmds
}

// customItems are the palette rows of the custom commands, marked
// (project) or (user).
func customItems(cmds []commands.Command) []palItem {
	out := make([]palItem, 0, len(cmds))
	for _, c := range cmds {
		desc := c.Description
		if c.Shadowed {
			// Listed by its own name beside the command that took it; the
			// row inserts the name that runs it.
			desc = strings.TrimSpace(desc + " · runs as /" + c.Invoke)
		}
		out = append(out, palItem{value: c.Invoke, label: sanitize.Visible(c.Label()), desc: sanitize.Visible(desc)})
	}
	return out
}

// findCustom returns the custom command a "/name args" line names.
func (m *model) findCustom(name string) (commands.Command, bool) {
	if c, ok := commands.Find(m.custom, name); ok {
		return c, true
	}
	return commands.Find(m.loadCustom(), name)
}

// runCustom sends a custom command's prompt as if it had been typed: its
// @-mentions are attached, and it waits in the queue while a turn runs
// (queued as typed, and expanded when it is sent). A model named in its
// front matter answers this prompt alone; the session's model is unchanged.
func (m *model) runCustom(c commands.Command, args string) tea.Cmd {
	if m.busy || m.queuePaused() {
		m.queued = append(m.queued, strings.TrimSpace("/"+c.Invoke+" "+args))
		m.paused = false
		return m.sendQueued()
	}
	if c.Model != "" && c.Model != m.be.Model() {
		m.turnModel = c.Model
		m.setNotice("model for this prompt: "+sanitize.Clean(c.Model)+" (from /"+sanitize.Clean(c.Invoke)+")", false)
	}
	return m.dispatch(c.Expand(args))
}
