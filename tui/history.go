package tui

// maxHistory bounds how many prompts are kept in memory.
const maxHistory = 1000

// history is the prompt history of this workspace, walked with ↑/↓ and
// searched with ctrl+r; historyfile.go keeps it across runs.
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
