package highlight

import "strings"

// markdown colours Markdown lightly: headings, fences (their code in its
// own language), quotes, list markers, code spans and strong emphasis.
func (s *scanner) markdown() {
	src := s.src
	for s.pos < len(src) {
		i := s.pos
		e := s.lineEnd(i)
		j := s.skipSpaces(i)
		line := src[j:s.trimCR(j, e)]
		switch {
		case strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~"):
			s.fence(j, e)
			continue
		case strings.HasPrefix(line, "#"):
			n := len(line) - len(strings.TrimLeft(line, "#"))
			if n <= 6 && (n == len(line) || line[n] == ' ' || line[n] == '\t') {
				s.emit(Heading, j, j+len(line))
				s.nextLine(e)
				continue
			}
		case line != "" && strings.Trim(line, "=") == "", len(line) >= 3 && strings.Trim(line, "-") == "":
			s.emit(Heading, j, j+len(line))
			s.nextLine(e)
			continue
		case strings.HasPrefix(line, ">"):
			s.emit(Comment, j, j+len(line))
			s.nextLine(e)
			continue
		case strings.HasPrefix(line, "- "), strings.HasPrefix(line, "* "), strings.HasPrefix(line, "+ "):
			s.emit(Operator, j, j+1)
			j++
		default:
			d := j
			for d < e && isDigit(src[d]) {
				d++
			}
			if d > j && d+1 < e && (src[d] == '.' || src[d] == ')') && src[d+1] == ' ' {
				s.emit(Operator, j, d+1)
				j = d + 1
			}
		}
		s.inline(j, s.trimCR(j, e))
		s.nextLine(e)
	}
}

// fence reads a fenced code block opening at i on the line ending at e,
// scanning its body in the language its info string names.
func (s *scanner) fence(i, e int) {
	src := s.src
	mark := src[i]
	n := i
	for n < e && src[n] == mark {
		n++
	}
	marker := src[i:n]
	l := lookup(Lang(strings.TrimSpace(src[n:e])))
	s.emit(String, i, s.trimCR(i, e))
	body := min(e+1, len(src))
	k := body
	for k < len(src) {
		le := s.lineEnd(k)
		t := strings.TrimRight(strings.TrimLeft(src[k:le], " \t"), " \t\r")
		if strings.HasPrefix(t, marker) && strings.Trim(t, marker[:1]) == "" {
			break
		}
		k = min(le+1, len(src))
	}
	switch {
	case l == nil || l == &markdownLang:
		s.emit(String, body, k)
	case k > body:
		s.sub(l, body, k)
	}
	if k >= len(src) {
		s.pos = len(src)
		return
	}
	le := s.lineEnd(k)
	s.emit(String, k, s.trimCR(k, le))
	s.nextLine(le)
}

// inline colours code spans and **strong** text in src[i:e].
func (s *scanner) inline(i, e int) {
	src := s.src
	noStrong := false
	// next[n] is where the next run of n backticks starts, for runs found
	// so far from the right; computed lazily for the line.
	var runs map[int][]int
	for j := i; j < e; {
		switch {
		case src[j] == '`':
			r := j
			for r < e && src[r] == '`' {
				r++
			}
			if runs == nil {
				runs = backtickRuns(src[:e], r)
			}
			n := r - j
			ends := runs[n]
			for len(ends) > 0 && ends[0] < r {
				ends = ends[1:]
			}
			if len(ends) == 0 {
				runs[n] = nil
				j = r
				continue
			}
			runs[n] = ends[1:]
			s.emit(String, j, ends[0]+n)
			j = ends[0] + n
		case !noStrong && j+1 < e && (src[j] == '*' || src[j] == '_') && src[j+1] == src[j]:
			k := strings.Index(src[j+2:e], src[j:j+2])
			if k <= 0 {
				if k < 0 {
					noStrong = true
				}
				j += 2
				continue
			}
			s.emit(Keyword, j, j+2+k+2)
			j += 2 + k + 2
		default:
			j++
		}
	}
}

// backtickRuns maps each length of backtick run in src from i on to where
// such runs start, in order.
func backtickRuns(src string, i int) map[int][]int {
	runs := map[int][]int{}
	for i < len(src) {
		if src[i] != '`' {
			i++
			continue
		}
		r := i
		for r < len(src) && src[r] == '`' {
			r++
		}
		runs[r-i] = append(runs[r-i], i)
		i = r
	}
	return runs
}
