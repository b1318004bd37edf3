package tui

import tea "charm.land/bubbletea/v2"

// cmdUnrecorded is /unrecorded: after the session log could not be
// written, the user chooses to go on without recording.
func (m *model) cmdUnrecorded(string) tea.Cmd {
	if !m.be.ContinueUnrecorded() {
		if !m.be.Recorded() {
			m.setNotice("this session is not recorded: there is nothing to turn off", true)
			return nil
		}
		m.setNotice("the session log works: recording goes on", true)
		return nil
	}
	m.setNotice("recording is off for this session: tern goes on without a log; send your message again", false)
	return nil
}
