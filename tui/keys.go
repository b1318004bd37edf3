package tui

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// onKey routes a key press: the approval dialog first, then an open
// palette, then tern's own keys, and everything else to the input.
func (m *model) onKey(k tea.KeyPressMsg) tea.Cmd {
	km := &m.keys
	if m.remember != "" && m.dlg == nil {
		return m.onRememberKey(k)
	}
	if m.planOffer && m.dlg == nil {
		if cmd, handled := m.onPlanOfferKey(k); handled {
			return cmd
		}
	}
	if !key.Matches(k, km.Clear) {
		m.quitAt = m.rc.now.Add(-2 * quitWindow)
	}
	if !key.Matches(k, km.Interrupt) {
		m.escAt = time.Time{}
	}
	m.notice = ""
	if m.dlg != nil {
		if key.Matches(k, km.Clear) {
			return m.interrupt()
		}
		return m.onDialogKey(k)
	}
	if m.search != nil {
		if cmd, handled := m.onSearchKey(k); handled {
			return cmd
		}
	}
	if m.pick != nil {
		return m.onPickerKey(k)
	}
	if m.tv.isOpen() {
		return m.onTranscriptViewKey(k)
	}
	if m.pal != nil {
		if cmd, ok := m.onPaletteKey(k); ok {
			return cmd
		}
	}
	if cmd, handled := m.onInputKey(k); handled {
		return cmd
	}
	if m.typeKey(k) {
		m.typedOnly = true
		return m.refreshPalette()
	}
	cmd := m.updateInput(k)
	return tea.Batch(cmd, m.refreshPalette())
}

// onInputKey handles tern's keys while the input has the focus; handled is
// false for keys that go on to the input (home on a draft moves its cursor).
func (m *model) onInputKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	km := &m.keys
	empty := m.input.Value() == ""
	// The key's name, made once for the bindings below instead of once
	// for each; the page only for the keys that page (laying out the
	// chrome for it cost a typed key more than the key itself).
	k := keyName(msg.String())
	page := func() int { return max(1, m.transcriptHeight()-2) }
	switch {
	case key.Matches(k, km.Clear):
		return m.ctrlC(), true
	case key.Matches(k, km.Quit):
		if empty {
			return m.quit(), true
		}
	case key.Matches(k, km.Interrupt):
		if m.busy {
			return m.interrupt(), true
		}
		if empty && m.shell == nil {
			return m.escEmpty(), true
		}
		return nil, true
	case key.Matches(k, km.EscEsc):
		if m.busy {
			return m.interrupt(), true
		}
		if empty && m.shell == nil && m.be.Recorded() {
			return m.cmdRewind(""), true
		}
		return nil, true
	case key.Matches(k, km.Expand):
		m.toggleLatest()
		return nil, true
	case key.Matches(k, km.Transcript):
		m.openTranscriptView()
		return nil, true
	case key.Matches(k, km.Editor):
		return m.openEditor(), true
	case key.Matches(k, km.Suspend):
		return m.suspend(), true
	case key.Matches(k, km.PasteImage):
		return m.pasteImage(), true
	case key.Matches(k, km.Send):
		return m.send(), true
	case key.Matches(k, km.PageUp):
		m.scrollBy(-page())
		return nil, true
	case key.Matches(k, km.PageDown):
		m.scrollBy(page())
		return nil, true
	case key.Matches(k, km.HalfUp):
		m.scrollBy(-max(1, page()/2))
		return nil, true
	case key.Matches(k, km.HalfDown):
		m.scrollBy(max(1, page()/2))
		return nil, true
	case key.Matches(k, km.Home):
		if empty {
			m.tr.home()
			return nil, true
		}
	case key.Matches(k, km.End):
		if empty {
			m.tr.end()
			return nil, true
		}
	case key.Matches(k, km.Search):
		m.startSearch()
		return nil, true
	case key.Matches(k, km.Prev):
		m.historyPrev()
		return nil, true
	case key.Matches(k, km.Next):
		m.historyNext()
		return nil, true
	case key.Matches(k, km.Up):
		if m.onArrow(-1) {
			return nil, true
		}
	case key.Matches(k, km.Down):
		if m.onArrow(1) {
			return nil, true
		}
	}
	return nil, false
}

// keyName is a key's name as the bindings match it.
type keyName string

// String returns the name.
func (k keyName) String() string { return string(k) }

// ctrlC clears the input, else interrupts, else quits on a second press.
func (m *model) ctrlC() tea.Cmd {
	switch {
	case m.input.Value() != "":
		m.input.Reset()
		m.hist.reset()
		m.pal = nil
		m.quitAt = m.rc.now.Add(-2 * quitWindow)
		return nil
	case m.busy && !m.continuing: // reading a session (Options.Continue) is no turn to stop
		return m.interrupt()
	case m.rc.now.Sub(m.quitAt) < quitWindow:
		return m.quit()
	}
	m.quitAt = m.rc.now
	m.setNotice("press "+m.keys.Clear.Help().Key+" again to quit", false)
	return nil
}

// interrupt stops the turn (and a running `!` command) at once. The
// partial answer stays, the input keeps its draft and the queue waits: the
// user stopped the agent, so it must not go on with the next message.
func (m *model) interrupt() tea.Cmd {
	m.paused = len(m.queued) > 0
	switch {
	case m.shell != nil:
		m.shell.cancel()
	case m.busy:
		m.be.Cancel()
		m.stopping = true
	}
	if m.dlg != nil {
		// The agent resolves pending approvals as cancelled; don't wait for
		// it to take the dialog down.
		m.pending = nil
		m.closeDialog()
	}
	return m.input.Focus()
}

// quit leaves the program, stopping a running turn first.
func (m *model) quit() tea.Cmd {
	if m.busy {
		m.be.Cancel()
	}
	if m.shell != nil {
		m.shell.cancel()
	}
	m.quitting = true
	return tea.Quit
}

// onFirstLine reports whether the cursor is on the input's first visual line.
func (m *model) onFirstLine() bool {
	return m.input.Line() == 0 && m.input.LineInfo().RowOffset == 0
}

// onLastLine reports whether the cursor is on the input's last visual line.
func (m *model) onLastLine() bool {
	li := m.input.LineInfo()
	return m.input.Line() == m.input.LineCount()-1 && li.RowOffset == li.Height-1
}

// toggleLatest expands or collapses the most recent card or reasoning.
func (m *model) toggleLatest() {
	if b, ok := m.latest.(foldingBlock); ok {
		b.toggleExpanded()
		m.tr.changed(b)
	}
}

// unqueue takes the last queued message back into the input for editing.
func (m *model) unqueue() {
	last := m.queued[len(m.queued)-1]
	m.queued = m.queued[:len(m.queued)-1]
	if len(m.queued) == 0 {
		m.paused = false
	}
	m.input.SetValue(last)
}

// isCommand reports whether the input is a slash command line.
func isCommand(s string) bool {
	return strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "//")
}
