package session

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
)

// exportOutputLines is how many lines of a tool's output an export shows.
const exportOutputLines = 12

// Export renders a session's conversation as Markdown: a title and the
// session's facts, then each prompt and answer, tool calls as compact
// blocks (the call, its outcome and the first lines of its output), errors
// and notices. Rewound turns are left out, as in the transcript.
func Export(s *Session) string {
	st, err := Restore(s)
	if err != nil {
		return "# tern session\n\n" + err.Error() + "\n"
	}
	var b strings.Builder
	title := "tern session " + st.Header.ID
	if st.Title != "" {
		title = shorten(st.Title, titleRunes)
	} else {
		for _, e := range st.Entries {
			if e.Kind == EntryUser {
				title = shorten(e.Text, titleRunes)
				break
			}
		}
	}
	fmt.Fprintf(&b, "# %s\n\n", escapeHeading(title))
	fmt.Fprintf(&b, "- Session: `%s`", st.Header.ID)
	if st.Header.Parent != "" {
		fmt.Fprintf(&b, " (forked from `%s`)", st.Header.Parent)
	}
	b.WriteString("\n")
	if !st.Header.Created.IsZero() {
		fmt.Fprintf(&b, "- Started: %s\n", st.Header.Created.Local().Format(time.DateTime))
	}
	if st.Header.Workspace != "" {
		fmt.Fprintf(&b, "- Workspace: `%s`\n", st.Header.Workspace)
	}
	fmt.Fprintf(&b, "- Model: `%s`\n", st.Model)
	if u := st.Usage; u.PromptTokens+u.CompletionTokens > 0 {
		mark, note := "", ""
		if st.Estimated != (provider.Usage{}) {
			mark, note = "~", " (~ partly estimated: the gateway reported no usage for some requests)"
		}
		fmt.Fprintf(&b, "- Tokens: %s%d in (%d cached), %s%d out%s\n", mark, u.PromptTokens, u.CachedPromptTokens, mark, u.CompletionTokens, note)
	}
	for _, e := range st.Entries {
		b.WriteString("\n")
		switch e.Kind {
		case EntryUser:
			fmt.Fprintf(&b, "## You (turn %d)\n\n%s\n", e.Turn, strings.TrimRight(e.Text, "\n"))
		case EntryAssistant:
			b.WriteString("## tern\n\n")
			if r := strings.TrimSpace(e.Reasoning); r != "" {
				fmt.Fprintf(&b, "<details><summary>Reasoning</summary>\n\n%s\n\n</details>\n\n", r)
			}
			if t := strings.TrimRight(e.Text, "\n"); t != "" {
				b.WriteString(t + "\n")
			}
			if e.Interrupted {
				b.WriteString("\n*(interrupted)*\n")
			}
		case EntryTool:
			writeToolBlock(&b, e.Tool)
		case EntryError:
			fmt.Fprintf(&b, "> **Error** (%s): %s\n", e.ErrorKind, oneLine(e.Text))
		case EntryNotice:
			fmt.Fprintf(&b, "*%s*\n", oneLine(e.Text))
		case EntryCompaction:
			summary := e.Text
			if p, ok := agent.ParseCompactMessage(e.Text); ok {
				summary = p.Summary
			}
			fmt.Fprintf(&b, "<details><summary>Conversation compacted</summary>\n\n%s\n\n</details>\n", strings.TrimSpace(summary))
		}
	}
	return b.String()
}

// writeToolBlock writes a call as one line (tool, main argument, outcome)
// and the start of its output in a fence.
func writeToolBlock(b *strings.Builder, t *ToolEntry) {
	if t == nil {
		return
	}
	fmt.Fprintf(b, "**▸ %s**", t.Name)
	if arg := mainArg(t.Args); arg != "" {
		fmt.Fprintf(b, " %s", inlineCode(arg))
	}
	switch {
	case t.Result == nil:
		b.WriteString(" — no result (tern stopped while it ran)")
	case t.Result.Summary != "" && t.Result.Summary != string(t.Result.Status):
		fmt.Fprintf(b, " — %s, %s", t.Result.Status, oneLine(t.Result.Summary))
	default:
		fmt.Fprintf(b, " — %s", t.Result.Status)
	}
	if a := t.Approval; a != nil && a.Decision == DecisionDeniedWithMessage && a.Message != "" {
		fmt.Fprintf(b, " (%s)", oneLine(a.Message))
	}
	b.WriteString("\n")
	if t.Result == nil || strings.TrimSpace(t.Result.Output) == "" {
		return
	}
	lines := strings.Split(strings.TrimRight(t.Result.Output, "\n"), "\n")
	more := 0
	if len(lines) > exportOutputLines {
		more = len(lines) - exportOutputLines
		lines = lines[:exportOutputLines]
	}
	body := strings.Join(lines, "\n")
	fence := fenceFor(body)
	fmt.Fprintf(b, "\n%stext\n%s\n", fence, body)
	if more > 0 {
		fmt.Fprintf(b, "… (%d more lines)\n", more)
	}
	b.WriteString(fence + "\n")
}

// mainArg picks the argument that says what a call does: the command, the
// path or the pattern; else the arguments on one line.
func mainArg(args string) string {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return shorten(args, 80)
	}
	for _, k := range []string{"command", "path", "pattern"} {
		if v, ok := m[k].(string); ok && v != "" {
			return shorten(v, 100)
		}
	}
	if len(m) == 0 {
		return ""
	}
	return shorten(args, 80)
}

// fenceFor returns a backtick fence longer than any run of backticks in s.
func fenceFor(s string) string {
	longest, run := 0, 0
	for _, c := range s {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

// inlineCode wraps s in enough backticks to hold the ones inside it.
func inlineCode(s string) string {
	f := strings.Repeat("`", max(1, len(fenceFor(s))-2))
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return f + " " + s + " " + f
	}
	return f + s + f
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func escapeHeading(s string) string { return strings.TrimLeft(s, "# ") }
