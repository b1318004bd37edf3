package app

import (
	"strings"
	"unicode"
)

// slugMaxRunes keeps an export's file name short enough to read in a listing.
const slugMaxRunes = 50

// slugOf turns a session title into a file-name part: lower-case letters
// and digits joined by single dashes, nothing a shell or file system would
// mind ("Fix the login test!" is fix-the-login-test).
func slugOf(title string) string {
	words := strings.FieldsFunc(strings.ToLower(title), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	slug := []rune(strings.Join(words, "-"))
	if len(slug) > slugMaxRunes {
		slug = slug[:slugMaxRunes]
	}
	return strings.Trim(string(slug), "-")
}
