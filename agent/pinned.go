package agent

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// The message that replaces compacted messages is an element whose parts
// carry their length, so the pinned content is read back exactly (a first
// request may contain anything, tags included):
//
//	<compacted_conversation>
//	preamble
//
//	<first_request bytes="N">
//	…
//	</first_request>
//	… current_request, todo_list, summary alike …
//	</compacted_conversation>
const (
	compactOpen  = "<compacted_conversation>\n"
	compactClose = "</compacted_conversation>"
	compactIntro = "The earlier part of this conversation was replaced by the summary below to free room in the context window. " +
		"The user's first request (and the request being worked on, when it was replaced too) and the todo list are pinned here verbatim; " +
		"the messages after this one are the conversation as it happened.\n"
)

// The parts of a compaction message, in the order they are written.
const (
	partFirst   = "first_request"
	partCurrent = "current_request"
	partTodo    = "todo_list"
	partSummary = "summary"
)

// compactMessage builds the content of the message that replaces the
// compacted messages.
func compactMessage(first, current string, todo []tools.TodoItem, summary string) string {
	var b strings.Builder
	b.WriteString(compactOpen)
	b.WriteString(compactIntro)
	part := func(name, body string) {
		fmt.Fprintf(&b, "\n<%s bytes=\"%d\">\n%s\n</%s>\n", name, len(body), body, name)
	}
	if first != "" {
		part(partFirst, first)
	}
	if current != "" {
		part(partCurrent, current)
	}
	if len(todo) > 0 {
		part(partTodo, tools.RenderTodo(todo))
	}
	part(partSummary, summary)
	b.WriteString(compactClose)
	return b.String()
}

// IsCompactMessage reports whether a user message's content is one a
// compaction wrote.
func IsCompactMessage(content string) bool {
	return strings.HasPrefix(content, compactOpen+compactIntro) && strings.HasSuffix(content, compactClose)
}

// CompactParts are what a compaction message holds.
type CompactParts struct {
	// First is the session's first request, verbatim.
	First string
	// Current is the request that was being worked on, when the
	// compaction replaced it too.
	Current string
	// Todo is the todo list at the time.
	Todo []tools.TodoItem
	// Summary is the model's summary.
	Summary string
}

// ParseCompactMessage reads a compaction message back; ok is false for any
// other content.
func ParseCompactMessage(content string) (p CompactParts, ok bool) {
	if !IsCompactMessage(content) {
		return CompactParts{}, false
	}
	rest := strings.TrimSuffix(strings.TrimPrefix(content, compactOpen+compactIntro), compactClose)
	for rest != "" {
		name, body, after, ok := nextPart(rest)
		if !ok {
			return CompactParts{}, false
		}
		switch name {
		case partFirst:
			p.First = body
		case partCurrent:
			p.Current = body
		case partTodo:
			p.Todo = parseTodoLines(body)
		case partSummary:
			p.Summary = body
		}
		rest = after
	}
	return p, true
}

// nextPart reads "\n<name bytes=\"N\">\n" + N bytes + "\n</name>\n".
func nextPart(s string) (name, body, rest string, ok bool) {
	if !strings.HasPrefix(s, "\n<") {
		return "", "", "", false
	}
	head, after, found := strings.Cut(s[2:], "\">\n")
	if !found {
		return "", "", "", false
	}
	name, n, found := strings.Cut(head, ` bytes="`)
	size, err := strconv.Atoi(n)
	if !found || err != nil || size < 0 || size > len(after) {
		return "", "", "", false
	}
	body, after = after[:size], after[size:]
	end := "\n</" + name + ">\n"
	if !strings.HasPrefix(after, end) {
		return "", "", "", false
	}
	return name, body, after[len(end):], true
}

// parseTodoLines reads tools.RenderTodo's lines back.
func parseTodoLines(s string) []tools.TodoItem {
	var out []tools.TodoItem
	for line := range strings.SplitSeq(s, "\n") {
		for _, st := range []tools.TodoStatus{tools.TodoDone, tools.TodoInProgress, tools.TodoPending} {
			if text, ok := strings.CutPrefix(line, tools.TodoMark(st)+" "); ok {
				out = append(out, tools.TodoItem{Text: text, Status: st})
				break
			}
		}
	}
	return out
}

// FirstRequest is the session's first request: the first user message of
// the conversation, or the one pinned in the compaction message that
// replaced it. ms may start with the system prompt.
func FirstRequest(ms []provider.Message) string {
	for _, m := range ms {
		if m.Role != provider.RoleUser {
			continue
		}
		if p, ok := ParseCompactMessage(m.Content); ok {
			return p.First
		}
		return m.Content
	}
	return ""
}

// CurrentTodo is the todo list the conversation holds: the last todo_write
// call that succeeded, else the list pinned by the last compaction, else
// none. A resumed or rewound conversation gets its list back from it.
func CurrentTodo(ms []provider.Message) []tools.TodoItem {
	okPrefix := "<" + resultTag + ` name="` + tools.TodoWriteName + `" status="` + tools.StatusOK.String() + "\">\n"
	succeeded := map[string]bool{}
	for i := len(ms) - 1; i >= 0; i-- {
		m := ms[i]
		switch m.Role {
		case provider.RoleTool:
			if strings.HasPrefix(m.Content, okPrefix) {
				succeeded[m.ToolCallID] = true
			}
		case provider.RoleAssistant:
			for j := len(m.ToolCalls) - 1; j >= 0; j-- {
				c := m.ToolCalls[j]
				if c.Name != tools.TodoWriteName || !succeeded[c.ID] {
					continue
				}
				if items, err := tools.ParseTodo(json.RawMessage(c.Arguments)); err == nil {
					return items
				}
			}
		case provider.RoleUser:
			if p, ok := ParseCompactMessage(m.Content); ok {
				return p.Todo
			}
		case provider.RoleSystem:
		}
	}
	return nil
}
