package mock

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/ternhq/tern/tools"
)

// readStep reads the named file, then summarises what read_file returned.
func readStep(t turn) answer {
	p := t.match.path()
	if p == "" {
		return answer{text: "Which file should I read? Name it, for example `read go.mod` or `explain cmd/tern/main.go`."}
	}
	r, ok := t.last(tools.ReadFileName)
	if !ok {
		return answer{
			text:  fmt.Sprintf("Let me read `%s`.", p),
			calls: []call{{name: tools.ReadFileName, args: jsonArgs("path", p)}},
		}
	}
	switch r.status {
	case statusOK:
	case statusError:
		return answer{text: outcome(r, "reading `"+p+"`") + "\n\nThe path is relative to the workspace; check it and ask again."}
	case statusDenied, statusCancelled:
		return answer{text: outcome(r, "reading `"+p+"`") + "\n\nSo I have nothing to summarise."}
	}
	return answer{text: summarise(p, r.body)}
}

var (
	goPackage = lazyRegexp(`^package\s+(\w+)`)
	funcDecl  = lazyRegexps(
		`^func\s+(?:\([^)]*\)\s*)?(\w+)`,
		`^\s*(?:async\s+)?def\s+(\w+)`,
		`^(?:export\s+)?(?:default\s+)?(?:async\s+)?function\*?\s+(\w+)`,
		`^(?:function\s+)?([A-Za-z_][\w-]*)\s*\(\)\s*\{`,
	)
	typeDecl = lazyRegexps(
		`^type\s+(\w+)`,
		`^\s*class\s+(\w+)`,
		`^(?:export\s+)?(?:abstract\s+)?(?:class|interface|enum|struct|trait)\s+(\w+)`,
	)
	heading = lazyRegexp(`^#{1,6}\s+(.+?)\s*#*$`)
	cutHint = lazyRegexp(`(?i)offset|more lines|truncated|left out|omitted`)
	// read_file's footer when it shows part of a file: "[showing lines 1-2000 of 5000; ...]".
	totalLines = lazyRegexp(`showing lines \d+-\d+ of (\d+)`)
)

// outline is what a summary reports, all taken from the tool's output.
type outline struct {
	pkg                string
	funcs, types, hdrs []string
	first              string
}

func outlineOf(p string, lines []numLine) outline {
	var o outline
	markdown := isMarkdown(p)
	for _, l := range lines {
		text := l.text
		if o.first == "" && strings.TrimSpace(text) != "" {
			o.first = shorten(strings.TrimSpace(text), 120)
		}
		if markdown {
			if m := heading().FindStringSubmatch(text); m != nil {
				o.hdrs = append(o.hdrs, m[1])
			}
			continue
		}
		if m := goPackage().FindStringSubmatch(text); m != nil && o.pkg == "" {
			o.pkg = m[1]
		}
		o.funcs = appendFirst(o.funcs, funcDecl(), text)
		o.types = appendFirst(o.types, typeDecl(), text)
	}
	return o
}

// appendFirst appends the name captured by the first pattern that matches.
func appendFirst(list []string, res []*regexp.Regexp, text string) []string {
	for _, re := range res {
		if m := re.FindStringSubmatch(text); m != nil {
			return append(list, m[1])
		}
	}
	return list
}

func isMarkdown(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown", ".mdx":
		return true
	}
	return false
}

// summarise describes a read_file result: how many lines it showed and what
// they declare.
func summarise(p, body string) string {
	lines := numbered(body)
	if len(lines) == 0 && strings.Contains(firstLine(body), " is an image (") {
		return fmt.Sprintf("`%s` is a picture, and read_file sent it to the model with its result. "+
			"The offline provider cannot look at pictures; a model that takes images would describe it.\n\n> %s", p, firstLine(body))
	}
	if len(lines) == 0 {
		return fmt.Sprintf("`%s` has no lines to show: read_file returned no numbered lines.\n\n> %s", p, firstLine(body))
	}
	o := outlineOf(p, lines)
	var b strings.Builder
	fmt.Fprintf(&b, "## `%s`\n\n", p)
	first, last := lines[0].n, lines[len(lines)-1].n
	outside := outsideLines(body)
	switch m := totalLines().FindStringSubmatch(outside); {
	case m != nil:
		fmt.Fprintf(&b, "- **Lines:** %d–%d of %s\n", first, last, m[1])
	case first == 1:
		fmt.Fprintf(&b, "- **Lines:** %d\n", len(lines))
	default:
		fmt.Fprintf(&b, "- **Lines:** %d (lines %d–%d)\n", len(lines), first, last)
	}
	if o.pkg != "" {
		fmt.Fprintf(&b, "- **Package:** `%s`\n", o.pkg)
	}
	if len(o.funcs) > 0 {
		fmt.Fprintf(&b, "- **Functions (%d):** %s\n", len(o.funcs), names(o.funcs, 6))
	}
	if len(o.types) > 0 {
		fmt.Fprintf(&b, "- **Types (%d):** %s\n", len(o.types), names(o.types, 6))
	}
	if len(o.hdrs) > 0 {
		fmt.Fprintf(&b, "- **Headings (%d):** %s\n", len(o.hdrs), names(o.hdrs, 6))
	}
	fmt.Fprintf(&b, "- **First line:** %s\n", code(o.first))
	if cutHint().MatchString(outside) {
		b.WriteString("\nread_file did not show the whole file; ask me to read on from a later offset.\n")
	}
	b.WriteString("\n_This summary is computed from the tool output by the offline provider; a real model would explain the code._\n")
	return b.String()
}

// outsideLines returns the tool's own text around the numbered lines
// (headers, cut markers), where hints about truncation live.
func outsideLines(body string) string {
	var b strings.Builder
	for _, l := range strings.Split(body, "\n") {
		if !numberedLine().MatchString(l) {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}
