package tui

import (
	"bytes"
	"context"
	"testing"
	"time"
	"unsafe"

	tea "charm.land/bubbletea/v2"
)

// probeModel looks for the renderer once the program runs, then quits.
type probeModel struct {
	p     **tea.Program
	found *unsafe.Pointer
}

type probeMsg struct{}

func (m probeModel) Init() tea.Cmd { return func() tea.Msg { return probeMsg{} } }

func (m probeModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(probeMsg); ok {
		*m.found = programRenderer(*m.p)
		return m, tea.Batch(flushNow, tea.Quit)
	}
	return m, nil
}

func (m probeModel) View() tea.View { return tea.NewView("probe") }

// TestFlushNowFindsRenderer checks that the Bubble Tea in go.mod still has
// the renderer flushNow reaches, and that a flush through it runs; after an
// upgrade that moved it, keystrokes would wait for the frame ticker again.
func TestFlushNowFindsRenderer(t *testing.T) {
	t.Parallel()
	if programRenderer(nil) != nil {
		t.Error("a nil program has a renderer")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	var out bytes.Buffer
	var p *tea.Program
	var found unsafe.Pointer
	p = tea.NewProgram(probeModel{p: &p, found: &found}, tea.WithContext(ctx), tea.WithOutput(&out), tea.WithInput(nil),
		tea.WithWindowSize(80, 24), tea.WithFilter(flushFilter(&p)))
	if _, err := p.Run(); err != nil {
		t.Fatal(err)
	}
	if found == nil {
		t.Fatalf("no %s in the running tea.Program: keystrokes wait for the frame ticker (see flushnow.go)", cursedRenderer)
	}
	if !bytes.Contains(out.Bytes(), []byte("probe")) {
		t.Errorf("the frame never reached the output: %q", out.String())
	}
}
