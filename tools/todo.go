package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode"
)

// TodoStatus is the state of one todo item: "pending", "in_progress" or
// "done", as the model writes it.
type TodoStatus string

// The todo statuses; the set is closed.
const (
	TodoPending    TodoStatus = "pending"
	TodoInProgress TodoStatus = "in_progress"
	TodoDone       TodoStatus = "done"
)

// TodoItem is one step of the model's plan for multi-step work.
type TodoItem struct {
	Text   string     `json:"text"`
	Status TodoStatus `json:"status"`
}

// todoMaxItems bounds the list so a runaway call cannot flood the prompt.
const todoMaxItems = 100

// todoArgs are todo_write's parameters.
type todoArgs struct {
	Items []TodoItem `json:"items"`
}

// todoSchema is written out by hand: objectSchema has no nested objects. It
// is a constant, so the specs sent with every request stay byte-identical.
var todoSchema = json.RawMessage(`{"type":"object","properties":{"items":{"type":"array",` +
	`"description":"The whole list, in order; it replaces the previous one.",` +
	`"items":{"type":"object","properties":{` +
	`"text":{"type":"string","description":"The step, in a few words."},` +
	`"status":{"type":"string","enum":["pending","in_progress","done"]}},` +
	`"required":["text","status"],"additionalProperties":false}}},` +
	`"required":["items"],"additionalProperties":false}`)

// TodoTool is the todo_write tool: the model keeps a visible list of the
// steps of multi-step work. It changes no file, so it never asks for approval.
type TodoTool struct {
	mu    sync.Mutex
	items []TodoItem
}

// NewTodoWrite returns the todo_write tool with an empty list.
func NewTodoWrite() Tool { return &TodoTool{} }

// TodoWriteName is the name the model calls todo_write by.
const TodoWriteName = "todo_write"

// todoGuidance is todo_write's rule in the system prompt.
const todoGuidance = "For work of three or more steps, keep a todo list with todo_write: write the plan first, keep one item in_progress, and mark each item done as soon as it is finished; skip it for simple requests."

// Spec describes todo_write to the model.
func (t *TodoTool) Spec() Spec {
	return Spec{
		Name:     TodoWriteName,
		Guidance: todoGuidance,
		Description: "Keep a todo list of the steps of multi-step work, shown to the user. " +
			"Each call replaces the whole list: send every item with its status (pending, in_progress, done). " +
			"Use it for tasks of three or more steps; keep exactly one item in_progress while you work, " +
			"and mark items done as soon as they are finished.",
		Parameters: todoSchema,
	}
}

// Kind is KindRead: the list lives in tern, not in the workspace.
func (t *TodoTool) Kind() Kind { return KindRead }

// Preview counts the items.
func (t *TodoTool) Preview(_ context.Context, args json.RawMessage) (Preview, error) {
	items, err := ParseTodo(args)
	if err != nil {
		return Preview{}, err
	}
	return Preview{Title: "todo list: " + todoSummary(items)}, nil
}

// Run replaces the list and returns it rendered, with a warning when more
// than one item is in progress.
func (t *TodoTool) Run(_ context.Context, args json.RawMessage, _ func(string)) Result {
	items, err := ParseTodo(args)
	if err != nil {
		return errorResult(err.Error())
	}
	t.mu.Lock()
	t.items = items
	t.mu.Unlock()
	out := RenderTodo(items)
	if out == "" {
		out = "The todo list is empty."
	}
	if n := countTodo(items, TodoInProgress); n > 1 {
		out += fmt.Sprintf("\nNote: %d items are in_progress; keep one in progress at a time.", n)
	}
	return Result{Status: StatusOK, Output: out, Summary: todoSummary(items)}
}

// Items returns a copy of the current list.
func (t *TodoTool) Items() []TodoItem {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]TodoItem(nil), t.items...)
}

// ParseTodo decodes and checks todo_write's arguments; the TUI uses it to
// show the list from a call's arguments. Item texts are put on one line
// without control characters and must not be empty; statuses must be one of
// the three.
func ParseTodo(args json.RawMessage) ([]TodoItem, error) {
	var a todoArgs
	if err := decodeToolArgs(args, &a); err != nil {
		return nil, err
	}
	if a.Items == nil {
		return nil, errors.New(`missing required field "items": send the whole list, or [] to clear it`)
	}
	if len(a.Items) > todoMaxItems {
		return nil, fmt.Errorf("%d items are too many: keep the list to %d steps", len(a.Items), todoMaxItems)
	}
	out := make([]TodoItem, 0, len(a.Items))
	for i, it := range a.Items {
		it.Text = todoText(it.Text)
		if it.Text == "" {
			return nil, fmt.Errorf("item %d has no text", i+1)
		}
		switch it.Status {
		case TodoPending, TodoInProgress, TodoDone:
		default:
			return nil, fmt.Errorf("item %d (%q) has status %q: use pending, in_progress or done", i+1, it.Text, it.Status)
		}
		out = append(out, it)
	}
	return out, nil
}

// todoText puts an item's text on one line without control characters:
// it is echoed to the model and shown in the terminal.
func todoText(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// RenderTodo writes the list one item a line: "[x] " done, "[~] " in
// progress, "[ ] " pending.
func RenderTodo(items []TodoItem) string {
	var b strings.Builder
	for i, it := range items {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(TodoMark(it.Status) + " " + it.Text)
	}
	return b.String()
}

// TodoMark is the box shown before an item of that status.
func TodoMark(s TodoStatus) string {
	switch s {
	case TodoDone:
		return "[x]"
	case TodoInProgress:
		return "[~]"
	case TodoPending:
		return "[ ]"
	}
	return "[?]"
}

// TodoOpen reports whether any item is not done yet.
func TodoOpen(items []TodoItem) bool {
	return countTodo(items, TodoDone) < len(items)
}

// todoSummary is the one-line summary, e.g. "3 items, 1 done".
func todoSummary(items []TodoItem) string {
	noun := "items"
	if len(items) == 1 {
		noun = "item"
	}
	return fmt.Sprintf("%d %s, %d done", len(items), noun, countTodo(items, TodoDone))
}

// countTodo counts the items with status s.
func countTodo(items []TodoItem, s TodoStatus) int {
	n := 0
	for _, it := range items {
		if it.Status == s {
			n++
		}
	}
	return n
}
