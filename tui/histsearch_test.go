package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

var (
	keyCtrlR     = tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl}
	keyBackspace = tea.KeyPressMsg{Code: tea.KeyBackspace}
)

// searchHistory is the history the search tests walk, oldest first.
var searchHistory = []string{"run go test ./tui/", "explain main.go", "fix the\nparser in go", "run go test ./...", "update docs"}

func TestHistorySearch(t *testing.T) {
	t.Parallel()
	// Each step is text to type or a key to press.
	type step struct {
		text string
		key  tea.KeyPressMsg
	}
	typ := func(s string) step { return step{text: s} }
	key := func(k tea.KeyPressMsg) step { return step{key: k} }
	tests := []struct {
		name   string
		draft  string
		steps  []step
		line   string // the search line, "" when the search is closed
		input  string
		closed bool
	}{
		{"typing narrows to the newest match", "", []step{key(keyCtrlR), typ("go t")},
			"(reverse-i-search)'go t': run go test ./...", "", false},
		{"ctrl+r again goes to the next older match", "", []step{key(keyCtrlR), typ("go t"), key(keyCtrlR)},
			"(reverse-i-search)'go t': run go test ./tui/", "", false},
		{"no older match: failed, the last match stays", "", []step{key(keyCtrlR), typ("go t"), key(keyCtrlR), key(keyCtrlR)},
			"(failed reverse-i-search)'go t': run go test ./tui/", "", false},
		{"letter case is ignored", "", []step{key(keyCtrlR), typ("MAIN")},
			"(reverse-i-search)'MAIN': explain main.go", "", false},
		{"a multi-line match shows on one line", "", []step{key(keyCtrlR), typ("parser")},
			"(reverse-i-search)'parser': fix the ⏎ parser in go", "", false},
		{"backspace widens again", "", []step{key(keyCtrlR), typ("docsx"), key(keyBackspace)},
			"(reverse-i-search)'docs': update docs", "", false},
		{"enter accepts into the input without sending", "draft", []step{key(keyCtrlR), typ("explain"), key(keyEnter)},
			"", "explain main.go", true},
		{"enter accepts a multi-line match whole", "", []step{key(keyCtrlR), typ("parser"), key(keyEnter)},
			"", "fix the\nparser in go", true},
		{"esc cancels and restores the draft", "my draft", []step{key(keyCtrlR), typ("go"), key(keyEsc)},
			"", "my draft", true},
		{"ctrl+c cancels too", "my draft", []step{key(keyCtrlR), typ("go"), key(keyCtrlC)},
			"", "my draft", true},
		{"enter with no match keeps the draft", "my draft", []step{key(keyCtrlR), typ("zzz"), key(keyEnter)},
			"", "my draft", true},
		{"another key accepts and then acts", "", []step{key(keyCtrlR), typ("docs"), key(tea.KeyPressMsg{Code: tea.KeyLeft}), typ("x")},
			"", "update docxs", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := withHistory(t, searchHistory...)
			typedClock(m, 100*time.Millisecond)
			m.input.SetValue(tt.draft)
			for _, s := range tt.steps {
				if s.text != "" {
					typeText(m, s.text)
					continue
				}
				press(m, s.key)
			}
			scr := screen(m)
			if tt.line != "" && !strings.Contains(scr, tt.line) {
				t.Errorf("search line %q not shown:\n%s", tt.line, scr)
			}
			if (m.search == nil) != tt.closed || (tt.closed && strings.Contains(scr, "reverse-i-search")) {
				t.Errorf("search open %v, want closed %v:\n%s", m.search != nil, tt.closed, scr)
			}
			if tt.closed && m.input.Value() != tt.input {
				t.Errorf("input %q, want %q", m.input.Value(), tt.input)
			}
			if m.quitting {
				t.Error("quit")
			}
		})
	}
}

func TestHistorySearchSendsNothing(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	step(m, historyMsg{entries: searchHistory})
	press(m, keyCtrlR)
	typeText(m, "docs")
	press(m, keyEnter)
	if len(fb.sent()) != 0 {
		t.Fatalf("accepting a match sent %q", fb.sent())
	}
	press(m, keyEnter)
	if got := fb.sent(); len(got) != 1 || got[0] != "update docs" {
		t.Fatalf("sent %q", got)
	}
}

func TestGoldenHistorySearch(t *testing.T) {
	t.Parallel()
	goldenRun(t, 80, 12, Options{}, func(tm *teatest.TestModel, _ *fakeBackend) {
		tm.Send(historyMsg{entries: searchHistory})
		tm.Type("half typed")
		tm.Send(keyCtrlR)
		tm.Type("go t")
		waitFor(t, tm, "'go t': run go test ./...")
	})
}
