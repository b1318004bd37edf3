package highlight

// Helpers of the line-based formats, which read a line at a time.

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
