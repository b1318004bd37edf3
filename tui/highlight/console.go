package highlight

import "strings"

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
