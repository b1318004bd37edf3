package highlight

// template reads a template literal's text from i (its start is start, the
// backtick or the "}" that ends a ${...} part) up to its closing backtick,
// or up to and including the next "${", after which the generic scanner
// reads the code inside and brace resumes the text at its "}".
func (s *scanner) template(start, i int) {
	src := s.src
	for i < len(src) {
		switch src[i] {
		case '\\':
			i += 2
			continue
		case '`':
			s.emit(String, start, i+1)
			return
		case '$':
			if i+1 < len(src) && src[i+1] == '{' {
				s.emit(String, start, i+2)
				s.braces = append(s.braces, 0)
				return
			}
		}
		i++
	}
	s.emit(String, start, len(src))
}

// brace counts a brace inside a template literal's ${...}; the "}" that
// closes it goes back to the literal's text.
func (s *scanner) brace(c byte) {
	top := len(s.braces) - 1
	switch {
	case c == '{':
		s.braces[top]++
		s.pos++
	case s.braces[top] > 0:
		s.braces[top]--
		s.pos++
	default:
		s.braces = s.braces[:top]
		s.template(s.pos, s.pos+1)
	}
	s.lineStart = false
}
