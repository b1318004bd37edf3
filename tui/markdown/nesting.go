package markdown

import "strings"

// maxMarkers is the most container markers (">", "- ", "1. ") one line may
// open. goldmark parses nesting by recursion and in time that grows with
// the square of the depth: a megabyte of ">" would take minutes and could
// exhaust the stack, which no recover catches.
const maxMarkers = 64

// capNesting drops the container markers past maxMarkers at the start of
// each line outside code fences. It changes nothing a person would write,
// and it works line by line, so closed blocks still render the same apart as
// together.
func capNesting(src string) string {
	var b strings.Builder
	var fenceChar byte
	fenceLen := 0
	done := 0 // src[:done] is copied to b, or nothing is when b is empty
	for off := 0; off < len(src); {
		end := strings.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += off
		}
		line := src[off:end]
		if c, n := fence(line); n > 0 {
			switch {
			case fenceChar == 0:
				fenceChar, fenceLen = c, n
			case c == fenceChar && n >= fenceLen:
				fenceChar, fenceLen = 0, 0
			}
		} else if fenceChar == 0 {
			if cut, rest := markers(line); cut >= 0 {
				b.WriteString(src[done : off+cut])
				done = off + rest
			}
		}
		off = end + 1
	}
	if done == 0 {
		return src
	}
	b.WriteString(src[done:])
	return b.String()
}

// markers scans the container markers that start line. When there are more
// than maxMarkers it returns where the last one kept ends and where the
// markers end; otherwise -1, -1.
func markers(line string) (cut, rest int) {
	n, i, cut := 0, 0, -1
	for {
		j := i
		for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
			j++
		}
		k := marker(line, j)
		if k < 0 {
			break
		}
		n++
		if n == maxMarkers {
			cut = k
		}
		i = k
	}
	if n <= maxMarkers {
		return -1, -1
	}
	return cut, i
}

// marker returns where the container marker at line[i:] ends, or -1.
func marker(line string, i int) int {
	if i >= len(line) {
		return -1
	}
	spaceAfter := func(k int) bool { return k < len(line) && (line[k] == ' ' || line[k] == '\t') }
	switch c := line[i]; {
	case c == '>':
		return i + 1
	case c == '-' || c == '*' || c == '+':
		if spaceAfter(i + 1) {
			return i + 1
		}
	case c >= '0' && c <= '9':
		k := i
		for k < len(line) && k-i < 9 && line[k] >= '0' && line[k] <= '9' {
			k++
		}
		if k < len(line) && (line[k] == '.' || line[k] == ')') && spaceAfter(k+1) {
			return k + 1
		}
	}
	return -1
}
