package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/agent"
)

// TestCardsWrapInsideTheirIndent narrows the screen until the lines of
// /context and /memory wrap: a continuation line stays at the indentation
// of its item instead of starting at column 0.
func TestCardsWrapInsideTheirIndent(t *testing.T) {
	t.Parallel()
	long := "/work/project/" + strings.Repeat("deeply/nested/", 6) + "AGENTS.md"
	tests := []struct {
		name    string
		opts    Options
		context func() agent.ContextBytes
		command string
		title   string
		indent  map[string]int // a line starting with this text, and the indentation of the line after it
	}{
		{
			name:    "context",
			context: func() agent.ContextBytes { return agent.ContextBytes{System: 4000, User: 900} },
			command: "/context",
			title:   "Context ·",
			indent:  map[string]int{"~ estimated at": 2, "last request:": 2},
		},
		{
			name:    "memory",
			opts:    Options{Memory: []MemoryFile{{Path: long, Bytes: 2048}, {Path: "/work/project/CLAUDE.md", Bytes: 10}}},
			command: "/memory",
			title:   "Memory",
			indent:  map[string]int{"/memory <n> opens": 2},
		},
		{
			name:    "no memory",
			command: "/memory",
			title:   "Memory",
			indent:  map[string]int{"No AGENTS.md": 2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m, _ := newTestModel(t, tt.opts, func(f *fakeBackend) { f.context = tt.context })
			step(m, tea.WindowSizeMsg{Width: 44, Height: 60})
			events(m, agent.Event{Kind: agent.EventRequest, Request: &agent.RequestInfo{Bytes: 90000, ToolsBytes: 200, Messages: 30, ToolResultBytes: 40000, PrefixBytes: 10}})
			typeText(m, tt.command)
			press(m, keyEnter)
			lines := strings.Split(screen(m), "\n")
			start := -1
			for i, l := range lines {
				if strings.HasPrefix(l, tt.title) {
					start = i
				}
			}
			if start < 0 {
				t.Fatalf("no %q card:\n%s", tt.title, screen(m))
			}
			card := lines[start+1:]
			for len(card) > 0 && !strings.HasPrefix(card[0], "  ") {
				card = card[1:] // the title's own continuation
			}
			for i, l := range card {
				if strings.TrimSpace(l) == "" {
					card = card[:i]
					break
				}
				if !strings.HasPrefix(l, "  ") {
					t.Errorf("line %q starts at column 0:\n%s", l, strings.Join(card, "\n"))
				}
			}
			for text, want := range tt.indent {
				found := false
				for i, l := range card {
					if strings.HasPrefix(strings.TrimSpace(l), text) && i+1 < len(card) {
						found = true
						next := card[i+1]
						if got := len(next) - len(strings.TrimLeft(next, " ")); got != want {
							t.Errorf("after %q the next line is indented %d, want %d:\n%s", text, got, want, strings.Join(card, "\n"))
						}
					}
				}
				if !found {
					t.Errorf("no wrapped line starting %q:\n%s", text, strings.Join(card, "\n"))
				}
			}
		})
	}
}
