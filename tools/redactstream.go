package tools

import "strings"

// Limits of what RedactStream holds back: a line without an end is let
// through once it is this long (progress output redrawn with CR), and a
// private key block without its END line once it is this long.
const (
	redactHoldLine = 4 << 10
	redactHoldKey  = 64 << 10
)

// RedactStream redacts live output that arrives in arbitrary pieces, as
// Redact does the whole: it lets text through a line at a time, so a
// credential split between two pieces is still seen whole, and holds back
// a private key block until its END line. The zero value is ready to use;
// it is not safe for concurrent use.
type RedactStream struct {
	pending string
}

// Write takes the next piece and returns the redacted text that may be
// shown now (possibly empty).
func (r *RedactStream) Write(chunk string) string {
	text := r.pending + chunk
	// A CR ends a line too: progress output redrawn with CR shows as it
	// comes.
	cut := max(strings.LastIndexByte(text, '\n'), strings.LastIndexByte(text, '\r')) + 1
	if b := openKeyLine(text[:cut]); b >= 0 && len(text)-b < redactHoldKey {
		cut = b
	}
	if cut == 0 && (len(text) >= redactHoldKey || len(text) >= redactHoldLine && openKeyLine(text) < 0) {
		cut = safeCut(text, len(text)-redactHoldTail)
	}
	r.pending = text[cut:]
	return Redact(text[:cut])
}

// redactHoldTail is how much of a long line without an end RedactStream
// keeps back when it lets the line through: room for a credential still
// being written at its end.
const redactHoldTail = 1 << 10

// safeCut moves the place where a long line is cut, at most at, back to
// where no credential is split from its key or cut in two: a piece
// redacted on its own would not recognise either half. With no such
// place it returns 0 (hold on) until the line is redactHoldKey long.
func safeCut(text string, at int) int {
	spans := redactSpans(text)
	for moved := true; moved && at > 0; {
		moved = false
		// Not inside a run of token characters: a token still being
		// written at the end matches nothing yet.
		for at > 0 && isTokenByte(text[at-1]) {
			at--
		}
		for _, sp := range spans {
			if sp.whole < at && at < sp.end {
				at, moved = sp.whole, true
			}
		}
	}
	if at <= 0 && len(text) >= redactHoldKey {
		return len(text) - redactHoldTail
	}
	return max(at, 0)
}

// isTokenByte reports whether c can be part of a token or key Redact knows.
func isTokenByte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("_-./+=~", c) >= 0
}

// Flush returns the rest, redacted, once the output has ended.
func (r *RedactStream) Flush() string {
	text := r.pending
	r.pending = ""
	return Redact(text)
}

// openKeyLine returns where the line starts that begins a private key
// block in s whose END line is not in s yet, or -1.
func openKeyLine(s string) int {
	i := strings.LastIndex(s, pemBegin)
	if i < 0 {
		return -1
	}
	lineEnd := strings.IndexByte(s[i:], '\n')
	if lineEnd < 0 {
		lineEnd = len(s)
	} else {
		lineEnd += i
	}
	if !strings.Contains(s[i:lineEnd], pemKey) || strings.Contains(s[i:], pemEnd) {
		return -1
	}
	return strings.LastIndexByte(s[:i], '\n') + 1
}
