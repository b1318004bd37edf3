package highlight

import "strings"

// scanner walks one block of code left to right, once. Every step moves
// forward, and every look-ahead is bounded or consumes what it reads, so a
// block takes time linear in its length whatever it holds.
type scanner struct {
	src string
	pos int
	// done is the end of the last token; what lies between it and the
	// next token is emitted as Text.
	done int
	toks []Token
	l    *lang
	t    *tables
	// lineStart holds while only spaces have been seen on this line.
	lineStart bool
	// wantName is set after a defining keyword (func, class).
	wantName bool
	// cssEnd and cssSel remember where the current CSS statement ends and
	// whether it is a selector.
	cssEnd int
	cssSel bool
	// braces holds, for each template literal whose ${...} is being
	// scanned, the depth of braces opened inside it.
	braces []int
	// noRegex is where a "/" may again start a regular expression.
	noRegex int
	// heredocs are the heredoc words opened on this line, whose bodies
	// start on the next.
	heredocs []heredoc
	// rests, when set, collects the line starts where scanning rests
	// (rests.go).
	rests *[]int
}

// emit ends a token of kind k at to, which starts at from; the code
// between the previous token and from becomes Text. Neighbours of the same
// kind are merged.
func (s *scanner) emit(k Kind, from, to int) {
	if from < s.done { // never overlap what is already out
		from = s.done
	}
	if from > s.done {
		s.push(Text, s.done, from)
	}
	s.push(k, from, to)
	if to > s.pos {
		s.pos = to
	}
}

// push appends src[from:to] as a token of kind k, or grows the last token
// when it has the same kind.
func (s *scanner) push(k Kind, from, to int) {
	if to <= from {
		return
	}
	if n := len(s.toks); n > 0 && s.toks[n-1].Kind == k {
		s.toks[n-1].Text = s.src[from-len(s.toks[n-1].Text) : to]
	} else {
		s.toks = append(s.toks, Token{Kind: k, Text: s.src[from:to]})
	}
	s.done = to
}

// sub scans src[from:to] as language l into the same token list.
func (s *scanner) sub(l *lang, from, to int) {
	if from > s.done {
		s.push(Text, s.done, from)
	}
	t := scanner{src: s.src[:to], pos: from, done: from, toks: s.toks, l: l, t: l.tables(), lineStart: true}
	t.scan()
	s.toks = t.toks
	s.done = to
	s.pos = to
}

// scan tokenizes from s.pos to the end of s.src.
func (s *scanner) scan() {
	switch s.l.mode {
	case generic:
		s.generic()
	case diffMode:
		s.diff()
	case consoleMode:
		s.console()
	case markdownMode:
		s.markdown()
	case dockerMode:
		s.dockerfile()
	case yamlMode:
		s.yaml()
	case markupMode:
		s.markup()
	}
	s.emit(Text, len(s.src), len(s.src))
}

// generic is the table-driven scanner most languages use: spaces, then
// the language's specials (comments, strings, marks), names, numbers and
// operators, whatever is left being Text.
func (s *scanner) generic() {
	src := s.src
	for s.pos < len(src) {
		c := src[s.pos]
		switch c {
		case '\n':
			s.pos++
			s.lineStart = true
			if len(s.heredocs) > 0 {
				s.heredocBodies()
			}
			s.noteRest()
			continue
		case ' ', '\t', '\r', '\f':
			s.pos++
			continue
		}
		if len(s.braces) > 0 && (c == '{' || c == '}') {
			s.brace(c)
			continue
		}
		cl := s.t.class[c]
		switch {
		case cl&cSpecial != 0 && s.special(c):
			s.wantName = false
		case cl&cIdentStart != 0:
			s.ident()
		case cl&cDigit != 0 || (c == '.' || c == '-' && s.l.flags&fSignedNum != 0) && s.pos+1 < len(src) && isDigit(src[s.pos+1]):
			s.number()
			s.wantName = false
		case cl&cOp != 0:
			s.operator()
			s.wantName = false
		default:
			s.pos++
			s.wantName = false
		}
		s.lineStart = false
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// skipSpaces returns the index of the first byte from i on that is not a
// space or tab.
func (s *scanner) skipSpaces(i int) int {
	for i < len(s.src) && isSpace(s.src[i]) {
		i++
	}
	return i
}

// lineEnd returns the index of the newline ending the line holding i, or
// the end of the code.
func (s *scanner) lineEnd(i int) int {
	if j := strings.IndexByte(s.src[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(s.src)
}

// identEnd returns the end of the name continuing at i.
func (s *scanner) identEnd(i int) int {
	for i < len(s.src) && s.t.class[s.src[i]]&cIdentPart != 0 {
		i++
	}
	return i
}

// lookupWord finds w in the language's words.
func (s *scanner) lookupWord(w string) (word, bool) {
	if s.l.flags&fCaseFold == 0 {
		e, ok := s.t.words[w]
		return e, ok
	}
	var buf [32]byte
	if len(w) > len(buf) {
		return word{}, false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	e, ok := s.t.words[string(buf[:len(w)])]
	return e, ok
}

// ident reads a name at s.pos and classifies it: a known word, a defined
// or called name, a key, a prefixed string.
func (s *scanner) ident() {
	src := s.src
	start := s.pos
	end := s.identEnd(start + 1)
	f := s.l.flags
	if f&fMacroBang != 0 && end < len(src) && src[end] == '!' && (end+1 >= len(src) || src[end+1] != '=') {
		end++
	}
	w := src[start:end]
	if end < len(src) {
		if q := src[end]; q == '"' || q == '\'' || q == '`' || q == '#' {
			if s.prefixedString(start, end) {
				s.wantName = false
				return
			}
		}
	}
	if f&fShell != 0 && isDigits(w) {
		s.emit(Number, start, end)
		return
	}
	e, known := s.lookupWord(w)
	k := Text
	if known {
		k = e.kind
	}
	switch {
	case s.wantName && !known:
		k = Name
	case known:
	case f&fLineKey != 0 && s.lineStart && s.keyFollows(end):
		k = Name
	case f&fKeyName != 0 && s.colonFollows(end):
		k = Name
	case f&fUpperType != 0 && w[0] >= 'A' && w[0] <= 'Z':
		k = Type
	case f&fCallName != 0 && end < len(src) && src[end] == '(':
		k = Name
	case f&fShell != 0 && end < len(src) && src[end] == '=' && isPlainName(w):
		k = Name
	case f&fCSS != 0:
		k = s.cssWord(end)
	}
	s.wantName = known && e.def
	s.emit(k, start, end)
}

// isDigits reports whether w is a run of decimal digits.
func isDigits(w string) bool {
	for i := 0; i < len(w); i++ {
		if !isDigit(w[i]) {
			return false
		}
	}
	return w != ""
}

// isPlainName reports whether w is a variable name: letters, digits, "_".
func isPlainName(w string) bool {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if ok := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && isDigit(c); !ok {
			return false
		}
	}
	return true
}

// keyFollows reports whether "=", "?=", "+=", "!=" (not "==") or ":"
// follows i after spaces: the name before it is a key or a target.
func (s *scanner) keyFollows(i int) bool {
	i = s.skipSpaces(i)
	if i >= len(s.src) {
		return false
	}
	var next byte
	if i+1 < len(s.src) {
		next = s.src[i+1]
	}
	switch s.src[i] {
	case '=':
		return next != '='
	case ':':
		return true
	case '?', '+', '!':
		return next == '='
	}
	return false
}

// colonFollows reports whether ":" follows i after spaces.
func (s *scanner) colonFollows(i int) bool {
	i = s.skipSpaces(i)
	return i < len(s.src) && s.src[i] == ':' && (i+1 >= len(s.src) || s.src[i+1] != ':')
}

// number reads a numeric literal: decimal, hex, octal and binary with
// underscores, fractions, exponents and type suffixes.
func (s *scanner) number() {
	src := s.src
	i := s.pos
	if src[i] == '-' {
		i++
	}
	hex := false
	if src[i] == '0' && i+1 < len(src) && (src[i+1]|0x20 == 'x') {
		hex = true
		i += 2
	}
	dot := false
	for i < len(src) {
		c := src[i]
		switch {
		case isDigit(c) || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			i++
			if (!hex && c|0x20 == 'e' || hex && c|0x20 == 'p') && i < len(src) && (src[i] == '+' || src[i] == '-') {
				i++
			}
			continue
		case c == '.' && !dot && !hex && i+1 < len(src) && isDigit(src[i+1]):
			dot = true
			i++
			continue
		}
		break
	}
	s.emit(Number, s.pos, i)
}

// operator reads the longest operator at s.pos, if any.
func (s *scanner) operator() {
	src := s.src
	c := src[s.pos]
	for _, op := range s.t.ops[c] {
		if strings.HasPrefix(src[s.pos:], op) {
			s.emit(Operator, s.pos, s.pos+len(op))
			return
		}
	}
	if s.t.class[c]&cOpChar != 0 {
		s.emit(Operator, s.pos, s.pos+1)
		return
	}
	s.pos++
}
