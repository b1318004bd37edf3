package highlight

import "strings"

// Heredocs: <<WORD opens a body that starts on the next line.

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
