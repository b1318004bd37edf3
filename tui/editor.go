package tui

import (
	"fmt"
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// editorMsg moves the ctrl+g round trip along: the draft file is ready
// (path set, text empty), the editor exited, or the edited text was read.
type editorMsg struct {
	path   string
	exited bool
	text   string
	read   bool
	err    error
}

// openEditor writes the draft to a temporary file for $EDITOR.
func (m *model) openEditor() tea.Cmd {
	draft := m.input.Value()
	return func() tea.Msg {
		f, err := os.CreateTemp("", "tern-draft-*.md")
		if err != nil {
			return editorMsg{err: fmt.Errorf("create draft file: %w", err)}
		}
		_, werr := f.WriteString(draft)
		cerr := f.Close()
		if werr != nil || cerr != nil {
			_ = os.Remove(f.Name())
			return editorMsg{err: fmt.Errorf("write draft file: %w", firstErr(werr, cerr))}
		}
		return editorMsg{path: f.Name()}
	}
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// editorCommand builds the $EDITOR (or $VISUAL, else vi) command for path.
func (m *model) editorCommand(path string) *exec.Cmd {
	ed := m.getenv("VISUAL")
	if ed == "" {
		ed = m.getenv("EDITOR")
	}
	if ed == "" {
		ed = "vi"
	}
	f := strings.Fields(ed)
	return exec.Command(f[0], append(f[1:], path)...) //nolint:gosec // the user's own editor setting
}

// onEditor advances the ctrl+g round trip.
func (m *model) onEditor(msg editorMsg) tea.Cmd {
	switch {
	case msg.err != nil:
		if msg.path != "" {
			path := msg.path
			m.setNotice("editor: "+msg.err.Error(), true)
			return func() tea.Msg { _ = os.Remove(path); return nil }
		}
		m.setNotice("editor: "+msg.err.Error(), true)
		return nil
	case msg.read:
		m.input.SetValue(strings.TrimRight(msg.text, "\n"))
		return tea.Batch(m.refreshPalette(), m.input.Focus())
	case msg.exited:
		path := msg.path
		return func() tea.Msg {
			b, err := os.ReadFile(path)
			_ = os.Remove(path)
			if err != nil {
				return editorMsg{err: fmt.Errorf("read the edited draft: %w", err)}
			}
			return editorMsg{text: string(b), read: true}
		}
	}
	path := msg.path
	return m.runInTerminal(m.editorCommand(path), func(err error) tea.Msg {
		if err != nil {
			return editorMsg{path: path, err: fmt.Errorf("the editor failed: %w", err)}
		}
		return editorMsg{path: path, exited: true}
	})
}
