package mock

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// compactMaxItems bounds each list of the offline summary.
const compactMaxItems = 8

var (
	// focusLine is how the compaction request names the user's focus.
	focusLine = lazyRegexp(`(?m)^The user asked the summary to focus on: (.+)$`)
	// pinnedFirst finds the first request a previous compaction pinned.
	pinnedFirst = lazyRegexp(`<first_request bytes="(\d+)">\n`)
	// pinnedCurrent finds the request being worked on that it pinned.
	pinnedCurrent = lazyRegexp(`<current_request bytes="(\d+)">\n`)
	// summaryTag marks an earlier compaction's message.
	compactedTag = "<compacted_conversation>"
)

// compactStep answers a compaction request with the sections it asks for,
// taken from the conversation itself: the first request as the goal, the
// user's messages verbatim, the assistant's conclusions, the files the
// tools touched and the open todo items.
func compactStep(t turn) answer {
	msgs := t.msgs
	if n := len(msgs); n > 0 && msgs[n-1].Role == provider.RoleUser {
		msgs = msgs[:n-1] // the request itself
	}
	var goal string
	var said, decisions, files, open []string
	seenFile := map[string]bool{}
	// ended says how each call ended, so a denied edit is not called edited.
	ended := map[string]status{}
	for _, m := range msgs {
		if m.Role == provider.RoleTool {
			ended[m.ToolCallID] = parseResult("", "", m.Content).status
		}
	}
	for _, m := range msgs {
		switch m.Role {
		case provider.RoleUser:
			text := m.Content
			if strings.HasPrefix(text, compactedTag) {
				if goal == "" {
					goal, _ = stripPlanNotes(pinnedRequest(text))
				}
				said = append(said, "(earlier instructions are in the previous summary)")
				continue
			}
			text, _ = stripPlanNotes(text)
			if goal == "" {
				goal = text
			}
			said = append(said, "“"+oneLine(text)+"”")
		case provider.RoleAssistant:
			if line := headline(m.Content); line != "" && len(m.ToolCalls) == 0 {
				decisions = append(decisions, line) // a conclusion, not "let me read"
			}
			for _, c := range m.ToolCalls {
				if c.Name == tools.TodoWriteName {
					open = openTodo(c.Arguments)
					continue
				}
				if f := touchedEnded(c.Name, c.Arguments, ended[c.ID]); f != "" && !seenFile[f] {
					seenFile[f] = true
					files = append(files, f)
				}
			}
		case provider.RoleSystem, provider.RoleTool:
		}
	}
	var b strings.Builder
	b.WriteString("## Goal\n")
	if goal == "" {
		goal = "Not stated yet."
	}
	b.WriteString(oneLine(goal) + "\n")
	if m := focusLine().FindStringSubmatch(t.user); m != nil {
		b.WriteString("\nFocus asked for: " + m[1] + "\n")
	}
	section := func(title string, items []string, none string) {
		b.WriteString("## " + title + "\n")
		if len(items) == 0 {
			b.WriteString("- " + none + "\n")
			return
		}
		if len(items) > compactMaxItems {
			fmt.Fprintf(&b, "- (%d earlier items left out)\n", len(items)-compactMaxItems)
			items = items[len(items)-compactMaxItems:]
		}
		for _, it := range items {
			b.WriteString("- " + it + "\n")
		}
	}
	section("User instructions", said, "None.")
	section("Decisions", decisions, "None yet.")
	section("Files", files, "No file was read or changed.")
	section("Open tasks", open, "None recorded: ask the user what to do next.")
	b.WriteString("\n_(Offline summary: the scripted provider wrote it from the conversation.)_")
	return answer{text: b.String()}
}

// compactedRequest is the request a compaction message stands for: the
// one being worked on when it was pinned, else the first request.
func compactedRequest(text string) (string, bool) {
	if !strings.HasPrefix(text, compactedTag) {
		return "", false
	}
	if req := pinnedPart(text, pinnedCurrent()); req != "" {
		return req, true
	}
	return pinnedRequest(text), true
}

// pinnedRequest is the first request an earlier compaction pinned.
func pinnedRequest(text string) string { return pinnedPart(text, pinnedFirst()) }

// pinnedPart reads the part of a compaction message that re opens.
func pinnedPart(text string, re *regexp.Regexp) string {
	loc := re.FindStringSubmatchIndex(text)
	if loc == nil {
		return ""
	}
	n, err := strconv.Atoi(text[loc[2]:loc[3]])
	if err != nil || loc[1]+n > len(text) {
		return ""
	}
	return text[loc[1] : loc[1]+n]
}

// touched describes the file or command a tool call worked on.
func touched(tool, args string) string {
	var a struct {
		Path    string `json:"path"`
		Pattern string `json:"pattern"`
		Command string `json:"command"`
	}
	if json.Unmarshal([]byte(args), &a) != nil {
		return ""
	}
	switch {
	case a.Path != "":
		return fmt.Sprintf("`%s`: %s", a.Path, toolVerb(tool))
	case a.Command != "":
		return fmt.Sprintf("ran `%s`", oneLine(a.Command))
	case a.Pattern != "":
		return fmt.Sprintf("searched for `%s`", oneLine(a.Pattern))
	}
	return ""
}

// touchedEnded is touched for a call that ended with st: a call that did
// not succeed says so instead of naming what it would have done (0: the
// result is not in the conversation, as for the last answer's calls).
func touchedEnded(tool, args string, st status) string {
	f := touched(tool, args)
	if f == "" {
		return ""
	}
	var how string
	switch st {
	case statusOK, 0:
		return f
	case statusDenied:
		how = "denied"
	case statusCancelled:
		how = "cancelled"
	case statusError:
		how = "failed"
	}
	var a struct {
		Path string `json:"path"`
	}
	if json.Unmarshal([]byte(args), &a) == nil && a.Path != "" {
		return fmt.Sprintf("`%s`: %s %s, so not %s", a.Path, toolNoun(tool), how, toolVerb(tool))
	}
	return fmt.Sprintf("%s (%s, so it did not take effect)", f, how)
}

// toolNoun names what a call on a file was.
func toolNoun(tool string) string {
	switch tool {
	case tools.ReadFileName:
		return "read"
	case tools.EditFileName:
		return "edit"
	case tools.WriteFileName:
		return "write"
	}
	return tool
}

func toolVerb(tool string) string {
	switch tool {
	case tools.ReadFileName:
		return "read"
	case tools.EditFileName:
		return "edited"
	case tools.WriteFileName:
		return "written"
	}
	return "used by " + tool
}

// openTodo lists the todo items not done yet.
func openTodo(args string) []string {
	var a struct {
		Items []struct{ Text, Status string } `json:"items"`
	}
	if json.Unmarshal([]byte(args), &a) != nil {
		return nil
	}
	var out []string
	for _, it := range a.Items {
		if it.Status != "done" {
			out = append(out, it.Text+" ("+strings.ReplaceAll(it.Status, "_", " ")+")")
		}
	}
	return out
}

// headline is the first non-empty line of s, shortened.
func headline(s string) string {
	for l := range strings.SplitSeq(s, "\n") {
		if l = strings.TrimSpace(strings.TrimLeft(l, "#>*- ")); l != "" {
			return oneLine(l)
		}
	}
	return ""
}

// oneLine puts s on one line of at most 160 characters.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 160 {
		s = string(r[:159]) + "…"
	}
	return s
}
