package highlight

import "strings"

// regex reads a JavaScript regular expression literal at s.pos when a
// value may stand there (not after a name, number or closing bracket); it
// reports whether it emitted one. A "/" that finds no end on its line turns
// the guess off for the rest of the line, which keeps scanning linear.
func (s *scanner) regex() bool {
	src := s.src
	i := s.pos
	if i < s.noRegex || !s.valueMayStart(i) {
		return false
	}
	inClass := false
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '\n':
			s.noRegex = j
			return false
		case '[':
			inClass = true
		case ']':
			inClass = false
		case '/':
			if inClass {
				continue
			}
			if j == i+1 {
				return false
			}
			e := j + 1
			for e < len(src) && src[e]|0x20 >= 'a' && src[e]|0x20 <= 'z' {
				e++
			}
			s.emit(String, i, e)
			return true
		}
	}
	s.noRegex = len(src)
	return false
}

// valueMayStart reports whether an operand may start at i: what stands
// before it (spaces aside) is an operator, an opening bracket, a keyword
// such as return, or nothing.
func (s *scanner) valueMayStart(i int) bool {
	src := s.src
	j := i - 1
	for j >= 0 && (isSpace(src[j]) || src[j] == '\n') {
		j--
	}
	if j < 0 {
		return true
	}
	c := src[j]
	switch {
	case c == ')' || c == ']' || c == '}' || c == '"' || c == '\'' || c == '`' || c == '<':
		return false // "<" too: "</div>" closes a JSX element
	case s.t.class[c]&cIdentPart != 0:
		k := j
		for k >= 0 && s.t.class[src[k]]&cIdentPart != 0 && j-k < 16 {
			k--
		}
		switch src[k+1 : j+1] {
		case "return", "typeof", "case", "in", "of", "delete", "void", "throw", "new", "yield", "await", "instanceof", "else", "do":
			return true
		}
		return false
	}
	return !strings.ContainsRune("+-", rune(c)) || j == 0 || src[j-1] != c
}
