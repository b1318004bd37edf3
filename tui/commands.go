package tui

import (
	"context"
	"errors"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/sahilm/fuzzy"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/internal/sanitize"
)

// command is one slash command. The table is data: later features add rows.
type command struct {
	name string
	args string // argument hint, e.g. "[id]"
	desc string
	run  func(m *model, args string) tea.Cmd
}

// commandTable lists the slash commands in the order /help shows them.
func commandTable() []command {
	keys := newKeyMap() // the keys two descriptions name
	return []command{
		{"help", "", "commands, keys, mouse and selection", (*model).cmdHelp},
		{"clear", "", "start a new conversation", (*model).cmdClear},
		{"model", "[id]", "switch the model for the next requests", (*model).cmdModel},
		{"approval", "[mode]", "approval policy: ask, auto-edit, full-auto, read-only", (*model).cmdApproval},
		{"permissions", "", "what may run unasked: policy, rules, session grants (" + firstKey(keys.Picker.Remove) + " revokes one), sandbox", (*model).cmdPermissions},
		{"context", "", "what the next request holds, and how much of the window", (*model).cmdContext},
		{"compact", "[focus]", "summarize the conversation so far to free context (the log keeps it all)", (*model).cmdCompact},
		{"plan", "[request]", "plan mode: the model reads and proposes a plan to accept; again to leave", (*model).cmdPlan},
		{"init", "[focus]", "ask the model to write AGENTS.md for this repository", (*model).cmdInit},
		{"mcp", "[server]", "MCP servers: state, errors, tools; with a name, reconnect that server", (*model).cmdMCP},
		{"memory", "[n]", "list the project memory files (AGENTS.md); open one in $EDITOR", (*model).cmdMemory},
		{"cost", "", "session totals: requests, tokens, cache hits, time to first token, money", (*model).cmdCost},
		{"lsp", "", "the language servers: state, root, last error", (*model).cmdLSP},
		{"diff", "", "every file change made in this session, as a coloured diff", (*model).cmdDiff},
		{"undo", "[force]", "revert the last turn's file changes (force: overwrite files changed outside tern)", (*model).cmdUndo},
		{"rewind", "", "go back to an earlier turn: code, conversation or both; or undo a rewind (" + keys.EscEsc.Help().Key + ")", (*model).cmdRewind},
		{"resume", "[id]", "switch to a saved session of this workspace (picker without an id)", (*model).cmdResume},
		{"rename", "<title>", "name this session (tern names it after the first answer)", (*model).cmdRename},
		{"fork", "[turn]", "continue in a new session with the history so far (or up to a turn)", (*model).cmdFork},
		{"export", "[path]", "write the conversation as Markdown (default $TERN_HOME/exports/<id>-<title>.md)", (*model).cmdExport},
		{"copy", "", "copy the last answer to the clipboard", (*model).cmdCopy},
		{"mouse", "", "toggle mouse capture (wheel vs. native selection)", (*model).cmdMouse},
		{"unrecorded", "", "after the session log failed: go on without recording", (*model).cmdUnrecorded},
		{"exit", "", "quit tern", (*model).cmdExit},
		{"quit", "", "quit tern", (*model).cmdExit},
	}
}

// commandItems are the palette rows for the commands.
func commandItems() []palItem {
	var out []palItem
	for _, c := range commandTable() {
		label := "/" + c.name
		if c.args != "" {
			label += " " + c.args
		}
		out = append(out, palItem{value: c.name, label: label, desc: c.desc})
	}
	return out
}

// splitCommand splits a "/name args" line at its first space or newline;
// the name is lower-cased.
func splitCommand(line string) (name, args string) {
	line = strings.TrimPrefix(line, "/")
	if i := strings.IndexAny(line, " \t\n"); i >= 0 {
		line, args = line[:i], line[i+1:]
	}
	return strings.ToLower(line), strings.TrimSpace(args)
}

// commandName is the lower-cased name of a "/name args" line.
func commandName(line string) string {
	name, _ := splitCommand(line)
	return name
}

// knownCommand reports whether a "/name args" line names a command, a
// built-in or a custom one.
func (m *model) knownCommand(line string) bool {
	name := commandName(line)
	if builtinCommand(name) {
		return true
	}
	_, ok := m.findCustom(name)
	return ok
}

// runCommand runs a "/name args" line, or says what was meant.
func (m *model) runCommand(line string) tea.Cmd {
	if m.continuing {
		// The session is still being read (Options.Continue): the command
		// waits for it, shown queued, as a prompt does.
		m.queued = append(m.queued, line)
		return nil
	}
	name, args := splitCommand(line)
	for _, c := range commandTable() {
		if c.name == name {
			return c.run(m, args)
		}
	}
	if c, ok := m.findCustom(name); ok {
		return m.runCustom(c, args)
	}
	if cmd, ok := m.runMCPPrompt(name, args); ok {
		return cmd
	}
	m.unknownCommand(line)
	return nil
}

// unknownCommand says a line names no command, and which one was meant.
func (m *model) unknownCommand(line string) {
	name := commandName(line)
	msg := "unknown command /" + name
	if s := m.suggest(name); s != "" {
		msg += " — did you mean /" + s + "?"
	} else {
		msg += " — /help lists the commands"
	}
	m.setNotice(msg, true)
}

// suggest returns the command name closest to name among the built-in
// and the custom ones, or "".
func (m *model) suggest(name string) string {
	var names []string
	for _, c := range commandTable() {
		names = append(names, c.name)
	}
	for _, c := range m.custom {
		names = append(names, c.Invoke)
	}
	if ms := fuzzy.Find(name, names); len(ms) > 0 {
		return ms[0].Str
	}
	best, bestD := "", 4
	for _, n := range names {
		if d := editDistance(name, n); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// modelsMsg carries the gateway's model list for the picker.
type modelsMsg struct {
	models []string
	err    error
}

func (m *model) cmdModel(args string) tea.Cmd {
	if id, effort, ok := strings.Cut(strings.TrimSpace(args), " "); ok {
		// /model <id> <effort>
		cmd := m.setModel(id)
		m.setEffort(strings.TrimSpace(effort))
		return cmd
	}
	if args != "" {
		return m.setModel(args)
	}
	be, ctx := m.be, m.ctx
	m.setNotice("listing models…", false)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		defer cancel()
		models, err := be.Models(ctx)
		return modelsMsg{models: models, err: err}
	}
}

// onModels opens the model picker.
func (m *model) onModels(msg modelsMsg) {
	if errors.Is(msg.err, app.ErrUnavailable) {
		m.setNotice("model: "+m.be.Model()+" · type /model <id> to switch", false)
		return
	}
	if msg.err != nil || len(msg.models) == 0 {
		why := "the gateway listed none"
		if msg.err != nil {
			why = msg.err.Error()
		}
		m.setNotice("cannot list models ("+sanitize.Clean(why)+"); type /model <id>", true)
		return
	}
	m.notice = ""
	p := &palette{kind: palModels}
	cur := m.be.Model()
	for _, id := range msg.models {
		it := palItem{value: id, label: idLabel(id), desc: m.modelDesc(id)}
		if id == cur {
			it.desc = strings.TrimSuffix("current · "+it.desc, " · ")
		}
		p.items = append(p.items, it)
	}
	p.filter("")
	for i, it := range p.shown {
		if it.value == cur {
			p.sel = i
		}
	}
	m.input.Reset()
	m.pal = p
}

// setModel switches the model from the next request on and, through
// RememberModel, makes it the default of new sessions; a session with no
// home to keep it in holds the pick for itself only.
func (m *model) setModel(id string) tea.Cmd {
	m.be.SetModel(id)
	m.setNotice("model: "+id+" (from the next request, and for new sessions)", false)
	be := m.be
	return tea.Batch(m.lookupWindow(), func() tea.Msg {
		err := be.RememberModel(id)
		if errors.Is(err, app.ErrUnavailable) {
			return noticeMsg{text: "model: " + id + " (from the next request)"}
		}
		if err != nil {
			return noticeMsg{text: "model: " + id + " is used in this session, but not remembered for new ones: " + sanitize.Clean(err.Error()), bad: true}
		}
		return nil
	})
}

func (m *model) cmdApproval(args string) tea.Cmd {
	if args == "" {
		p := &palette{kind: palPolicies}
		cur := m.be.Policy()
		for _, pol := range []agent.Policy{agent.PolicyAsk, agent.PolicyAutoEdit, agent.PolicyFullAuto, agent.PolicyReadOnly} {
			it := palItem{value: pol.String(), label: pol.String(), desc: policyDesc(pol)}
			if pol == cur {
				it.desc += " (current)"
			}
			p.items = append(p.items, it)
		}
		p.filter("")
		for i, it := range p.shown {
			if it.value == cur.String() {
				p.sel = i
			}
		}
		m.input.Reset()
		m.pal = p
		return nil
	}
	pol, err := agent.ParsePolicy(args)
	if err != nil {
		m.setNotice(err.Error(), true)
		return nil
	}
	m.be.SetPolicy(pol)
	m.setNotice("approval policy: "+pol.String()+" — "+policyDesc(pol), false)
	return nil
}

// policyDesc says what a policy does.
func policyDesc(p agent.Policy) string {
	switch p {
	case agent.PolicyAsk:
		return "ask before edits and commands"
	case agent.PolicyAutoEdit:
		return "edits run; commands ask"
	case agent.PolicyFullAuto:
		return "everything runs but always-ask commands"
	case agent.PolicyReadOnly:
		return "edits and commands are refused"
	}
	return ""
}

func (m *model) cmdMouse(string) tea.Cmd {
	m.mouse = !m.mouse
	if m.mouse {
		m.setNotice("mouse capture on: the wheel scrolls; shift+drag selects text", false)
	} else {
		m.setNotice("mouse capture off: drag selects text; the wheel scrolls via ↑/↓", false)
	}
	return nil
}

func (m *model) cmdExit(string) tea.Cmd { return m.quit() }
