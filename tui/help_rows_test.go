package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestHelpGivesEachPrefixItsOwnRow checks the Keys section of /help: the
// draft prefixes @, ! and # each have a row of their own.
func TestHelpGivesEachPrefixItsOwnRow(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	step(m, tea.WindowSizeMsg{Width: 120, Height: 60})
	typeText(m, "/help")
	press(m, keyEnter)
	var rows []string
	for i := range m.tr.blocks {
		for _, l := range m.tr.lines(&m.rc, i) {
			rows = append(rows, ansi.Strip(l))
		}
	}
	tests := []struct {
		key, says string
		not       []string // belongs to another row
	}{
		{"@path", "attach a file", []string{"!cmd", "shell"}},
		{"!cmd", "shell command", []string{"attach"}},
		{"#text", "AGENTS.md", nil},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			t.Parallel()
			var row string
			for _, r := range rows {
				if strings.HasPrefix(r, "  "+tt.key+" ") {
					row = r
				}
			}
			if row == "" {
				t.Fatalf("/help has no %s row:\n%s", tt.key, strings.Join(rows, "\n"))
			}
			if !strings.Contains(row, tt.says) {
				t.Errorf("the %s row does not say %q: %q", tt.key, tt.says, row)
			}
			for _, n := range tt.not {
				if strings.Contains(row, n) {
					t.Errorf("the %s row holds %q, which has a row of its own: %q", tt.key, n, row)
				}
			}
		})
	}
}
