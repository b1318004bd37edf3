package highlight

import "strings"

// cssWord classifies a CSS name that is not a known word and ends at end:
// a tag in a selector, a property in a declaration, a negative number.
func (s *scanner) cssWord(end int) Kind {
	w := s.src[s.pos:end]
	switch {
	case len(w) > 1 && w[0] == '-' && (isDigit(w[1]) || w[1] == '.'):
		return Number
	case s.cssSelector():
		if w[0] == '-' {
			return Text
		}
		return Keyword
	case s.colonFollows(end):
		return Builtin
	}
	return Text
}

// cssSelector reports whether s.pos is in a selector rather than a
// declaration: whether the statement it is in ends with "{". The answer is
// kept until the statement ends, so each statement is looked ahead once.
func (s *scanner) cssSelector() bool {
	if s.pos >= s.cssEnd {
		k := strings.IndexAny(s.src[s.pos:], "{;}")
		if k < 0 {
			s.cssEnd = len(s.src)
			s.cssSel = false
		} else {
			s.cssEnd = s.pos + k + 1
			s.cssSel = s.src[s.pos+k] == '{'
		}
	}
	return s.cssSel
}

// cssMark reads "#id", ".class" and ":hover" in a selector and "#fff" in a
// declaration; it reports whether it emitted a token.
func (s *scanner) cssMark(c byte) bool {
	i := s.pos
	j := i + 1
	if c == ':' && j < len(s.src) && s.src[j] == ':' {
		j++
	}
	e := s.identEnd(j)
	if e == j {
		return false
	}
	sel := s.cssSelector()
	switch {
	case sel && c == ':':
		s.emit(Meta, i, e)
	case sel:
		s.emit(Name, i, e)
	case c == '#':
		s.emit(Number, i, e)
	default:
		return false
	}
	return true
}
