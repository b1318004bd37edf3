package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/agent"
)

// typedClock makes every message come gap after the one before, as keys a
// person types do (the test models' clock otherwise stands still, which
// reads as keys sent together).
func typedClock(m *model, gap time.Duration) {
	now := fixedClock
	m.clock = func() time.Time {
		now = now.Add(gap)
		return now
	}
}

// withHistory is a model whose history holds entries, oldest first.
func withHistory(t *testing.T, entries ...string) *model {
	t.Helper()
	m, _ := newTestModel(t, Options{})
	step(m, historyMsg{entries: entries})
	return m
}

func TestArrowsWalkHistoryFromEmptyInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		draft string
		keys  []tea.KeyPressMsg
		want  string
	}{
		{"↑ recalls the last prompt", "", []tea.KeyPressMsg{keyUp}, "run go test ./..."},
		{"↑↑ walks further back", "", []tea.KeyPressMsg{keyUp, keyUp}, "fix the\nparser"},
		{"↑ stops at the oldest", "", []tea.KeyPressMsg{keyUp, keyUp, keyUp, keyUp, keyUp, keyUp, keyUp}, "explain main.go"},
		{"↓ walks forward", "", []tea.KeyPressMsg{keyUp, keyUp, keyDown}, "run go test ./..."},
		{"↓ past the newest gives the empty draft back", "", []tea.KeyPressMsg{keyUp, keyDown}, ""},
		{"↑ on a one-line draft recalls and ↓ restores it", "half typed", []tea.KeyPressMsg{keyUp, keyDown}, "half typed"},
		{"↑ in a multi-line draft moves the cursor up first", "one\ntwo", []tea.KeyPressMsg{keyUp}, "one\ntwo"},
		{"a recalled multi-line prompt is walked line by line", "", []tea.KeyPressMsg{keyUp, keyUp, keyUp, keyUp}, "explain main.go"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := withHistory(t, "explain main.go", "fix the\nparser", "run go test ./...")
			typedClock(m, 100*time.Millisecond)
			m.input.SetValue(tt.draft)
			for _, k := range tt.keys {
				press(m, k)
			}
			if got := m.input.Value(); got != tt.want {
				t.Fatalf("input %q, want %q", got, tt.want)
			}
		})
	}
}

func TestScrollKeysLeaveHistoryAlone(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		up     tea.KeyPressMsg
		down   tea.KeyPressMsg
		gap    time.Duration
		follow bool // whether the view follows the output after up
	}{
		{"ctrl+↑", tea.KeyPressMsg{Code: tea.KeyUp, Mod: tea.ModCtrl}, tea.KeyPressMsg{Code: tea.KeyDown, Mod: tea.ModCtrl}, 100 * time.Millisecond, false},
		{"alt+↑", tea.KeyPressMsg{Code: tea.KeyUp, Mod: tea.ModAlt}, tea.KeyPressMsg{Code: tea.KeyDown, Mod: tea.ModAlt}, 100 * time.Millisecond, false},
		{"pgup", keyPgUp, tea.KeyPressMsg{Code: tea.KeyPgDown}, 100 * time.Millisecond, false},
		// With mouse capture off a wheel notch arrives as ↑↑↑ at once.
		{"wheel as arrows", keyUp, keyDown, time.Millisecond, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := withHistory(t, "explain main.go", "run go test ./...")
			startTurn(m)
			var long strings.Builder
			for i := range 60 {
				long.WriteString("Para " + itoa(i) + "\n\n")
			}
			events(m, agent.Event{Kind: agent.EventTextDelta, Text: long.String()})
			frame(m)
			typedClock(m, tt.gap)
			press(m, tt.up)
			press(m, tt.up)
			press(m, tt.up)
			if m.input.Value() != "" || m.hist.browsing() {
				t.Fatalf("history recalled %q", m.input.Value())
			}
			if m.tr.follow != tt.follow {
				t.Fatal("the transcript did not scroll up")
			}
			for range 40 {
				press(m, tt.down)
			}
			if !m.tr.follow || m.input.Value() != "" {
				t.Fatalf("back down: follow %v, input %q", m.tr.follow, m.input.Value())
			}
		})
	}
}
