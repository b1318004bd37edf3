package mock

import (
	"strings"
)

// token is one whitespace-separated word of the user message.
type token struct {
	// word is the token without surrounding quotes and punctuation, case kept
	// (paths are case-sensitive); norm is word in lower case.
	word, norm string
	// start and end are the raw token's byte offsets in the message.
	start, end int
}

var wordRE = lazyRegexp(`\S+`)

func tokenize(s string) []token {
	var out []token
	for _, loc := range wordRE().FindAllStringIndex(s, -1) {
		raw := s[loc[0]:loc[1]]
		w := strings.TrimRight(strings.TrimLeft(raw, "\"'`([{<"), "\"'`)]}>,;:!?")
		// "main.go." ends a sentence; "." and "./..." keep their dots.
		if len(w) > 1 && strings.HasSuffix(w, ".") && !strings.HasSuffix(w, "..") {
			w = w[:len(w)-1]
		}
		if w == "" {
			w = raw
		}
		out = append(out, token{word: w, norm: strings.ToLower(w), start: loc[0], end: loc[1]})
	}
	return out
}

// match records where a scene's keyword was found.
type match struct {
	// pos is the token index of the keyword; the earliest keyword wins.
	pos int
	// text is the whole user message.
	text string
	// after are the tokens following the keyword.
	after []token
	// rest is the message text after the keyword, as typed.
	rest string
}

// isLeadFiller reports polite openers skipped before a leading keyword, so
// "please read main.go" and "can you run go test" pick their scenes.
func isLeadFiller(w string) bool {
	switch w {
	case "please", "pls", "can", "could", "would", "will", "you", "now", "ok", "okay", "hey", "hi",
		"tern", "i", "want", "to", "need", "let's", "lets", "just", "then", "and", "so", "kindly":
		return true
	}
	return false
}

// isArgFiller reports words skipped when looking for a scene's argument, so
// "search for the word Foo" searches for Foo.
func isArgFiller(w string) bool {
	switch w {
	case "the", "a", "an", "file", "files", "me", "what", "does", "do", "in", "of", "to", "for", "about",
		"this", "that", "it", "is", "up", "please", "word", "string", "text", "occurrences", "usages",
		"uses", "all", "and", "how", "works", "work", "code", "called", "named", "at", "on":
		return true
	}
	return false
}

// chooseScene picks the scene whose keyword comes first in the message.
// Leading keywords (verbs such as read or run) count only when they open the
// request; the others (think, long, fail) count anywhere. With no keyword the
// default scene answers.
func chooseScene(user string) (scene, match) {
	toks := tokenize(user)
	start := 0
	for start < len(toks) && isLeadFiller(toks[start].norm) {
		start++
	}
	var best *scene
	bestMatch := match{pos: len(toks), text: user}
	table := scenes()
	for si := range table {
		sc := &table[si]
		end := len(toks)
		if sc.leading {
			end = min(start+1, len(toks))
		}
		for _, kw := range sc.keywords {
			parts := strings.Fields(kw)
			// Only an earlier keyword can beat the best so far; ties go to
			// the scene listed first.
			for i := start; i < min(end, bestMatch.pos); i++ {
				if hasPhrase(toks[i:], parts) {
					last := toks[i+len(parts)-1]
					best = sc
					bestMatch = match{pos: i, text: user, after: toks[i+len(parts):], rest: strings.TrimSpace(user[last.end:])}
					break
				}
			}
		}
	}
	if best == nil {
		return defaultScene(), match{text: user, after: toks, rest: strings.TrimSpace(user)}
	}
	return *best, bestMatch
}

func hasPhrase(toks []token, parts []string) bool {
	if len(parts) == 0 || len(toks) < len(parts) {
		return false
	}
	for j, p := range parts {
		if toks[j].norm != p {
			return false
		}
	}
	return true
}

// path is the file a request names: the first word that looks like a path
// (has a dot or a slash), else the first word that is not a filler.
func (m match) path() string {
	for _, t := range m.after {
		if strings.ContainsAny(t.word, "./\\") {
			return t.word
		}
	}
	return m.word()
}

// word is the first word after the keyword that is not a filler; when it
// opens a quote, the whole quoted phrase.
func (m match) word() string {
	for _, t := range m.after {
		if isArgFiller(t.norm) {
			continue
		}
		if q := m.text[t.start]; strings.IndexByte("\"'`", q) >= 0 {
			if end := strings.IndexByte(m.text[t.start+1:], q); end > 0 {
				return m.text[t.start+1 : t.start+1+end]
			}
		}
		return t.word
	}
	return ""
}

// command is the rest of the message as typed, without a surrounding code
// span, so "run `go test ./...`" runs go test ./...
func (m match) command() string {
	c := strings.TrimSpace(m.rest)
	if len(c) >= 2 && c[0] == '`' && c[len(c)-1] == '`' {
		c = strings.TrimSpace(strings.Trim(c, "`"))
	}
	return c
}
