package tui

import (
	"errors"
	"slices"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// gateLog is an inputGate that records what was asked of it.
type gateLog struct {
	mu    sync.Mutex
	calls []string
}

func (g *gateLog) pause()  { g.add("pause") }
func (g *gateLog) resume() { g.add("resume") }

func (g *gateLog) add(s string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calls = append(g.calls, s)
}

func (g *gateLog) log() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.calls)
}

// TestHandOverPausesReading: a key that hands the terminal to another
// program (ctrl+z, the editor) pauses tern's reading at once, before
// Bubble Tea lets go of the terminal, and the hand-over resumes it only
// after the program returned, whatever it returned.
func TestHandOverPausesReading(t *testing.T) {
	t.Parallel()
	keyCtrlZ := tea.KeyPressMsg{Code: 'z', Mod: tea.ModCtrl}
	tests := []struct {
		name string
		cmd  func(m *model) tea.Cmd
	}{
		{"ctrl+z", func(m *model) tea.Cmd { _, cmd := m.Update(keyCtrlZ); return cmd }},
		{"the editor", func(m *model) tea.Cmd { return m.onEditor(editorMsg{path: "/nonexistent/draft.md"}) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m, _ := newTestModel(t, Options{})
			m.jobControl = func() bool { return true }
			g := &gateLog{}
			m.tty = g
			if cmd := tt.cmd(m); cmd == nil {
				t.Fatal("no command to hand the terminal over")
			}
			if got := g.log(); !slices.Equal(got, []string{"pause"}) {
				t.Errorf("after the key: %v, want [pause]", got)
			}
		})
	}
	for _, runErr := range []error{nil, errors.New("the editor failed")} {
		g := &gateLog{}
		h := handover{run: func() error { g.add("run"); return runErr }, gate: g}
		if err := h.Run(); !errors.Is(err, runErr) {
			t.Errorf("Run returned %v, want %v", err, runErr)
		}
		if got := g.log(); !slices.Equal(got, []string{"run", "resume"}) {
			t.Errorf("run error %v: %v, want [run resume]", runErr, got)
		}
	}
}
