package tui

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	tea "charm.land/bubbletea/v2"
)

// The history file holds one JSON value per line (so prompts may span
// lines) and is only ever appended to. A line is a historyLine; a bare JSON
// string is a prompt from before prompts were kept per workspace, and is
// offered in every workspace so that it is not lost.

// historyLine is one prompt of the history file and the workspace it was
// sent in: ↑ and ctrl+r offer only the prompts of the workspace tern runs in.
type historyLine struct {
	Workspace string `json:"workspace"`
	Prompt    string `json:"prompt"`
}

// historyMsg carries the entries read from the history file.
type historyMsg struct{ entries []string }

// historyPath is where the prompt history lives; "" when there is no home.
func historyPath(home string) string {
	if home == "" {
		return ""
	}
	return filepath.Join(home, "history")
}

// loadHistory reads the workspace's history in the background.
func (m *model) loadHistory() tea.Cmd {
	path, ws := historyPath(m.opts.Home), m.opts.Workspace
	if path == "" {
		return nil
	}
	return func() tea.Msg {
		entries, err := readHistory(path, ws)
		if err != nil {
			return noticeMsg{text: "history: " + err.Error(), bad: true}
		}
		return historyMsg{entries: entries}
	}
}

// readHistory reads the last maxHistory prompts of workspace; unreadable
// lines are skipped (a torn write from a crash must not lose the rest).
func readHistory(path, workspace string) ([]string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer func() { _ = f.Close() }()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		if p, ok := parseHistoryLine(sc.Bytes(), workspace); ok {
			out = append(out, p)
		}
		if len(out) > 2*maxHistory {
			out = append(out[:0], out[len(out)-maxHistory:]...)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(out) > maxHistory {
		out = out[len(out)-maxHistory:]
	}
	return out, nil
}

// parseHistoryLine returns the prompt of a line when it belongs to
// workspace (or to none: a line from before workspaces were recorded).
func parseHistoryLine(b []byte, workspace string) (string, bool) {
	var old string
	if json.Unmarshal(b, &old) == nil {
		return old, old != ""
	}
	var l historyLine
	if json.Unmarshal(b, &l) != nil || l.Prompt == "" || l.Workspace != workspace {
		return "", false
	}
	return l.Prompt, true
}

// appendHistory adds one prompt to the file in the background.
func (m *model) appendHistory(prompt string) tea.Cmd {
	path, ws := historyPath(m.opts.Home), m.opts.Workspace
	if path == "" {
		return nil
	}
	return func() tea.Msg {
		if err := writeHistory(path, ws, prompt); err != nil {
			return noticeMsg{text: "history: " + err.Error(), bad: true}
		}
		return nil
	}
}

func writeHistory(path, workspace, prompt string) error {
	line, err := json.Marshal(historyLine{Workspace: workspace, Prompt: prompt})
	if err != nil {
		return fmt.Errorf("encode history entry: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		_ = f.Close()
		return fmt.Errorf("append to %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", path, err)
	}
	return nil
}
