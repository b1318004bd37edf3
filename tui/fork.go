package tui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/internal/sanitize"
)

// cmdFork is /fork [turn]: with a number it forks through that turn at
// once; without one it asks how much of the conversation to take.
func (m *model) cmdFork(args string) tea.Cmd {
	args = strings.TrimPrefix(strings.TrimSpace(args), "#")
	if args == "" {
		return m.loadTurns(true, "fork")
	}
	turn, err := strconv.Atoi(args)
	if err != nil || turn < 1 {
		m.setNotice("fork takes a turn number (see /rewind for the turns), or nothing for the whole conversation", true)
		return nil
	}
	return m.fork(turn)
}

// onForkTurns asks how much of the conversation the fork takes: all of it,
// or the turns up to and including a chosen one.
func (m *model) onForkTurns(msg turnsMsg) tea.Cmd {
	if msg.err != nil {
		m.setNotice("fork: "+sanitize.Clean(msg.err.Error()), true)
		return nil
	}
	ts := msg.turns.Turns
	if len(ts) == 0 {
		m.setNotice("nothing to fork: the conversation has no turn yet", false)
		return nil
	}
	items := []pickItem{{
		label: "The whole conversation",
		desc:  plural(len(ts), "turn"),
		match: "all whole",
		run:   func(m *model) tea.Cmd { return m.fork(0) },
	}}
	for i := len(ts) - 2; i >= 0; i-- {
		t := ts[i]
		items = append(items, pickItem{
			label:  turnLabel(t),
			desc:   "up to and including this turn",
			detail: "the turns after it stay in this session only",
			match:  t.Text,
			run:    func(m *model) tea.Cmd { return m.fork(t.Turn) },
		})
	}
	m.openPicker(newPicker("Fork into a new session", "type to filter · "+m.keys.Up.Help().Key+" · "+firstKey(m.keys.Choose)+" fork · "+helpText(m.keys.Cancel), items, true))
	return nil
}

// fork continues in a new session holding the conversation through turn
// (0: all of it).
func (m *model) fork(turn int) tea.Cmd {
	if !m.be.Recorded() {
		m.setNotice("fork: this session is not recorded", true)
		return nil
	}
	if m.busy {
		m.setNotice("the agent is working: press "+firstKey(m.keys.Interrupt)+" first, then /fork", true)
		return nil
	}
	be, ctx := m.be, m.ctx
	m.busy = true
	m.turnStart = m.rc.now
	m.setNotice("forking…", false)
	return func() tea.Msg {
		sw, err := be.Fork(ctx, turn)
		return switchMsg{sw: sw, err: err, what: "fork"}
	}
}
