package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestCtrlZSuspends(t *testing.T) {
	t.Parallel()
	keyCtrlZ := tea.KeyPressMsg{Code: 'z', Mod: tea.ModCtrl}
	tests := []struct {
		name       string
		jobControl bool
		suspends   bool
		notice     string
	}{
		{"from an interactive shell", true, true, ""},
		{"with no shell to fg it back", false, false, "ctrl+z needs tern started from an interactive shell"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m, _ := newTestModel(t, Options{})
			m.jobControl = func() bool { return tt.jobControl }
			typeText(m, "draft")
			_, cmd := m.Update(keyCtrlZ)
			var suspended bool
			for _, msg := range collect(cmd) {
				_, ok := msg.(tea.SuspendMsg)
				suspended = suspended || ok
			}
			if suspended != tt.suspends {
				t.Errorf("suspended %v, want %v", suspended, tt.suspends)
			}
			if tt.notice != "" && !strings.Contains(screen(m), tt.notice) {
				t.Errorf("notice %q not shown:\n%s", tt.notice, screen(m))
			}
			if m.input.Value() != "draft" || m.quitting {
				t.Errorf("input %q quitting %v", m.input.Value(), m.quitting)
			}
		})
	}
}

func TestResumeRedraws(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	before := screen(m)
	_, cmd := m.Update(tea.ResumeMsg{})
	msgs := collect(cmd)
	if len(msgs) != 1 || msgs[0] != (tea.RawMsg{Msg: altScrollOn}) {
		t.Errorf("after resume %v, want alternate scroll turned on again", msgs)
	}
	if m.viewValid || screen(m) != before {
		t.Error("the view was not composed again, or changed")
	}
}
