package commands

import (
	"regexp"
	"strings"
	"unicode"
)

// placeholderRe finds $ARGUMENTS and $1 … $9 in a command's body.
var placeholderRe = regexp.MustCompile(`\$(ARGUMENTS|[1-9])`)

// Expand is the prompt a command stands for with args, what followed its
// name: $ARGUMENTS becomes args, $1 … $9 its single arguments (split at
// spaces, quotes keep one together; a missing one is empty). A body that
// names no placeholder gets non-empty args appended after a blank line.
func (c Command) Expand(args string) string {
	args = strings.TrimSpace(args)
	fields := splitArgs(args)
	used := false
	out := placeholderRe.ReplaceAllStringFunc(c.Body, func(p string) string {
		used = true
		if p == "$ARGUMENTS" {
			return args
		}
		i := int(p[1] - '1')
		if i < len(fields) {
			return fields[i]
		}
		return ""
	})
	out = strings.TrimRight(out, "\n")
	if !used && args != "" {
		out += "\n\n" + args
	}
	return out
}

// splitArgs splits at whitespace; "double" or 'single' quotes keep spaces
// inside one argument.
func splitArgs(s string) []string {
	var out []string
	var cur strings.Builder
	var quote rune
	in := false
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, in = r, true
		case unicode.IsSpace(r):
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}
