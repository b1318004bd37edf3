package highlight

// cssWord classifies a CSS name that is not a known word and ends at end:
// a property inside braces, a tag in a selector outside, a negative number.
func (s *scanner) cssWord(end int) Kind {
	w := s.src[s.pos:end]
	switch {
	case len(w) > 1 && w[0] == '-' && (isDigit(w[1]) || w[1] == '.'):
		return Number
	case s.depth > 0 && s.colonFollows(end):
		return Builtin
	case s.depth == 0 && w[0] != '-':
		return Keyword
	}
	return Text
}
