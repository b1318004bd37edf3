package tui

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ternhq/tern/internal/sanitize"
	"github.com/ternhq/tern/tools"
)

// Todo panel sizes: the most item lines shown, and fewer on short screens
// so the transcript keeps room.
const (
	maxTodoShown      = 6
	maxTodoShownShort = 2
	shortScreen       = 18
)

// setTodo takes the list from a finished todo_write call's arguments; a
// list that does not parse leaves the shown one as it was (the tool refused
// it too).
func (m *model) setTodo(args json.RawMessage) {
	items, err := tools.ParseTodo(args)
	if err != nil {
		return
	}
	for i := range items {
		items[i].Text = plainCode(strings.Join(strings.Fields(sanitize.Clean(items[i].Text)), " "))
	}
	m.todo = items
}

// todoShown reports whether the panel is on screen: while any item is open,
// and until the end of the turn that finished the last one; not while an
// approval dialog or a picker is open.
func (m *model) todoShown() bool {
	if m.dlg != nil || m.pal != nil {
		return false // an approval or a picker needs the room
	}
	return len(m.todo) > 0 && (m.busy || tools.TodoOpen(m.todo))
}

// todoLimit is the most item lines the panel shows on this screen.
func (m *model) todoLimit() int {
	if m.height < shortScreen {
		return maxTodoShownShort
	}
	return maxTodoShown
}

// todoHeight is the panel's height, without rendering it: the layout asks
// on every update.
func (m *model) todoHeight() int {
	if !m.todoShown() {
		return 0
	}
	return 1 + min(len(m.todo), m.todoLimit())
}

// todoView is the pinned todo panel: a heading and the items around the
// first one not done yet, each on one line.
func (m *model) todoView() []string {
	if !m.todoShown() {
		return nil
	}
	th := m.rc.th
	done := 0
	first := -1 // the first item not done
	for i, it := range m.todo {
		if it.Status == tools.TodoDone {
			done++
		} else if first < 0 {
			first = i
		}
	}
	limit := m.todoLimit()
	start := 0
	if len(m.todo) > limit && first > 0 {
		// Keep one finished item for context, then what comes next.
		start = min(first-1, len(m.todo)-limit)
	}
	end := min(len(m.todo), start+limit)
	head := fmt.Sprintf("  Todo · %d/%d done", done, len(m.todo))
	if start > 0 || end < len(m.todo) {
		head += fmt.Sprintf(" · showing %d-%d", start+1, end)
	}
	out := []string{th.bold.Render(truncate(head, m.width))}
	for _, it := range m.todo[start:end] {
		line := truncate("  "+tools.TodoMark(it.Status)+" "+it.Text, m.width)
		switch it.Status {
		case tools.TodoDone:
			out = append(out, th.dim.Render(line))
		case tools.TodoInProgress:
			out = append(out, th.info.Render(line))
		case tools.TodoPending:
			out = append(out, line)
		}
	}
	return out
}

// plainCode drops the backticks of Markdown code spans: the panel is one
// plain line per item, and models often write `main.go` in a todo.
func plainCode(s string) string {
	if strings.Count(s, "`")%2 != 0 {
		return s // not balanced spans: keep what the model wrote
	}
	return strings.ReplaceAll(s, "`", "")
}
