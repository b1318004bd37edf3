package highlight

import "strings"

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
