package tools

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Redaction markers replace what Redact removes; each says what it was, so
// the model knows a credential was there and does not go looking for it.
const (
	markPassword   = "[REDACTED password]"
	markCredential = "[REDACTED credential]"
	markHeader     = "[REDACTED header value]"
	markPrivateKey = "[REDACTED private key]"
)

// redactRule is one credential format. Group 1 of re is the secret; the
// rest of the match stays. anchors are literal strings one of which every
// match holds (lowercase when fold is set, matched against the lowered
// text): a cheap test that skips the expression on output without them.
type redactRule struct {
	anchors []string
	fold    bool
	// key marks a rule whose anchor is a key followed by ':' or '='; the
	// other anchors start a word.
	key bool
	// re is compiled when the rule's anchor is first seen: compiling the
	// nine at package initialisation cost every tern command 0.2 ms.
	re   func() *regexp.Regexp
	mark string
	// check, when set, must accept the secret for it to be redacted.
	check func(string) bool
}

// lazyRegexp returns a function that compiles pattern on its first call
// and returns the same Regexp after.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

// redactRules are the formats Redact knows besides URL passwords and
// private key blocks, kept to those whose shape alone makes a credential
// near certain, so ordinary output is left as it is.
var redactRules = []redactRule{
	{
		anchors: []string{"extraheader"}, fold: true, key: true,
		re:   lazyRegexp(`(?i)\bextraheader["']?\s*[:=]\s*["']?(?:[a-z0-9-]+:[ \t]*)?([^"'\r\n]*[^\s"'])`),
		mark: markHeader,
	},
	{
		anchors: []string{"authorization"}, fold: true, key: true,
		re:   lazyRegexp(`(?i)\bauthorization["']?\s*[:=]\s*["']?(?:basic|bearer|token|digest|negotiate|ntlm)[ \t]+([^\s"'` + "`" + `,;]+)`),
		mark: markCredential,
	},
	{
		anchors: []string{"authorization"}, fold: true, key: true,
		re:   lazyRegexp(`(?i)\bauthorization["']?\s*[:=]\s*["']?([a-z0-9._~+/=-]{16,})`),
		mark: markCredential,
	},
	{
		anchors: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
		re:      lazyRegexp(`\b(gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})`),
		mark:    "[REDACTED github token]",
	},
	{
		anchors: []string{"glpat-"},
		re:      lazyRegexp(`\b(glpat-[A-Za-z0-9_-]{20,})`),
		mark:    "[REDACTED gitlab token]",
	},
	{
		anchors: []string{"xox", "xapp-"},
		re:      lazyRegexp(`\b((?:xox[abeprs]|xapp)-[A-Za-z0-9-]{10,})`),
		mark:    "[REDACTED slack token]",
		check:   hasDigit,
	},
	{
		anchors: []string{"AKIA", "ASIA"},
		re:      lazyRegexp(`\b((?:AKIA|ASIA)[A-Z0-9]{16})\b`),
		mark:    "[REDACTED aws access key id]",
	},
	{
		anchors: []string{"aws_secret_access_key"}, fold: true, key: true,
		re:   lazyRegexp(`(?i)\baws_secret_access_key["']?\s*[=:]\s*["']?([a-z0-9/+=]{40})\b`),
		mark: "[REDACTED aws secret key]",
	},
	{
		// sk- must start a word of its own (not "task-sk-...") and the key
		// must mix cases and digits, as generated keys do and prose does not.
		anchors: []string{"sk-"},
		re:      lazyRegexp(`(?:^|[^A-Za-z0-9_-])(sk-[A-Za-z0-9_-]{20,})`),
		mark:    "[REDACTED api key]",
		check:   looksGenerated,
	},
}

// Redact replaces credentials in tool output with markers before the model,
// the session log or the screen sees them: passwords in URLs
// (https://user:pass@host), the values of git's http.extraheader and of
// Authorization headers, tokens of GitHub, GitLab and Slack, AWS access key
// ids, OpenAI-style sk- keys, and the bodies of PEM private key blocks. The
// line structure is kept: a redacted text has the same number of lines.
func Redact(s string) string {
	return redactWith(s, redactSpans(s))
}

// redactSpans finds every credential in s.
func redactSpans(s string) []span {
	spans := urlPasswordSpans(s, nil)
	spans = privateKeySpans(s, spans)
	var lower string
	for i := range redactRules {
		r := &redactRules[i]
		hay := s
		if r.fold {
			if lower == "" {
				lower = asciiLower(s)
			}
			hay = lower
		}
		spans = r.spans(s, hay, spans)
	}
	return spans
}

// redactWith replaces the spans of s with their marks.
func redactWith(s string, spans []span) string {
	if len(spans) == 0 {
		return s
	}
	// One copy for all rules; where two overlap (a token that is also a
	// URL's password), the one starting first wins.
	slices.SortFunc(spans, func(a, b span) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	var out strings.Builder
	out.Grow(len(s))
	last := 0
	for _, sp := range spans {
		if sp.start < last {
			continue
		}
		out.WriteString(s[last:sp.start])
		out.WriteString(sp.mark)
		last = sp.end
	}
	out.WriteString(s[last:])
	return out.String()
}

// span is a part of a text Redact replaces with mark.
type span struct {
	start, end int
	mark       string
	// whole is where the match that found it starts: the key or the
	// URL's user name before the secret, which must stay with it.
	whole int
}

// spans appends the spans of group 1 of every match of r in s. hay is s,
// or s in ASCII lower case for a rule that ignores case (same offsets).
// The expression only runs on the lines holding an anchor, which keeps a
// full tool result cheap to scan.
func (r *redactRule) spans(s, hay string, out []span) []span {
	for off := 0; off < len(s); {
		at, anchor := indexAny(hay[off:], r.anchors)
		if at < 0 {
			break
		}
		at += off
		if !r.anchorFits(hay, at, at+len(anchor)) {
			off = at + 1
			continue
		}
		lineStart := strings.LastIndexByte(s[:at], '\n') + 1
		lineEnd := strings.IndexByte(s[at:], '\n')
		if lineEnd < 0 {
			lineEnd = len(s)
		} else {
			lineEnd += at
		}
		off = lineEnd + 1
		line := s[lineStart:lineEnd]
		for _, m := range r.re().FindAllStringSubmatchIndex(line, -1) {
			start, end := m[2], m[3]
			if start < 0 {
				continue
			}
			secret := line[start:end]
			if strings.HasPrefix(secret, "[REDACTED") || r.check != nil && !r.check(secret) {
				continue
			}
			out = append(out, span{lineStart + start, lineStart + end, r.mark, lineStart + m[0]})
		}
	}
	return out
}

// urlPasswordSpans appends the passwords of every scheme://user:pass@ in
// s. The user name stays: it is rarely secret and tells what the
// credential was for.
func urlPasswordSpans(s string, out []span) []span {
	for off := 0; ; {
		i := strings.Index(s[off:], "://")
		if i < 0 {
			return out
		}
		auth := off + i + 3
		end := auth
		for end < len(s) && !isAuthorityEnd(s[end]) {
			end++
		}
		off = end
		at := strings.LastIndexByte(s[auth:end], '@')
		if at < 0 {
			continue
		}
		colon := strings.IndexByte(s[auth:auth+at], ':')
		if colon < 0 {
			// A token used as the user name alone (https://TOKEN@host, as
			// git remotes with a classic 40-hex GitHub token are written).
			if user := s[auth : auth+at]; len(user) >= 20 && looksTokenUser(user) {
				out = append(out, span{auth, auth + at, markCredential, auth - 3})
			}
			continue
		}
		if colon == at-1 || s[auth+colon+1:auth+at] == markPassword {
			continue
		}
		out = append(out, span{auth + colon + 1, auth + at, markPassword, auth - 3})
	}
}

// isAuthorityEnd reports whether c ends a URL's authority as written in
// text: a path, query or fragment, white space, or quoting around the URL.
func isAuthorityEnd(c byte) bool {
	switch c {
	case '/', '?', '#', ' ', '\t', '\r', '\n', '"', '\'', '`', '<', '>', '(', ')', '[', ']', '{', '}', '\\':
		return true
	}
	return false
}

// PEM private key delimiters; the label between them varies (RSA, EC,
// OPENSSH, ENCRYPTED or none).
const (
	pemBegin = "-----BEGIN "
	pemEnd   = "-----END "
	pemKey   = "PRIVATE KEY-----"
)

// privateKeySpans appends the body of every PEM private key block in s,
// keeping the BEGIN and END lines and one line per body line, so line
// numbers around it stay right. A block on one line (a JSON string with
// \n escapes) becomes one marker; a block whose END is missing (output cut
// short) loses the lines that look like its body.
func privateKeySpans(s string, out []span) []span {
	if !strings.Contains(s, pemKey) {
		return out
	}
	for off := 0; ; {
		i := strings.Index(s[off:], pemBegin)
		if i < 0 {
			return out
		}
		begin := off + i
		lineEnd := strings.IndexByte(s[begin:], '\n')
		if lineEnd < 0 {
			lineEnd = len(s)
		} else {
			lineEnd += begin
		}
		label := strings.Index(s[begin:lineEnd], pemKey)
		if label < 0 || strings.ContainsAny(s[begin+len(pemBegin):begin+label], "-") {
			off = begin + len(pemBegin)
			continue
		}
		bodyStart := begin + label + len(pemKey)
		if e := strings.Index(s[bodyStart:lineEnd], pemEnd); e >= 0 {
			// The whole block on one line.
			out = append(out, span{bodyStart, bodyStart + e, markPrivateKey, begin})
			off = bodyStart + e + len(pemEnd)
			continue
		}
		if lineEnd == len(s) {
			return out
		}
		bodyEnd := endOfKeyBody(s, lineEnd+1)
		off = bodyEnd
		if bodyEnd == lineEnd+1 {
			off += len(pemEnd) // an empty block
			continue
		}
		lines := strings.Count(s[lineEnd+1:bodyEnd], "\n")
		out = append(out, span{lineEnd + 1, bodyEnd, markPrivateKey + strings.Repeat("\n", lines), begin})
		if off >= len(s) {
			return out
		}
	}
}

// endOfKeyBody returns where the body of a key block starting at from
// ends: at the start of the line holding the END delimiter, or, with none,
// after the last line that looks like key material (base64, or a header
// such as Proc-Type: before it). The result includes the newline of the
// body's last line; it is from itself for an empty block.
func endOfKeyBody(s string, from int) int {
	if e := strings.Index(s[from:], pemEnd); e >= 0 {
		return max(from, strings.LastIndexByte(s[:from+e], '\n')+1)
	}
	end := from
	for end < len(s) {
		nl := strings.IndexByte(s[end:], '\n')
		next := len(s)
		if nl >= 0 {
			next = end + nl + 1
		}
		line := s[end:next]
		if end > from && !hasBase64Run(line, 16) && !strings.Contains(line, ":") && strings.TrimSpace(line) != "" {
			break
		}
		end = next
	}
	return end
}

// hasBase64Run reports whether line holds n or more base64 characters in
// a row.
func hasBase64Run(line string, n int) bool {
	run := 0
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=' {
			run++
			if run >= n {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// indexAny returns the index of the first of subs found in s and which
// one it is, or -1.
func indexAny(s string, subs []string) (int, string) {
	first, which := -1, ""
	for _, sub := range subs {
		hay := s
		if first >= 0 {
			hay = s[:first]
		}
		if i := strings.Index(hay, sub); i >= 0 {
			first, which = i, sub
		}
	}
	return first, which
}

// anchorFits is the cheap test of an anchor found at s[start:end] that
// spares running the expression on most near misses: a key must be
// followed by ':' or '=' (after a closing quote and spaces), a token prefix must start a word
// (for sk-, not follow a '-' either, as in "task-sk-list").
func (r *redactRule) anchorFits(s string, start, end int) bool {
	if r.key {
		if end < len(s) && (s[end] == '"' || s[end] == '\'') {
			end++ // a quoted key: "Authorization": "Bearer ..."
		}
		for end < len(s) && (s[end] == ' ' || s[end] == '\t') {
			end++
		}
		return end < len(s) && (s[end] == ':' || s[end] == '=')
	}
	if start == 0 {
		return true
	}
	c := s[start-1]
	wordByte := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_'
	return !wordByte && (c != '-' || s[start] != 's')
}

// asciiLower lowers the ASCII letters of s only, so offsets in the result
// are offsets in s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// hasDigit reports whether s holds an ASCII digit.
func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// looksGenerated reports whether s mixes upper case, lower case and digits,
// as a generated key does and a word-joined phrase does not.
func looksGenerated(s string) bool {
	return strings.ContainsAny(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") &&
		strings.ContainsAny(s, "abcdefghijklmnopqrstuvwxyz") && hasDigit(s)
}

// looksTokenUser reports whether a URL's user name is a token rather than
// a name: only letters, digits, '_' and '-', with both letters and digits.
func looksTokenUser(u string) bool {
	letters, digits := false, false
	for i := 0; i < len(u); i++ {
		switch c := u[i]; {
		case c >= '0' && c <= '9':
			digits = true
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letters = true
		case c == '_' || c == '-':
		default:
			return false
		}
	}
	return letters && digits
}
