package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/sahilm/fuzzy"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tui/sanitize"
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
	return []command{
		{"help", "", "commands, keys, mouse and selection", (*model).cmdHelp},
		{"clear", "", "start a new conversation", (*model).cmdClear},
		{"model", "[id]", "switch the model for the next requests", (*model).cmdModel},
		{"approval", "[mode]", "approval policy: ask, auto-edit, full-auto, read-only", (*model).cmdApproval},
		{"context", "", "what the next request holds, and how much of the window", (*model).cmdContext},
		{"compact", "[focus]", "summarize the conversation so far to free context (the log keeps it all)", (*model).cmdCompact},
		{"plan", "[request]", "plan mode: the model reads and proposes a plan to accept; again to leave", (*model).cmdPlan},
		{"init", "[focus]", "ask the model to write AGENTS.md for this repository", (*model).cmdInit},
		{"memory", "[n]", "list the project memory files (AGENTS.md); open one in $EDITOR", (*model).cmdMemory},
		{"cost", "", "session totals: requests, tokens, cache hits, time to first token, money", (*model).cmdCost},
		{"diff", "", "every file change made in this session, as a coloured diff", (*model).cmdDiff},
		{"undo", "[force]", "revert the last turn's file changes (force: overwrite files changed outside tern)", (*model).cmdUndo},
		{"rewind", "", "go back to an earlier turn: code, conversation or both; or undo a rewind (esc esc)", (*model).cmdRewind},
		{"resume", "[id]", "switch to a saved session of this workspace (picker without an id)", (*model).cmdResume},
		{"fork", "[turn]", "continue in a new session with the history so far (or up to a turn)", (*model).cmdFork},
		{"export", "[path]", "write the conversation as Markdown (default ./tern-<session id>.md)", (*model).cmdExport},
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

// runCommand runs a "/name args" line, or says what was meant.
func (m *model) runCommand(line string) tea.Cmd {
	name, args, _ := strings.Cut(strings.TrimPrefix(line, "/"), " ")
	name = strings.ToLower(name)
	args = strings.TrimSpace(args)
	for _, c := range commandTable() {
		if c.name == name {
			return c.run(m, args)
		}
	}
	msg := "unknown command /" + name
	if s := suggest(name); s != "" {
		msg += " — did you mean /" + s + "?"
	} else {
		msg += " — /help lists the commands"
	}
	m.setNotice(msg, true)
	return nil
}

// suggest returns the command name closest to name, or "".
func suggest(name string) string {
	var names []string
	for _, c := range commandTable() {
		names = append(names, c.name)
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

func (m *model) cmdHelp(string) tea.Cmd {
	th := m.rc.th
	const col = 21 // where descriptions start
	var lines []string
	var hangs []int
	add := func(hang int, ls ...string) {
		for _, l := range ls {
			lines = append(lines, l)
			hangs = append(hangs, hang)
		}
	}
	add(0, th.bold.Render("Commands"))
	for _, c := range commandTable() {
		name := "/" + c.name
		if c.args != "" {
			name += " " + c.args
		}
		add(col, fmt.Sprintf("  %-18s %s", name, th.dim.Render(c.desc)))
	}
	nl := "ctrl+j"
	if m.kitty {
		nl = "shift+enter or ctrl+j"
	}
	keys := [][2]string{
		{"enter", "send (queued while the agent works; ↑ on an empty input takes it back)"},
		{nl, "new line (alt+enter too)"},
		{"esc", "interrupt the agent at once; the partial answer stays · esc esc on an empty input: /rewind"},
		{"ctrl+c", "clear the input · interrupt · twice on an empty input to quit"},
		{"ctrl+d", "quit (on an empty input)"},
		{"↑/↓", "scroll the transcript when the input is empty; history on its first/last line"},
		{"ctrl+p/ctrl+n", "previous/next prompt from the history"},
		{"pgup/pgdn", "scroll a page · alt+↑/alt+↓ half a page · home/end (empty input)"},
		{"ctrl+o", "expand or collapse the latest tool card or reasoning"},
		{"ctrl+t", "transcript: every tool card and reasoning in full · tab/shift+tab select a card, enter folds it · esc back"},
		{"ctrl+g", "edit the draft in $EDITOR"},
		{"@path", "attach a file: @ after a space or at a line start opens a fuzzy picker, anywhere in the draft"},
		{"!cmd", "run a shell command (a draft starting with !); it and its output go to the model with your next message"},
		{"#text", "add a line to the project's AGENTS.md (asks first; applies from the next session)"},
		{"approvals", "y allow · a allow for the session · n/esc deny · e deny and tell the model"},
	}
	add(0, "", th.bold.Render("Keys"))
	for _, k := range keys {
		add(col, fmt.Sprintf("  %-18s %s", k[0], th.dim.Render(k[1])))
	}
	mouse := "Mouse capture is off: select text with the mouse as usual, and the wheel scrolls the transcript (it arrives as ↑/↓). /mouse turns capture on (wheel events always scroll; select with shift+drag)."
	if m.mouse {
		mouse = "Mouse capture is on: the wheel scrolls; hold shift while dragging to select text. /mouse turns it off for plain selection."
	}
	add(0, "", th.bold.Render("Mouse"))
	add(2, "  "+mouse, "  /copy puts the last answer on the clipboard (OSC 52, plus xclip/wl-copy when installed).")
	help := &noticeBlock{lines: lines, hangs: hangs}
	m.tr.add(help)
	// On a short screen the block is taller than the view: show its start,
	// with "new output below" saying there is more.
	m.tr.reveal(help)
	return nil
}

func (m *model) cmdClear(string) tea.Cmd {
	if m.busy {
		m.setNotice("the agent is working: press esc first, then /clear", true)
		return nil
	}
	if err := m.be.Reset(); err != nil {
		m.setNotice("clear: "+err.Error(), true)
		return nil
	}
	m.tr.clear()
	m.cards = map[string]*toolCard{}
	m.streamed = map[block]bool{}
	m.answer, m.thinking, m.latest = nil, nil, nil
	m.usage, m.lastIn = provider.Usage{}, 0
	m.queued, m.shellContext = nil, nil
	m.todo = nil
	m.planOffer, m.compactB = false, nil
	m.tr.add(m.welcome())
	m.setNotice("new conversation", false)
	return nil
}

// modelsMsg carries the gateway's model list for the picker.
type modelsMsg struct {
	models []string
	err    error
}

func (m *model) cmdModel(args string) tea.Cmd {
	if args != "" {
		m.setModel(args)
		return nil
	}
	if m.opts.Models == nil {
		m.setNotice("model: "+m.be.Model()+" · type /model <id> to switch", false)
		return nil
	}
	list, ctx := m.opts.Models, m.ctx
	m.setNotice("listing models…", false)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		defer cancel()
		models, err := list(ctx)
		return modelsMsg{models: models, err: err}
	}
}

// onModels opens the model picker.
func (m *model) onModels(msg modelsMsg) {
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
		it := palItem{value: id, label: idLabel(id)}
		if id == cur {
			it.desc = "current"
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

func (m *model) setModel(id string) {
	m.be.SetModel(id)
	m.setNotice("model: "+id+" (from the next request)", false)
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
