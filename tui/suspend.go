package tui

import tea "charm.land/bubbletea/v2"

// suspend stops tern as ctrl+z stops any program started from a shell: the
// terminal is given back and `fg` brings the screen back. Without a shell
// that does job control, nothing would ever resume it, so it says so
// instead of stopping.
func (m *model) suspend() tea.Cmd {
	if !m.jobControl() {
		m.setNotice(firstKey(m.keys.Suspend)+" needs tern started from an interactive shell (to fg it back)", true)
		return nil
	}
	if m.tty == nil {
		return tea.Suspend
	}
	// Bubble Tea's own suspend cannot pause tern's reader (handover.go):
	// the same stop, through a hand-over.
	return m.handOver(stopProcessGroup, func(error) tea.Msg { return tea.ResumeMsg{} })
}

// onResume redraws everything after `fg`: Bubble Tea repaints the screen,
// and the terminal modes only tern knows of are set again (a program run
// meanwhile may have reset them).
func (m *model) onResume() tea.Cmd {
	m.viewValid, m.inputViewOK = false, false
	return tea.Raw(altScrollOn)
}
