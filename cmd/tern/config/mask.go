package config

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// redactMin is the shortest key Redact masks: shorter ones are
// placeholders, not secrets, and too likely inside ordinary words.
const redactMin = 8

// Mask renders an API key so that a user can recognise which key is in use
// without the key ever being printed: "sk-…abcd" for long keys, "set (N
// chars)" for short ones (whose ends would reveal too much), "not set" for
// none.
func Mask(key string) string {
	n := utf8.RuneCountInString(key)
	switch {
	case n == 0:
		return "not set"
	case n < 16:
		return fmt.Sprintf("set (%d chars)", n)
	}
	r := []rune(key)
	return string(r[:3]) + "…" + string(r[n-4:])
}

// Redact replaces every occurrence of each secret in s by its mask. Error
// messages pass through it before they are shown, in case a gateway echoes
// the key back. Keys shorter than redactMin are left alone: local gateways
// take any key, users give them "x" or "none", and masking those cut up
// every word that holds them ("network" read "networset (1 chars)").
func Redact(s string, secrets ...string) string {
	for _, k := range secrets {
		if utf8.RuneCountInString(k) < redactMin {
			continue
		}
		s = strings.ReplaceAll(s, k, Mask(k))
	}
	return s
}
