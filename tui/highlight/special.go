package highlight

import "strings"

// The dispatch of the generic scanner's specials: comments, strings and
// the marks particular to a language.

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
