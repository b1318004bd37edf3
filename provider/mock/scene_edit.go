package mock

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ternhq/tern/tools"
)

// editStep adds a comment to a file the way a careful model would: read it,
// replace one line that occurs exactly once with the comment plus that line
// (or create the file when it does not exist), check the result with a shell
// command, and report. A denied or failed step ends the scene with the file
// unchanged.
func editStep(t turn) answer {
	p := t.match.path()
	if p == "" {
		return answer{text: "Which file should I edit? Try `edit README.md` or `add a comment to main.go`."}
	}
	style := styleFor(p)
	if style.none {
		return answer{text: fmt.Sprintf("`%s` is a format without comments, so I left it unchanged. Try a source or Markdown file.", p)}
	}
	if chk, ok := t.last(tools.RunShellName); ok {
		return answer{text: editReport(t, p, chk)}
	}
	if ed, ok := t.last(tools.EditFileName, tools.WriteFileName); ok {
		if ed.status != statusOK {
			return answer{text: outcome(ed, "the change to `"+p+"`") + fmt.Sprintf("\n\nI left `%s` unchanged.", p)}
		}
		cmd := "grep -n -F -- " + shellQuote(commentText) + " " + shellQuote(p)
		return answer{
			text:  fmt.Sprintf("The change is in place. Let me check that `%s` now holds the comment.", p),
			calls: []call{{name: tools.RunShellName, args: jsonArgs("command", cmd)}},
		}
	}
	rd, ok := t.last(tools.ReadFileName)
	if !ok {
		return answer{
			text:  fmt.Sprintf("I'll read `%s` first, then add a comment to it.", p),
			calls: []call{{name: tools.ReadFileName, args: jsonArgs("path", p)}},
		}
	}
	switch {
	case rd.missing():
		return answer{
			text:  fmt.Sprintf("`%s` does not exist yet, so I'll create it with a comment.", p),
			calls: []call{{name: tools.WriteFileName, args: jsonArgs("path", p, "content", newFile(p, style))}},
		}
	case rd.status != statusOK:
		return answer{text: outcome(rd, "reading `"+p+"`") + fmt.Sprintf("\n\nI left `%s` unchanged.", p)}
	}
	lines := numbered(rd.body)
	if len(lines) == 0 {
		return answer{
			text:  fmt.Sprintf("`%s` is empty, so I'll write the comment as its only line.", p),
			calls: []call{{name: tools.WriteFileName, args: jsonArgs("path", p, "content", newFile(p, style))}},
		}
	}
	l, ok := anchor(lines)
	if !ok {
		return answer{text: fmt.Sprintf("Every line of `%s` that I saw occurs more than once, so an exact replacement would be ambiguous; I left it unchanged.", p)}
	}
	indent := l.text[:len(l.text)-len(strings.TrimLeft(l.text, " \t"))]
	return answer{
		text: fmt.Sprintf("I'll add a comment above line %d (%s).", l.n, code(strings.TrimSpace(l.text))),
		calls: []call{{name: tools.EditFileName, args: jsonArgs(
			"path", p, "old_string", l.text, "new_string", style.line(indent)+"\n"+l.text)}},
	}
}

// anchor picks the line to put the comment above: the first non-blank line
// that occurs exactly once in what read_file showed (edit_file needs a unique
// old_string), is not a shebang, and is short enough not to have been cut.
func anchor(lines []numLine) (numLine, bool) {
	var all strings.Builder
	for _, l := range lines {
		all.WriteString(l.text)
		all.WriteByte('\n')
	}
	text := all.String()
	for _, l := range lines {
		s := strings.TrimSpace(l.text)
		if s == "" || strings.HasPrefix(s, "#!") || len([]rune(l.text)) > 200 || strings.Contains(l.text, "[line cut:") ||
			strings.Count(text, l.text) != 1 {
			continue
		}
		return l, true
	}
	return numLine{}, false
}

var grepNumber = lazyRegexp(`(?m)^(\d+):`)

// editReport is the last reply: what changed, and what the check found.
func editReport(t turn, p string, chk result) string {
	var b strings.Builder
	ed, _ := t.last(tools.EditFileName, tools.WriteFileName)
	switch ed.tool {
	case tools.WriteFileName:
		fmt.Fprintf(&b, "I created `%s` with a one-line comment.", p)
	default:
		var args struct {
			Old string `json:"old_string"`
		}
		_ = json.Unmarshal([]byte(ed.args), &args) // a missing anchor only shortens the report
		fmt.Fprintf(&b, "I added a comment line to `%s`", p)
		if a := strings.TrimSpace(args.Old); a != "" {
			fmt.Fprintf(&b, ", above %s", code(a))
		}
		b.WriteString(".")
	}
	b.WriteString("\n\n")
	code, hasCode := exit(chk.body)
	found := grepNumber().FindAllStringSubmatch(chk.body, -1)
	switch {
	case chk.status == statusDenied || chk.status == statusCancelled:
		b.WriteString(outcome(chk, "the check"))
		b.WriteString("\n\nThe change itself is in place; review it with `git diff`.")
	case len(found) > 0 && (!hasCode || code == 0):
		at := make([]string, len(found))
		for i, m := range found {
			at[i] = m[1]
		}
		fmt.Fprintf(&b, "The check found it on line %s.", strings.Join(at, ", "))
	default:
		b.WriteString("The check did not find the comment:")
		b.WriteString("\n\n```text\n" + strings.Join(lastLines(chk.body, 5), "\n") + "\n```")
	}
	return b.String() + "\n"
}
