package tui

import (
	"fmt"
	"strconv"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tui/markdown"
)

// diffLine is one line of a unified diff ready to draw.
type diffLine struct {
	kind     byte // '+', '-', ' ', '@' (hunk header), '\\' (no newline note)
	old, new int  // line numbers, 0 when the side has none
	text     string
}

// parseDiff reads a unified diff; file headers are dropped. Without hunk
// headers (numbered=false) the line numbers are unknown and left 0.
func parseDiff(d string) (lines []diffLine, numbered bool) {
	oldN, newN := 0, 0
	for l := range strings.SplitSeq(strings.TrimRight(d, "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "+++ "):
		case strings.HasPrefix(l, "@@"):
			o, n, ok := hunkStart(l)
			if ok {
				oldN, newN, numbered = o, n, true
			}
			lines = append(lines, diffLine{kind: '@', text: l})
		case strings.HasPrefix(l, "+"):
			lines = append(lines, diffLine{kind: '+', new: num(numbered, newN), text: l[1:]})
			newN++
		case strings.HasPrefix(l, "-"):
			lines = append(lines, diffLine{kind: '-', old: num(numbered, oldN), text: l[1:]})
			oldN++
		case strings.HasPrefix(l, "\\"):
			lines = append(lines, diffLine{kind: '\\', text: l})
		default:
			text := strings.TrimPrefix(l, " ")
			lines = append(lines, diffLine{kind: ' ', old: num(numbered, oldN), new: num(numbered, newN), text: text})
			oldN++
			newN++
		}
	}
	return lines, numbered
}

func num(numbered bool, n int) int {
	if numbered {
		return n
	}
	return 0
}

// hunkStart parses "@@ -12,3 +12,4 @@".
func hunkStart(h string) (oldStart, newStart int, ok bool) {
	f := strings.Fields(h)
	if len(f) < 3 {
		return 0, 0, false
	}
	parse := func(s string, sign byte) (int, bool) {
		if len(s) < 2 || s[0] != sign {
			return 0, false
		}
		s = s[1:]
		if i := strings.IndexByte(s, ','); i >= 0 {
			s = s[:i]
		}
		n, err := strconv.Atoi(s)
		return n, err == nil
	}
	o, ok1 := parse(f[1], '-')
	n, ok2 := parse(f[2], '+')
	return o, n, ok1 && ok2
}

// diffFromArgs builds a diff for an edit or write when no preview came with
// the call (auto-approved calls): old_string→new_string, or the new content.
// Line numbers inside the file are unknown, so hunk headers are dropped.
func diffFromArgs(name string, args map[string]any) string {
	str := func(k string) string { s, _ := args[k].(string); return s }
	var before, after string
	switch name {
	case tools.EditFileName:
		before, after = str("old_string"), str("new_string")
	case tools.WriteFileName:
		after = str("content")
	default:
		return ""
	}
	if before == after {
		return ""
	}
	if before != "" && !strings.HasSuffix(before, "\n") {
		before += "\n"
	}
	if after != "" && !strings.HasSuffix(after, "\n") {
		after += "\n"
	}
	d, err := udiff.ToUnified("a", "b", before, udiff.Lines(before, after), 2)
	if err != nil {
		return ""
	}
	var b strings.Builder
	for l := range strings.SplitSeq(d, "\n") {
		if strings.HasPrefix(l, "@@") {
			continue
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// renderDiff draws a diff with line numbers and colours, at most limit lines
// (0 means all); it reports how many lines were left out. Long lines are
// wrapped when wrapLong is set (the approval dialog must show everything),
// else truncated.
func renderDiff(rc *renderCtx, d string, width, limit int, wrapLong bool) (out []string, hidden int) {
	lines, numbered := parseDiff(d)
	maxN := 0
	for _, l := range lines {
		maxN = max(maxN, l.old, l.new)
	}
	w := len(strconv.Itoa(maxN))
	pad := ""
	if numbered {
		pad = strings.Repeat(" ", w+1)
	}
	for i, l := range lines {
		if limit > 0 && i >= limit {
			return out, len(lines) - limit
		}
		var gutter string
		if numbered {
			n := ""
			switch l.kind {
			case '+':
				n = strconv.Itoa(l.new)
			case '-':
				n = strconv.Itoa(l.old)
			case ' ':
				n = strconv.Itoa(l.new)
			}
			gutter = rc.th.diffLineNo.Render(fmt.Sprintf("%*s ", w, n))
		}
		style := rc.th.dim
		// The code's own tab stops, not the marker's, set its indentation.
		text := string(l.kind) + " " + markdown.ExpandTabs(l.text)
		switch l.kind {
		case '+':
			style = rc.th.diffAdd
		case '-':
			style = rc.th.diffDel
		case ' ':
			style = rc.th.errBody
		case '@':
			gutter, style, text = pad, rc.th.diffHunk, l.text
		case '\\':
			text = l.text
		}
		room := width - len(pad)
		if !wrapLong {
			out = append(out, gutter+style.Render(truncate(text, room)))
			continue
		}
		for j, part := range wrap(text, room) {
			if j > 0 {
				gutter = pad
			}
			out = append(out, gutter+style.Render(part))
		}
	}
	return out, 0
}
