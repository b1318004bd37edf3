package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/internal/sanitize"
)

// histSearch is ctrl+r's reverse incremental search of the prompt history,
// as in bash: typing narrows, ctrl+r goes to the next older match, enter
// puts the match in the input, esc gives the draft back.
type histSearch struct {
	query  string
	pos    int    // index of the shown match in the history; -1: none yet
	draft  string // the input before the search
	failed bool   // the last step found nothing older
}

// startSearch opens the search; the input's draft waits until it ends.
func (m *model) startSearch() {
	m.search = &histSearch{pos: -1, draft: m.input.Value()}
	m.pal = nil
}

// onSearchKey handles a key while the search is open; keys it does not
// use end the search with the match in the input and then act as usual.
func (m *model) onSearchKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	s := m.search
	sk := &m.keys.HistSearch
	switch {
	case key.Matches(k, sk.Older):
		m.findOlder(s.pos - 1)
		return nil, true
	case key.Matches(k, sk.Erase):
		if r := []rune(s.query); len(r) > 0 {
			s.query = string(r[:len(r)-1])
			s.pos = -1
			m.findOlder(len(m.hist.entries) - 1)
		}
		return nil, true
	case key.Matches(k, sk.Cancel, m.keys.Clear):
		m.search = nil
		m.input.SetValue(s.draft)
		return nil, true
	case key.Matches(k, sk.Accept):
		m.acceptSearch()
		return nil, true
	}
	if k.Text != "" && !k.Mod.Contains(tea.ModCtrl) && !k.Mod.Contains(tea.ModAlt) {
		m.searchType(k.Text)
		return nil, true
	}
	m.acceptSearch()
	return nil, false
}

// searchType adds typed or pasted text to the query; the match shown stays
// when it still matches, as in bash.
func (m *model) searchType(text string) {
	s := m.search
	// The query is one line: a pasted newline or tab searches as a space.
	s.query += strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return ' '
		}
		return r
	}, sanitize.Clean(text))
	from := s.pos
	if from < 0 {
		from = len(m.hist.entries) - 1
	}
	m.findOlder(from)
}

// findOlder shows the newest entry at or before index from that holds the
// query (any letter case); when none does, the last match stays and the
// search is marked failed.
func (m *model) findOlder(from int) {
	s := m.search
	q := strings.ToLower(s.query)
	for i := min(from, len(m.hist.entries)-1); i >= 0; i-- {
		if strings.Contains(strings.ToLower(m.hist.entries[i]), q) {
			s.pos, s.failed = i, false
			return
		}
	}
	s.failed = true
}

// match is the entry the search shows, or "" before it found one.
func (s *histSearch) match(entries []string) string {
	if s.pos < 0 || s.pos >= len(entries) {
		return ""
	}
	return entries[s.pos]
}

// acceptSearch ends the search with its match in the input (the draft when
// nothing matched).
func (m *model) acceptSearch() {
	s := m.search
	m.search = nil
	if v := s.match(m.hist.entries); v != "" {
		m.input.SetValue(v)
		m.hist.reset()
		return
	}
	m.input.SetValue(s.draft)
}

// searchView is the line shown in place of the input while searching, and
// where the cursor goes in it (after the query).
func (m *model) searchView() (line string, cursorX int) {
	s := m.search
	th := m.rc.th
	label := "(reverse-i-search)'"
	if s.failed && s.query != "" {
		label = "(failed reverse-i-search)'"
	}
	head := label + s.query
	cursorX = min(stringWidth(head), m.width-1)
	match := strings.ReplaceAll(s.match(m.hist.entries), "\n", " ⏎ ")
	line = truncate(th.accent.Render(label)+s.query+th.accent.Render("': ")+sanitize.Visible(match), m.width)
	return line, cursorX
}
