package commands

import (
	"fmt"
	"regexp"
	"strings"
)

// mentionRe finds @path mentions: an @ at the start or after whitespace
// (so a@b.com is none), then a path, or a quoted path holding spaces (the
// picker writes @"my notes.md"). The interface's input uses Mentions too.
var mentionRe = regexp.MustCompile(`(?:^|\s)@(?:"([^"\n]+)"|([^\s@]+))`)

// Mentions lists the distinct paths mentioned in s, in order.
func Mentions(s string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range mentionRe.FindAllStringSubmatch(s, -1) {
		p := m[1]
		if p == "" {
			p = strings.TrimRight(m[2], ".,;:!?)")
		}
		if p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// AttachMentions appends the files text mentions, read by attach (the
// session's guarded read), as the interface does for a typed message. The
// files that could not be read are returned as errors and left out.
func AttachMentions(text string, attach func(path string) (string, error)) (string, []error) {
	var b strings.Builder
	var errs []error
	for _, p := range Mentions(text) {
		content, err := attach(p)
		if err != nil {
			errs = append(errs, fmt.Errorf("@%s: %w", p, err))
			continue
		}
		fmt.Fprintf(&b, "<file path=%q>\n%s\n</file>\n", p, strings.TrimRight(content, "\n"))
	}
	if b.Len() == 0 {
		return text, errs
	}
	return text + "\n\nThe files I mentioned:\n" + strings.TrimRight(b.String(), "\n"), errs
}
