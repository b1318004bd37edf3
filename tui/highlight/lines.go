package highlight

import "strings"

// The line-based formats: diff, console sessions, Markdown, Dockerfiles and
// YAML, read a line at a time.

// nextLine moves s.pos past the newline ending at e.
func (s *scanner) nextLine(e int) {
	s.pos = min(e+1, len(s.src))
	s.lineStart = true
}

// trimCR returns the end of the line from i to e without a trailing "\r".
func (s *scanner) trimCR(i, e int) int {
	if e > i && s.src[e-1] == '\r' {
		return e - 1
	}
	return e
}

// diff colours a unified (or normal) diff by the start of each line.
func (s *scanner) diff() {
	src := s.src
	for s.pos < len(src) {
		i := s.pos
		e := s.lineEnd(i)
		line := src[i:e]
		k := Text
		switch {
		case strings.HasPrefix(line, "+++ "), strings.HasPrefix(line, "--- "), line == "+++", line == "---",
			strings.HasPrefix(line, "@@"), strings.HasPrefix(line, "diff "), strings.HasPrefix(line, "index "),
			strings.HasPrefix(line, "new file mode"), strings.HasPrefix(line, "deleted file mode"),
			strings.HasPrefix(line, "*** "):
			k = Heading
		case strings.HasPrefix(line, "+"), strings.HasPrefix(line, ">"):
			k = Inserted
		case strings.HasPrefix(line, "-"), strings.HasPrefix(line, "<"):
			k = Deleted
		}
		s.emit(k, i, s.trimCR(i, e))
		s.nextLine(e)
	}
}

// promptEnd returns the end of a shell prompt opening the line at i ("$ ",
// "user@host:~/src$ ", "# ", "% ", "> "), or -1.
func (s *scanner) promptEnd(i, e int) int {
	src := s.src
	if strings.HasPrefix(src[i:e], "PS ") { // PowerShell: "PS C:\src> "
		if k := strings.Index(src[i:min(e, i+80)], "> "); k >= 0 {
			return i + k + 2
		}
	}
	for j := i; j < e && j < i+80; j++ {
		switch src[j] {
		case '$', '#', '%', '>':
			if j+1 == e || src[j+1] == ' ' {
				return min(j+2, e)
			}
		case ' ', '\t':
			return -1
		}
	}
	return -1
}

// console colours a terminal session: prompts are Meta, the commands after
// them shell, and their output plain.
func (s *scanner) console() {
	src := s.src
	more := false // the last command line ended in a backslash
	for s.pos < len(src) {
		i := s.pos
		e := s.lineEnd(i)
		cmd := i
		if !more {
			p := s.promptEnd(i, e)
			if p < 0 {
				s.nextLine(e)
				continue
			}
			s.emit(Meta, i, p)
			cmd = p
		}
		end := s.trimCR(i, e)
		more = end > cmd && src[end-1] == '\\'
		s.sub(&bashLang, cmd, e)
		s.nextLine(e)
	}
}

// dockerfile colours a Dockerfile: instructions are keywords, comments are
// whole lines, and the rest of each line is shell.
func (s *scanner) dockerfile() {
	src := s.src
	for s.pos < len(src) {
		i := s.skipSpaces(s.pos)
		e := s.lineEnd(i)
		if i < e && src[i] == '#' {
			s.emit(Comment, i, s.trimCR(i, e))
			s.nextLine(e)
			continue
		}
		j := i
		for j < e && (src[j]|0x20 >= 'a' && src[j]|0x20 <= 'z') {
			j++
		}
		if dockerInstruction(src[i:j]) {
			s.emit(Keyword, i, j)
		} else {
			j = i
		}
		s.sub(&bashLang, j, e)
		s.nextLine(e)
	}
}

// dockerInstruction reports whether w is a Dockerfile instruction, in any
// case.
func dockerInstruction(w string) bool {
	if len(w) < 3 || len(w) > 11 {
		return false
	}
	var buf [11]byte
	for i := 0; i < len(w); i++ {
		buf[i] = w[i] &^ 0x20
	}
	switch string(buf[:len(w)]) {
	case "FROM", "RUN", "CMD", "LABEL", "EXPOSE", "ENV", "ADD", "COPY", "ENTRYPOINT", "VOLUME",
		"USER", "WORKDIR", "ARG", "ONBUILD", "STOPSIGNAL", "HEALTHCHECK", "SHELL", "MAINTAINER":
		return true
	}
	return false
}

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
