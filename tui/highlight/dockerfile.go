package highlight

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
