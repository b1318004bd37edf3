package main

import (
	"github.com/ternhq/tern/session"
	"github.com/ternhq/tern/tui/sanitize"
)

// exportMarkdown is a session as Markdown, cleaned as the interface cleans
// what it draws: an export goes to a terminal (tern sessions export ID) or
// to a file someone will cat, so escape sequences, C1 controls and bidi
// overrides from model text, tool output or gateway errors must not reach
// it whole.
func exportMarkdown(s *session.Session) string {
	return sanitize.Clean(session.Export(s))
}
