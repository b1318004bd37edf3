package mock

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/ternhq/tern/tools"
)

// searchStep searches contents and file names in one reply (two parallel
// calls), then reports the counts found in both results.
func searchStep(t turn) answer {
	w := t.match.word()
	if w == "" {
		return answer{text: "What should I search for? Try `search Provider` or `find \"tool call\"`."}
	}
	glob := "**/*" + globEscape(w) + "*"
	g, gok := t.last(tools.GrepName)
	l, lok := t.last(tools.ListFilesName)
	if !gok && !lok {
		return answer{
			text: fmt.Sprintf("Searching file contents and names for `%s`.", w),
			calls: []call{
				{name: tools.GrepName, args: jsonArgs("pattern", regexp.QuoteMeta(w))},
				{name: tools.ListFilesName, args: jsonArgs("pattern", glob)},
			},
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## Search for `%s`\n\n| Tool | Found |\n|---|---|\n", strings.ReplaceAll(w, "`", "'"))
	var hits grepHits
	if gok {
		hits = countGrep(g.body)
	}
	switch {
	case !gok:
		b.WriteString("| `grep` (contents) | no result |\n")
	case g.status != statusOK:
		fmt.Fprintf(&b, "| `grep` (contents) | %s |\n", cell(outcomeWord(g)+": "+firstLine(g.body)))
	default:
		fmt.Fprintf(&b, "| `grep` (contents) | %s |\n", hits.summary())
	}
	var paths []string
	switch {
	case !lok:
		b.WriteString("| `list_files` (names) | no result |\n")
	case l.status != statusOK:
		fmt.Fprintf(&b, "| `list_files` (`%s`) | %s |\n", cell(glob), cell(outcomeWord(l)+": "+firstLine(l.body)))
	default:
		paths = listed(l.body)
		fmt.Fprintf(&b, "| `list_files` (`%s`) | %s |\n", cell(glob), plural(len(paths), "file name"))
	}
	if len(hits.files) > 0 {
		b.WriteString("\nFiles with the most matches:\n\n")
		for i, f := range hits.top(5) {
			fmt.Fprintf(&b, "%d. `%s`: %d\n", i+1, f, hits.files[f])
		}
	}
	if len(paths) > 0 {
		fmt.Fprintf(&b, "\nFile names containing `%s`: %s\n", w, names(paths, 5))
	}
	if gok && lok && hits.lines == 0 && len(paths) == 0 && g.status == statusOK && l.status == statusOK {
		fmt.Fprintf(&b, "\nNothing in this workspace mentions `%s`.\n", w)
	}
	return answer{text: b.String()}
}

// grepHits counts grep's "path:line: text" lines per file. When the tool
// left matches out, its marker gives the totals (shownOf, filesOf) or at
// least how many lines are missing (more).
type grepHits struct {
	lines            int
	files            map[string]int
	shownOf, filesOf int
	more             int
}

var (
	// grep's own marker: "[12 matches left out: showing 50 of 62 matches, in 4 of 9 files; ...]".
	grepTotals = lazyRegexp(`showing \d+ of (\d+) matches, in \d+ of (\d+) files`)
	// Any other cap marker: "[... 40 lines (2.1 KiB) left out ...]", "(12 more)".
	moreMarker = lazyRegexp(`(?i)(\d+)\s+(?:more|further|lines?\b[^\]]*left out)`)
)

func countGrep(body string) grepHits {
	h := grepHits{files: make(map[string]int)}
	for _, l := range strings.Split(body, "\n") {
		if m := grepLine().FindStringSubmatch(l); m != nil {
			h.lines++
			h.files[m[1]]++
			continue
		}
		if m := grepTotals().FindStringSubmatch(l); m != nil {
			h.shownOf, _ = strconv.Atoi(m[1]) // digits only: cannot fail
			h.filesOf, _ = strconv.Atoi(m[2])
			continue
		}
		if m := moreMarker().FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			h.more += n
		}
	}
	return h
}

// summary is the table cell for grep: totals, and what was shown.
func (h grepHits) summary() string {
	switch {
	case h.shownOf > 0:
		return fmt.Sprintf("%s in %s (%d shown)", plural(h.shownOf, "matching line"), plural(h.filesOf, "file"), h.lines)
	case h.more > 0:
		return fmt.Sprintf("%s in %s shown (about %d more lines left out)", plural(h.lines, "matching line"), plural(len(h.files), "file"), h.more)
	}
	return plural(h.lines, "matching line") + " in " + plural(len(h.files), "file")
}

// top lists the files with the most matches, ties in name order.
func (h grepHits) top(n int) []string {
	fs := make([]string, 0, len(h.files))
	for f := range h.files {
		fs = append(fs, f)
	}
	sort.Slice(fs, func(i, j int) bool {
		if h.files[fs[i]] != h.files[fs[j]] {
			return h.files[fs[i]] > h.files[fs[j]]
		}
		return fs[i] < fs[j]
	})
	return fs[:min(n, len(fs))]
}

var notAPath = lazyRegexp(`(?i)^(?:no |found |showing |\d+ (?:files?|matches|more|paths?)\b)|[:]\s`)

// listed returns the paths in a list_files result, skipping the tool's
// headers, notes and cap markers.
func listed(body string) []string {
	var out []string
	for _, l := range strings.Split(body, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.ContainsAny(l[:1], "([<#…*") || strings.HasPrefix(l, "...") || notAPath().MatchString(l) {
			continue
		}
		out = append(out, l)
	}
	return out
}

// globEscape escapes the characters doublestar treats as pattern syntax.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\*?[]{}`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// cell makes text safe inside a Markdown table cell.
func cell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
}

func outcomeWord(r result) string {
	switch r.status {
	case statusOK:
		return "ok"
	case statusError:
		return "error"
	case statusDenied:
		return "denied"
	case statusCancelled:
		return "cancelled"
	}
	return "unknown"
}
