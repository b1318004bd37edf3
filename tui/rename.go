package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/internal/sanitize"
)

// cmdRename gives the session a title of the user's, for /rename.
func (m *model) cmdRename(args string) tea.Cmd {
	if !m.be.Recorded() {
		m.setNotice("rename: this session is not recorded", true)
		return nil
	}
	if args == "" {
		m.setNotice("rename: give the new title, e.g. /rename fix the flaky login test", true)
		return nil
	}
	title, err := m.be.Rename(args)
	if err != nil {
		m.setNotice("rename: "+sanitize.Clean(err.Error()), true)
		return nil
	}
	m.setNotice("session renamed “"+sanitize.Clean(title)+"” (/resume and tern sessions show it)", false)
	return nil
}
