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

// maxHistory bounds how many prompts are kept in memory.
const maxHistory = 1000

// history is the prompt history, walked with ↑/↓. The file holds one JSON
// string per line (so prompts may span lines) and is only ever appended to.
type history struct {
	entries []string // oldest first
	pos     int      // index being shown; len(entries) when not browsing
	draft   string   // the input as it was before browsing started
	loaded  []string // prompts added before the file finished loading
}

// browsing reports whether an entry from the history is in the input.
func (h *history) browsing() bool { return h.pos < len(h.entries) }

// reset stops browsing.
func (h *history) reset() { h.pos, h.draft = len(h.entries), "" }

// add records a sent prompt (not repeating the previous one).
func (h *history) add(s string) {
	if n := len(h.entries); n == 0 || h.entries[n-1] != s {
		h.entries = append(h.entries, s)
		h.loaded = append(h.loaded, s)
	}
	if len(h.entries) > maxHistory {
		h.entries = h.entries[len(h.entries)-maxHistory:]
	}
	h.reset()
}

// load puts the file's entries before the ones added this session.
func (h *history) load(fromFile []string) {
	all := append(append([]string{}, fromFile...), h.loaded...)
	if len(all) > maxHistory {
		all = all[len(all)-maxHistory:]
	}
	h.entries = all
	h.reset()
}

// prev returns the previous entry, remembering current as the draft when
// browsing starts.
func (h *history) prev(current string) (string, bool) {
	if h.pos == 0 || len(h.entries) == 0 {
		return "", false
	}
	if !h.browsing() {
		h.draft = current
	}
	h.pos--
	return h.entries[h.pos], true
}

// next returns the next entry, or the draft after the newest one.
func (h *history) next() (string, bool) {
	if !h.browsing() {
		return "", false
	}
	h.pos++
	if h.pos == len(h.entries) {
		d := h.draft
		h.draft = ""
		return d, true
	}
	return h.entries[h.pos], true
}

func (m *model) historyPrev() {
	if s, ok := m.hist.prev(m.input.Value()); ok {
		m.input.SetValue(s)
	}
}

func (m *model) historyNext() {
	if s, ok := m.hist.next(); ok {
		m.input.SetValue(s)
	}
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

// loadHistory reads the history file in the background.
func loadHistory(home string) tea.Cmd {
	path := historyPath(home)
	if path == "" {
		return nil
	}
	return func() tea.Msg {
		entries, err := readHistory(path)
		if err != nil {
			return noticeMsg{text: "history: " + err.Error(), bad: true}
		}
		return historyMsg{entries: entries}
	}
}

// readHistory reads the last maxHistory entries; unreadable lines are skipped
// (a torn write from a crash must not lose the rest).
func readHistory(path string) ([]string, error) {
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
		var s string
		if json.Unmarshal(sc.Bytes(), &s) == nil && s != "" {
			out = append(out, s)
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

// appendHistory adds one prompt to the file in the background.
func appendHistory(home, prompt string) tea.Cmd {
	path := historyPath(home)
	if path == "" {
		return nil
	}
	return func() tea.Msg {
		if err := writeHistory(path, prompt); err != nil {
			return noticeMsg{text: "history: " + err.Error(), bad: true}
		}
		return nil
	}
}

func writeHistory(path, prompt string) error {
	line, err := json.Marshal(prompt)
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
