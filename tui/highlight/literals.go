package highlight

import (
	"strings"
	"unicode/utf8"
)

// special tries the language's comments, strings and marks that start with
// c at s.pos; it reports whether it emitted a token.
func (s *scanner) special(c byte) bool {
	src := s.src
	i := s.pos
	rest := src[i:]
	f := s.l.flags
	if i == 0 && strings.HasPrefix(rest, "#!") && !strings.HasPrefix(rest, "#![") {
		s.emit(Comment, i, s.lineEnd(i))
		return true
	}
	if f&fLuaLong != 0 {
		if strings.HasPrefix(rest, "--[") {
			if e := s.longBracket(i + 2); e > 0 {
				s.emit(Comment, i, e)
				return true
			}
		}
		if c == '[' {
			if e := s.longBracket(i); e > 0 {
				s.emit(String, i, e)
				return true
			}
		}
	}
	if c == '[' && f&(fSection|fBracketAttr) != 0 && s.lineStart {
		e := s.lineEnd(i)
		if j := strings.IndexByte(src[i:e], ']'); j >= 0 {
			j += i + 1
			if j < e && src[j] == ']' {
				j++
			}
			k := Heading
			if f&fBracketAttr != 0 {
				k = Meta
			}
			s.emit(k, i, j)
			return true
		}
	}
	for _, lc := range s.l.lineComments {
		if strings.HasPrefix(rest, lc) {
			if f&(fShell|fSpacedComment) != 0 && !s.wordStart() {
				break
			}
			s.emit(Comment, i, s.lineEnd(i))
			return true
		}
	}
	for _, bc := range s.l.blockComments {
		if strings.HasPrefix(rest, bc.open) {
			s.emit(Comment, i, s.blockEnd(i, bc))
			return true
		}
	}
	switch c {
	case '/':
		if f&fRegex != 0 && s.regex() {
			return true
		}
	case '`':
		if f&fTemplate != 0 {
			s.template(i, i+1)
			return true
		}
	case '#':
		if f&fHashMeta != 0 && s.lineStart {
			s.directive()
			return true
		}
		if f&fRustAttr != 0 && (strings.HasPrefix(rest, "#[") || strings.HasPrefix(rest, "#![")) {
			s.emit(Meta, i, s.bracketEnd(strings.IndexByte(rest, '[')+i))
			return true
		}
		if f&fCSS != 0 && s.cssMark(c) {
			return true
		}
	case '@':
		if f&(fAtMeta|fAtBuiltin) != 0 {
			j := i + 1
			for j < len(src) && (s.t.class[src[j]]&cIdentPart != 0 || src[j] == '.' && j > i+1) {
				j++
			}
			if j > i+1 {
				k := Meta
				if f&fAtBuiltin != 0 {
					k = Builtin
				}
				s.emit(k, i, j)
				return true
			}
		}
	case '$':
		if f&fDollarVar != 0 && s.dollar() {
			return true
		}
	case '<':
		if f&fHeredoc != 0 && s.heredocStart() {
			return true
		}
	case '\'':
		if f&fNixStr != 0 && strings.HasPrefix(rest, "''") {
			s.emit(String, i, s.nixStringEnd(i))
			return true
		}
		if f&fCharLit != 0 && s.charLit(i, i) {
			return true
		}
	case ':':
		if f&fCSS != 0 && s.cssMark(c) {
			return true
		}
		if f&fSymbol != 0 && i+1 < len(src) && s.t.class[src[i+1]]&cIdentStart != 0 &&
			(i == 0 || src[i-1] != ':' && s.t.class[src[i-1]]&cIdentPart == 0) {
			s.emit(String, i, s.identEnd(i+1))
			return true
		}
	case '\\':
		if f&fZigLine != 0 && strings.HasPrefix(rest, `\\`) {
			s.emit(String, i, s.lineEnd(i))
			return true
		}
	case '.':
		if f&fCSS != 0 && s.cssMark(c) {
			return true
		}
	}
	for n := range s.l.strs {
		r := &s.l.strs[n]
		if strings.HasPrefix(rest, r.open) {
			e := s.stringEnd(i+len(r.open), r)
			k := String
			if f&fKeyName != 0 && s.colonFollows(e) {
				k = Name
			}
			s.emit(k, i, e)
			return true
		}
	}
	return false
}

// wordStart reports whether s.pos starts a shell word.
func (s *scanner) wordStart() bool {
	if s.pos == 0 {
		return true
	}
	switch s.src[s.pos-1] {
	case ' ', '\t', '\n', ';', '|', '&', '(', ')':
		return true
	}
	return false
}

// stringEnd returns the end of a string of rule r whose body starts at j.
func (s *scanner) stringEnd(j int, r *strRule) int {
	src := s.src
	for j < len(src) {
		c := src[j]
		switch {
		case c == r.esc && r.esc != 0:
			j += 2
			continue
		case c == '\n' && !r.multi:
			return j
		case c == r.close[0] && strings.HasPrefix(src[j:], r.close):
			j += len(r.close)
			if r.double && strings.HasPrefix(src[j:], r.close) {
				j += len(r.close)
				continue
			}
			return j
		}
		j++
	}
	return len(src)
}

// blockEnd returns the end of the block comment opening at i.
func (s *scanner) blockEnd(i int, p pair) int {
	src := s.src
	j := i + len(p.open)
	if !s.l.nest {
		if k := strings.Index(src[j:], p.close); k >= 0 {
			return j + k + len(p.close)
		}
		return len(src)
	}
	depth := 1
	for j < len(src) {
		switch {
		case strings.HasPrefix(src[j:], p.close):
			j += len(p.close)
			depth--
			if depth == 0 {
				return j
			}
		case strings.HasPrefix(src[j:], p.open):
			j += len(p.open)
			depth++
		default:
			j++
		}
	}
	return len(src)
}

// bracketEnd returns the end of the bracketed run opening at i ("[").
func (s *scanner) bracketEnd(i int) int {
	depth := 0
	for j := i; j < len(s.src); j++ {
		switch s.src[j] {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return len(s.src)
}

// directive reads a preprocessor line's directive at s.pos ("#include").
func (s *scanner) directive() {
	i := s.pos
	j := s.identEnd(s.skipSpaces(i + 1))
	name := strings.TrimLeft(s.src[i+1:j], " \t")
	s.emit(Meta, i, j)
	e := s.lineEnd(j)
	switch name {
	case "include", "import", "include_next":
		s.emit(String, s.skipSpaces(j), e)
	case "pragma", "region", "endregion", "error", "warning", "line":
		s.emit(Meta, j, e)
	}
}

// dollar reads a shell, PHP or Makefile variable at s.pos.
func (s *scanner) dollar() bool {
	src := s.src
	i := s.pos
	j := i + 1
	if j >= len(src) {
		return false
	}
	c := src[j]
	switch {
	case c == '{' || c == '(' && s.l.flags&fMakeVar != 0:
		e := min(len(src), j+maxVarLen) // bounded, so a line of "${" stays linear
		open, close := c, byte('}')
		if c == '(' {
			close = ')'
		}
		depth := 0
	look:
		for k := j; k < e; k++ {
			switch src[k] {
			case '\n':
				break look
			case open:
				depth++
			case close:
				depth--
				if depth == 0 {
					s.emit(Name, i, k+1)
					return true
				}
			}
		}
		s.emit(Name, i, j+1)
	case c == '(':
		s.emit(Operator, i, j+1)
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		k := j + 1
		for k < len(src) && (src[k] == '_' || isDigit(src[k]) || src[k]|0x20 >= 'a' && src[k]|0x20 <= 'z') {
			k++
		}
		s.emit(Name, i, k)
	case isDigit(c) || strings.IndexByte("@*#?$!-<^+%", c) >= 0:
		s.emit(Name, i, j+1)
	case c == '\'' && s.l.flags&fShell != 0:
		s.emit(String, i, s.stringEnd(j+1, &strRule{close: "'", esc: '\\', multi: true}))
	default:
		return false
	}
	return true
}

// maxVarLen bounds the look-ahead for the end of "${...}" and of a
// heredoc's quoted word, so that lines of openers stay linear.
const maxVarLen = 256

// heredoc is a heredoc whose body is still to come.
type heredoc struct {
	word string
	// indent lets the closing word be indented (<<- and <<~).
	indent bool
}

// heredocStart reads "<<WORD" at s.pos and queues its body.
func (s *scanner) heredocStart() bool {
	src := s.src
	i := s.pos
	if !strings.HasPrefix(src[i:], "<<") {
		return false
	}
	j := i + 2
	shell := s.l.flags&fShell != 0
	if j < len(src) && src[j] == '<' {
		if shell {
			s.emit(Operator, i, j+1)
			return true
		}
		j++ // PHP's <<<EOT
	}
	h := heredoc{}
	if j < len(src) && (src[j] == '-' || src[j] == '~') {
		h.indent = true
		j++
	}
	if shell {
		j = s.skipSpaces(j)
	}
	if j < len(src) && src[j] == '\\' {
		j++
	}
	e := j
	if j < len(src) && (src[j] == '\'' || src[j] == '"') {
		k := strings.IndexByte(src[j+1:min(len(src), j+1+maxVarLen)], src[j])
		if k < 0 || strings.IndexByte(src[j+1:j+1+k], '\n') >= 0 {
			return false
		}
		h.word = src[j+1 : j+1+k]
		e = j + k + 2
	} else {
		for e < len(src) && (src[e] == '_' || isDigit(src[e]) || src[e]|0x20 >= 'a' && src[e]|0x20 <= 'z') {
			e++
		}
		h.word = src[j:e]
		if !shell && (h.word == "" || !startsUpper(h.word)) {
			return false
		}
	}
	if h.word == "" {
		return false
	}
	s.emit(String, i, e)
	s.heredocs = append(s.heredocs, h)
	return true
}

// startsUpper reports whether w starts with a capital letter or "_", as
// the words of heredocs outside the shell do.
func startsUpper(w string) bool {
	return w[0] >= 'A' && w[0] <= 'Z' || w[0] == '_'
}

// heredocBodies reads the bodies of the queued heredocs from s.pos, the
// start of a line, up to and including each closing word's line.
func (s *scanner) heredocBodies() {
	src := s.src
	for _, h := range s.heredocs {
		start := s.pos
		closed := false
		for s.pos < len(src) && !closed {
			e := s.lineEnd(s.pos)
			line := strings.TrimRight(src[s.pos:e], "\r")
			if h.indent {
				line = strings.TrimLeft(line, " \t")
			}
			if line == h.word || s.l.flags&fShell == 0 && strings.HasPrefix(line, h.word) && s.t.class[line[len(h.word)]]&cIdentPart == 0 {
				s.emit(String, start, e)
				closed = true
			}
			s.pos = min(e+1, len(src))
		}
		if !closed {
			s.emit(String, start, len(src))
		}
	}
	s.heredocs = s.heredocs[:0]
}

// charLit reads a character literal whose quote is at q and which starts
// at start (before a prefix such as Rust's b), or a lifetime or label.
func (s *scanner) charLit(start, q int) bool {
	src := s.src
	i := start
	j := q + 1
	if j >= len(src) {
		return false
	}
	switch c := src[j]; {
	case c == '\\':
		for k := j + 1; k < len(src) && k < j+12 && src[k] != '\n'; k++ {
			if src[k] == '\'' && k > j+1 {
				s.emit(String, i, k+1)
				return true
			}
		}
	case c != '\'' && c != '\n':
		_, size := utf8.DecodeRuneInString(src[j:])
		if k := j + size; k < len(src) && src[k] == '\'' {
			s.emit(String, i, k+1)
			return true
		}
	}
	if s.t.class[src[j]]&cIdentStart != 0 && start == q {
		s.emit(Meta, i, s.identEnd(j))
		return true
	}
	return false
}

// longBracket returns the end of a Lua long bracket opening at i
// ("[[" or "[==["), or 0 when there is none.
func (s *scanner) longBracket(i int) int {
	src := s.src
	if i >= len(src) || src[i] != '[' {
		return 0
	}
	j := i + 1
	for j < len(src) && src[j] == '=' {
		j++
	}
	if j >= len(src) || src[j] != '[' {
		return 0
	}
	level := j - i - 1
	for k := j + 1; k < len(src); k++ {
		if src[k] != ']' {
			continue
		}
		m := k + 1
		for m < len(src) && src[m] == '=' && m-k-1 < level {
			m++
		}
		if m-k-1 == level && m < len(src) && src[m] == ']' {
			return m + 1
		}
	}
	return len(src)
}

// nixStringEnd returns the end of the Nix indented string opening at i.
func (s *scanner) nixStringEnd(i int) int {
	src := s.src
	j := i + 2
	for {
		k := strings.Index(src[j:], "''")
		if k < 0 {
			return len(src)
		}
		p := j + k
		if p+2 < len(src) && (src[p+2] == '\'' || src[p+2] == '$' || src[p+2] == '\\') {
			j = p + 3
			continue
		}
		return p + 2
	}
}

// prefixedString reads a string whose quote follows the name at
// start:end (r"..", b'..', f"..", R"x(..)x", r#".."#); it reports whether
// it did.
func (s *scanner) prefixedString(start, end int) bool {
	src := s.src
	w := src[start:end]
	q := src[end]
	f := s.l.flags
	if f&fRustRaw != 0 && (w == "r" || w == "br" || w == "cr") {
		j := end
		for j < len(src) && src[j] == '#' {
			j++
		}
		if j >= len(src) || src[j] != '"' {
			return false
		}
		close := `"` + src[end:j]
		k := strings.Index(src[j+1:], close)
		e := len(src)
		if k >= 0 {
			e = j + 1 + k + len(close)
		}
		s.emit(String, start, e)
		return true
	}
	if f&fCppRaw != 0 && q == '"' && strings.HasSuffix(w, "R") && len(w) <= 3 {
		p := strings.IndexByte(src[end+1:min(len(src), end+18)], '(')
		if p < 0 {
			return false
		}
		delim := src[end+1 : end+1+p]
		if strings.ContainsAny(delim, " \\)\t\n") {
			return false
		}
		close := ")" + delim + `"`
		k := strings.Index(src[end+2+p:], close)
		e := len(src)
		if k >= 0 {
			e = end + 2 + p + k + len(close)
		}
		s.emit(String, start, e)
		return true
	}
	if q == '#' || len(w) > 3 || !s.t.prefixes[strings.ToLower(w)] {
		return false
	}
	if q == '\'' && f&fCharLit != 0 {
		return s.charLit(start, end)
	}
	for n := range s.l.strs {
		r := &s.l.strs[n]
		if strings.HasPrefix(src[end:], r.open) {
			s.emit(String, start, s.stringEnd(end+len(r.open), r))
			return true
		}
	}
	return false
}
