package tui

import (
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tools"
)

// todoCall runs a todo_write call through the interface's events: ready
// with args, then finished with status.
func todoCall(m *model, id, args string, status tools.Status) {
	call := &agent.Call{ID: id, Name: "todo_write", Args: json.RawMessage(args)}
	events(m,
		agent.Event{Kind: agent.EventToolCallStarted, Call: &agent.Call{ID: id, Name: "todo_write"}},
		agent.Event{Kind: agent.EventToolCallReady, Call: call},
		agent.Event{Kind: agent.EventToolRunning, Call: call},
		agent.Event{Kind: agent.EventToolFinished, Call: call, Result: &agent.ToolResult{Status: status, Summary: "3 items, 1 done", Output: "[x] a"}},
	)
}

// aboveInput returns the screen lines between the transcript and the input
// rule: where the todo panel is pinned.
func aboveInput(m *model) []string {
	lines := strings.Split(screen(m), "\n")
	rule := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "────") {
			rule = i
		}
	}
	if rule < 0 {
		return nil
	}
	return lines[max(0, rule-8):rule]
}

func TestTodoPinnedAboveInput(t *testing.T) {
	t.Parallel()
	const three = `{"items":[{"text":"read the code","status":"done"},{"text":"fix the bug","status":"in_progress"},{"text":"run the tests","status":"pending"}]}`
	const allDone = `{"items":[{"text":"read the code","status":"done"},{"text":"fix the bug","status":"done"}]}`
	tests := []struct {
		name     string
		run      func(m *model)
		want     []string // lines that must be just above the input, in order
		unwanted []string
	}{
		{
			name: "a list is shown while the turn runs",
			run: func(m *model) {
				events(m, agent.Event{Kind: agent.EventTurnStarted, Text: "go"})
				todoCall(m, "c1", three, tools.StatusOK)
			},
			want: []string{"Todo · 1/3 done", "[x] read the code", "[~] fix the bug", "[ ] run the tests"},
		},
		{
			name: "an open list stays after the turn",
			run: func(m *model) {
				events(m, agent.Event{Kind: agent.EventTurnStarted, Text: "go"})
				todoCall(m, "c1", three, tools.StatusOK)
				events(m, agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
			},
			want: []string{"Todo · 1/3 done", "[~] fix the bug"},
		},
		{
			name: "a finished list goes when the turn ends",
			run: func(m *model) {
				events(m, agent.Event{Kind: agent.EventTurnStarted, Text: "go"})
				todoCall(m, "c1", three, tools.StatusOK)
				todoCall(m, "c2", allDone, tools.StatusOK)
				events(m, agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
			},
			unwanted: []string{"Todo ·", "read the code"},
		},
		{
			name: "a failed call leaves the earlier list",
			run: func(m *model) {
				events(m, agent.Event{Kind: agent.EventTurnStarted, Text: "go"})
				todoCall(m, "c1", three, tools.StatusOK)
				todoCall(m, "c2", `{"items":[{"text":"new","status":"pending"}]}`, tools.StatusError)
			},
			want:     []string{"Todo · 1/3 done"},
			unwanted: []string{"[ ] new"},
		},
		{
			name: "control sequences in item text are removed",
			run: func(m *model) {
				events(m, agent.Event{Kind: agent.EventTurnStarted, Text: "go"})
				todoCall(m, "c1", `{"items":[{"text":"evil \u001b[2Jclear\nsecond line","status":"pending"}]}`, tools.StatusOK)
			},
			want:     []string{"[ ] evil [2Jclear second line"},
			unwanted: []string{"\x1b[2J"},
		},
		{
			name: "the empty list hides the panel",
			run: func(m *model) {
				events(m, agent.Event{Kind: agent.EventTurnStarted, Text: "go"})
				todoCall(m, "c1", three, tools.StatusOK)
				todoCall(m, "c2", `{"items":[]}`, tools.StatusOK)
			},
			unwanted: []string{"Todo ·"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m, _ := newTestModel(t, Options{})
			tt.run(m)
			above := strings.Join(aboveInput(m), "\n")
			if strings.Contains(m.View().Content, "\x1b[2J") {
				t.Fatal("the item's escape sequence reached the screen")
			}
			at := 0
			for _, w := range tt.want {
				i := strings.Index(above[at:], w)
				if i < 0 {
					t.Fatalf("%q missing above the input (in order):\n%s", w, above)
				}
				at += i + len(w)
			}
			for _, u := range tt.unwanted {
				if strings.Contains(above, u) {
					t.Fatalf("%q shown above the input:\n%s", u, above)
				}
			}
		})
	}
}

func TestTodoCardShowsSummaryOnly(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	events(m, agent.Event{Kind: agent.EventTurnStarted, Text: "go"})
	todoCall(m, "c1", `{"items":[{"text":"alpha","status":"done"},{"text":"beta","status":"pending"},{"text":"gamma","status":"pending"}]}`, tools.StatusOK)
	var card *toolCard
	for _, b := range m.tr.blocks {
		if c, ok := b.(*toolCard); ok && c.name == "todo_write" {
			card = c
		}
	}
	if card == nil {
		t.Fatal("no todo_write card")
	}
	got := stripAll(card.render(testRC(80)))
	if !strings.Contains(got, "todo_write") || !strings.Contains(got, "3 items, 1 done") {
		t.Fatalf("card lacks its summary:\n%s", got)
	}
	if strings.Contains(got, "alpha") || strings.Count(got, "\n") > 1 {
		t.Fatalf("card shows more than the summary:\n%s", got)
	}
}

func TestTodoPanelFitsTheScreen(t *testing.T) {
	t.Parallel()
	var items []string
	for i := 0; i < 12; i++ {
		status := "pending"
		if i < 7 {
			status = "done"
		}
		items = append(items, `{"text":"step `+strings.Repeat("long words ", i%3*8)+`number `+string(rune('a'+i))+`","status":"`+status+`"}`)
	}
	args := `{"items":[` + strings.Join(items, ",") + `]}`
	tests := []struct {
		w, h      int
		itemLines int
	}{
		{80, 24, maxTodoShown},
		{40, 12, maxTodoShownShort},
		{120, 40, maxTodoShown},
	}
	for _, tt := range tests {
		m, _ := newTestModel(t, Options{})
		step(m, tea.WindowSizeMsg{Width: tt.w, Height: tt.h})
		events(m, agent.Event{Kind: agent.EventTurnStarted, Text: "go"})
		todoCall(m, "c1", args, tools.StatusOK)
		panel := m.todoView()
		if len(panel) != 1+tt.itemLines {
			t.Fatalf("%dx%d: %d panel lines, want %d", tt.w, tt.h, len(panel), 1+tt.itemLines)
		}
		head := ansi.Strip(panel[0])
		if !strings.Contains(head, "7/12 done") || !strings.Contains(head, "showing 7-") {
			t.Errorf("%dx%d: heading %q", tt.w, tt.h, head)
		}
		// The window starts at the last finished item, then the open ones.
		if first := ansi.Strip(panel[1]); !strings.Contains(first, "[x]") || !strings.Contains(first, "number g") && tt.w > 60 {
			t.Errorf("%dx%d: first item %q", tt.w, tt.h, first)
		}
		for _, l := range panel {
			if w := ansi.StringWidth(l); w > tt.w {
				t.Errorf("%dx%d: a line of %d cells", tt.w, tt.h, w)
			}
		}
		if got := len(strings.Split(screen(m), "\n")); got != tt.h {
			t.Errorf("%dx%d: the screen has %d lines", tt.w, tt.h, got)
		}
	}
}

func TestTodoHiddenUnderDialogAndClearedByClear(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	events(m, agent.Event{Kind: agent.EventTurnStarted, Text: "go"})
	todoCall(m, "c1", `{"items":[{"text":"open","status":"pending"}]}`, tools.StatusOK)
	typeText(m, "/")
	if m.todoView() != nil {
		t.Fatal("panel shown under the command palette")
	}
	press(m, keyEsc)
	m.input.Reset() // esc closes the palette and keeps the draft
	events(m, agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
	if m.todoView() == nil {
		t.Fatal("open list not shown after the turn")
	}
	typeText(m, "/clear")
	press(m, keyEnter)
	if fb.resets != 1 || m.todoView() != nil {
		t.Fatalf("/clear kept the list (resets %d, notice %q, busy %v, input %q)", fb.resets, m.notice, m.busy, m.input.Value())
	}
}

func TestTodoHeightMatchesView(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 2, 5, 6, 7, 30} {
		for _, h := range []int{10, 24} {
			m, _ := newTestModel(t, Options{})
			step(m, tea.WindowSizeMsg{Width: 80, Height: h})
			m.busy = true
			for i := 0; i < n; i++ {
				m.todo = append(m.todo, tools.TodoItem{Text: "x", Status: tools.TodoPending})
			}
			if got, want := m.todoHeight(), len(m.todoView()); got != want {
				t.Errorf("%d items at height %d: todoHeight %d, view %d lines", n, h, got, want)
			}
		}
	}
}

func TestTodoDropsCodeSpanBackticks(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"Edit `main.go` with `edit_file`", "Edit main.go with edit_file"},
		{"keep a lone ` tick", "keep a lone ` tick"},
		{"no code", "no code"},
	} {
		if got := plainCode(c.in); got != c.want {
			t.Errorf("plainCode(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
