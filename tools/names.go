package tools

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// displayPath renders a workspace-relative path for tool output. Plain names
// are shown as they are; a name holding a line break, another control or
// formatting character, or invalid UTF-8 is shown Go-quoted, so that a file
// name can never forge an extra entry or line. Names that start with a quote
// are quoted too, so a quoted name is never ambiguous.
func displayPath(rel string) string {
	if rel != "" && rel[0] == '"' {
		return strconv.Quote(rel)
	}
	for i := 0; i < len(rel); {
		c := rel[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return strconv.Quote(rel)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(rel[i:])
		if r == utf8.RuneError && size == 1 || !unicode.IsPrint(r) {
			return strconv.Quote(rel)
		}
		i += size
	}
	return rel
}
