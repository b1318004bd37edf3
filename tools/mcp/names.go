package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Prefix starts the name of every MCP tool offered to the model.
const Prefix = "mcp__"

// MaxNameLen is the longest tool name gateways accept.
const MaxNameLen = 64

// hashLen is how many hex digits of the full name's hash end a clamped name.
const hashLen = 8

// ToolName is the name a server's tool is offered under:
// mcp__<server>__<tool>, with every character outside [A-Za-z0-9_-]
// replaced by _, clamped to MaxNameLen with a hash of the unclamped name
// (stable across runs) as its last characters when it is longer.
func ToolName(server, tool string) string {
	full := Prefix + sanitizeName(server) + "__" + sanitizeName(tool)
	if len(full) <= MaxNameLen {
		return full
	}
	return withHash(full, Prefix+server+"__"+tool)
}

// withHash cuts name so that "_" and hashLen hex digits of key's hash fit
// in MaxNameLen.
func withHash(name, key string) string {
	sum := sha256.Sum256([]byte(key))
	suffix := "_" + hex.EncodeToString(sum[:])[:hashLen]
	if len(name) > MaxNameLen-len(suffix) {
		name = name[:MaxNameLen-len(suffix)]
	}
	return name + suffix
}

// sanitizeName replaces each character outside [A-Za-z0-9_-] by _.
func sanitizeName(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			continue
		}
		b.WriteByte('_')
	}
	return b.String()
}

// ValidServerName reports whether a configured server name can be used as
// is: letters, digits, _ and -, no double underscore and no _ at either
// end (either would make mcp__a__b__c ambiguous: servers a_ and a would
// share the name mcp__a___x, and the rule mcp__a__* would match both).
func ValidServerName(name string) bool {
	return name != "" && sanitizeName(name) == name && !strings.Contains(name, "__") &&
		!strings.HasPrefix(name, "_") && !strings.HasSuffix(name, "_")
}

// SafeServerName makes a name given by someone else (an editor's
// "human-readable" one) usable as a server name: characters outside
// [A-Za-z0-9_-] become -, and so do runs of _ that would read as __ and
// a _ at either end.
func SafeServerName(name string) string {
	s := strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, name)
	for strings.Contains(s, "__") {
		s = strings.ReplaceAll(s, "__", "_-")
	}
	if strings.HasPrefix(s, "_") {
		s = "-" + s[1:]
	}
	if strings.HasSuffix(s, "_") {
		s = s[:len(s)-1] + "-"
	}
	if s == "" {
		s = "server"
	}
	return s
}
