package highlight

import "strings"

// yaml colours YAML: keys are Names, values are read as scalars, and block
// scalars (| and >) are Strings.
func (s *scanner) yaml() {
	src := s.src
	block := -1 // the indent a block scalar's lines must pass, or -1
	for s.pos < len(src) {
		i := s.pos
		e := s.lineEnd(i)
		end := s.trimCR(i, e)
		j := min(s.skipSpaces(i), end)
		if block >= 0 {
			if j == end || j-i > block {
				s.emit(String, i, end)
				s.nextLine(e)
				continue
			}
			block = -1
		}
		line := src[j:end]
		switch {
		case strings.HasPrefix(line, "#"):
			s.emit(Comment, j, end)
			s.nextLine(e)
			continue
		case j == i && (strings.HasPrefix(line, "---") || strings.HasPrefix(line, "...")):
			s.emit(Heading, j, j+3)
			j += 3
		case j == i && strings.HasPrefix(line, "%"):
			s.emit(Meta, j, end)
			s.nextLine(e)
			continue
		}
		indent := j - i
		for j < end && src[j] == '-' && (j+1 == end || src[j+1] == ' ') {
			s.emit(Operator, j, j+1)
			j = s.skipSpaces(j + 1)
			indent = j - i
		}
		if k := s.yamlKey(j, end); k > j {
			s.emit(Name, j, k)
			s.emit(Operator, k, k+1)
			j = k + 1
		}
		j = s.skipSpaces(j)
		for j < end && (src[j] == '&' || src[j] == '*' || src[j] == '!') {
			k := j + 1
			for k < end && src[k] != ' ' && src[k] != '\t' {
				k++
			}
			s.emit(Meta, j, k)
			j = s.skipSpaces(k)
		}
		if j < end && (src[j] == '|' || src[j] == '>') {
			k := j + 1
			for k < end && (src[k] == '-' || src[k] == '+' || isDigit(src[k])) {
				k++
			}
			if r := strings.TrimSpace(src[k:end]); r == "" || r[0] == '#' {
				block = indent
			}
		}
		s.sub(&yamlValue, j, e)
		s.nextLine(e)
	}
}

// yamlKey returns the end of the mapping key starting at i on a line that
// ends at e (the index of its ":"), or i when there is none.
func (s *scanner) yamlKey(i, e int) int {
	src := s.src
	j := i
	if j < e && (src[j] == '"' || src[j] == '\'') {
		k := strings.IndexByte(src[j+1:e], src[j])
		if k < 0 {
			return i
		}
		j += k + 2
	}
	for ; j < e; j++ {
		switch src[j] {
		case ':':
			if j+1 == e || src[j+1] == ' ' || src[j+1] == '\t' {
				if j == i {
					return i
				}
				return j
			}
		case '#':
			if j > i && (src[j-1] == ' ' || src[j-1] == '\t') {
				return i
			}
		case '{', '[', '"', '\'':
			if j == i {
				return i
			}
		}
	}
	return i
}
