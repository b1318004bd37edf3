package tui

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// lockedBuffer is an output the renderer's ticker and the test share.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Len()
}

func (b *lockedBuffer) contains(s string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Contains(b.buf.Bytes(), []byte(s))
}

// probeModel writes a view through the screen writer once the program
// runs, notes whether it reached the output at once, then quits.
type probeModel struct {
	w       *screenWriter
	out     *lockedBuffer
	found   *bool
	written *bool
}

type probeMsg struct{}

func (m probeModel) Init() tea.Cmd { return func() tea.Msg { return probeMsg{} } }

func (m probeModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(probeMsg); ok {
		_, _, rows, ok := programRenderer(*m.w.p)
		*m.found = ok && rows
		m.w.write(tea.NewView("written-now"))
		*m.written = m.out.contains("written-now")
		return m, tea.Quit
	}
	return m, nil
}

func (m probeModel) View() tea.View { return tea.NewView("probe") }

// TestScreenWriterFindsRenderer checks that the Bubble Tea in go.mod still
// has the renderer, lock, view and flush the screen writer reaches, and that
// a view written through it reaches the terminal at once (the ticker runs
// once a second here); after an upgrade that moved them, keystrokes and
// frames would wait for the ticker again.
func TestScreenWriterFindsRenderer(t *testing.T) {
	t.Parallel()
	if _, _, _, ok := programRenderer(nil); ok {
		t.Error("a nil program has a renderer")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	var out lockedBuffer
	var p *tea.Program
	var found, written bool
	m := probeModel{w: &screenWriter{p: &p}, out: &out, found: &found, written: &written}
	p = tea.NewProgram(m, tea.WithContext(ctx), tea.WithOutput(&out), tea.WithInput(nil),
		tea.WithWindowSize(80, 24), tea.WithFPS(1))
	if _, err := p.Run(); err != nil {
		t.Fatal(err)
	}
	if !found {
		t.Fatalf("no %s with its lock and view in the running tea.Program: frames wait for the ticker (see flushnow.go)", cursedRenderer)
	}
	if !written {
		t.Errorf("the view written now did not reach the output at once: %q", out.buf.String())
	}
}
