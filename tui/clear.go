package tui

import (
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/sanitize"
	"github.com/ternhq/tern/provider"
)

// clearMsg carries how the session's Reset for /clear ended.
type clearMsg struct{ err error }

// cmdClear is /clear: the session resets in a command, because starting a
// new session log creates and syncs a file, which must not stall the
// screen. Nothing may start meanwhile; what is typed waits in the queue.
func (m *model) cmdClear(string) tea.Cmd {
	if m.busy {
		m.setNotice("the agent is working: press "+firstKey(m.keys.Interrupt)+" first, then /clear", true)
		return nil
	}
	be := m.be
	m.busy = true
	m.turnStart = m.rc.now
	m.queued, m.paused = nil, false // held back before /clear: they belong to the old conversation
	m.setNotice("starting a new conversation…", false)
	return func() tea.Msg { return clearMsg{err: be.Reset()} }
}

// onClear empties the screen once the session reset, and says what went
// wrong if something did.
func (m *model) onClear(msg clearMsg) tea.Cmd {
	m.busy = false
	if errors.Is(msg.err, agent.ErrBusy) {
		m.setNotice("clear: "+sanitize.Clean(msg.err.Error()), true)
		return m.sendQueued()
	}
	m.tr.clear()
	m.cards = map[string]*toolCard{}
	m.streamed = map[block]bool{}
	m.answer, m.thinking, m.latest = nil, nil, nil
	m.usage, m.lastIn = provider.Usage{}, 0
	m.shellContext = nil
	m.todo = nil
	m.planOffer, m.compactB = false, nil
	m.tr.add(m.welcome())
	if msg.err != nil {
		m.setNotice("new conversation, but "+sanitize.Clean(msg.err.Error()), true)
	} else {
		m.setNotice("new conversation", false)
	}
	return m.sendQueued()
}
