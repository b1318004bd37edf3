package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestMouseOption checks that the `mouse` setting starts the interface with
// capture on, and that /mouse still toggles it.
func TestMouseOption(t *testing.T) {
	t.Parallel()
	for _, on := range []bool{false, true} {
		m, _ := newTestModel(t, Options{Mouse: on})
		want := tea.MouseModeNone
		if on {
			want = tea.MouseModeCellMotion
		}
		if got := m.View().MouseMode; got != want {
			t.Fatalf("Mouse %v: mouse mode %v, want %v", on, got, want)
		}
		m.runCommand("/mouse")
		m.viewValid = false
		if got := m.View().MouseMode; got == want {
			t.Fatalf("Mouse %v: /mouse did not toggle", on)
		}
	}
}
