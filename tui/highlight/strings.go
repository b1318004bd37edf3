package highlight

import (
	"strings"
	"unicode/utf8"
)

// String and comment literals: quoted, raw, long-bracket and indented
// strings, character literals, and block comments that may nest.

// stringEnd returns the end of a string of rule r whose body starts at j.
func (s *scanner) stringEnd(j int, r *strRule) int {
	src := s.src
	for j < len(src) {
		c := src[j]
		switch {
		case c == r.esc && r.esc != 0:
			j += 2
			continue
		case c == '\n' && !r.multi:
			return j
		case c == r.close[0] && strings.HasPrefix(src[j:], r.close):
			j += len(r.close)
			if r.double && strings.HasPrefix(src[j:], r.close) {
				j += len(r.close)
				continue
			}
			return j
		}
		j++
	}
	return len(src)
}

// blockEnd returns the end of the block comment opening at i.
func (s *scanner) blockEnd(i int, p pair) int {
	src := s.src
	j := i + len(p.open)
	if !s.l.nest {
		if k := strings.Index(src[j:], p.close); k >= 0 {
			return j + k + len(p.close)
		}
		return len(src)
	}
	depth := 1
	for j < len(src) {
		switch {
		case strings.HasPrefix(src[j:], p.close):
			j += len(p.close)
			depth--
			if depth == 0 {
				return j
			}
		case strings.HasPrefix(src[j:], p.open):
			j += len(p.open)
			depth++
		default:
			j++
		}
	}
	return len(src)
}

// charLit reads a character literal whose quote is at q and which starts
// at start (before a prefix such as Rust's b), or a lifetime or label.
func (s *scanner) charLit(start, q int) bool {
	src := s.src
	i := start
	j := q + 1
	if j >= len(src) {
		return false
	}
	switch c := src[j]; {
	case c == '\\':
		for k := j + 1; k < len(src) && k < j+12 && src[k] != '\n'; k++ {
			if src[k] == '\'' && k > j+1 {
				s.emit(String, i, k+1)
				return true
			}
		}
	case c != '\'' && c != '\n':
		_, size := utf8.DecodeRuneInString(src[j:])
		if k := j + size; k < len(src) && src[k] == '\'' {
			s.emit(String, i, k+1)
			return true
		}
	}
	if s.t.class[src[j]]&cIdentStart != 0 && start == q {
		s.emit(Meta, i, s.identEnd(j))
		return true
	}
	return false
}

// longBracket returns the end of a Lua long bracket opening at i
// ("[[" or "[==["), or 0 when there is none.
func (s *scanner) longBracket(i int) int {
	src := s.src
	if i >= len(src) || src[i] != '[' {
		return 0
	}
	j := i + 1
	for j < len(src) && src[j] == '=' {
		j++
	}
	if j >= len(src) || src[j] != '[' {
		return 0
	}
	level := j - i - 1
	for k := j + 1; k < len(src); k++ {
		if src[k] != ']' {
			continue
		}
		m := k + 1
		for m < len(src) && src[m] == '=' && m-k-1 < level {
			m++
		}
		if m-k-1 == level && m < len(src) && src[m] == ']' {
			return m + 1
		}
	}
	return len(src)
}

// nixStringEnd returns the end of the Nix indented string opening at i.
func (s *scanner) nixStringEnd(i int) int {
	src := s.src
	j := i + 2
	for {
		k := strings.Index(src[j:], "''")
		if k < 0 {
			return len(src)
		}
		p := j + k
		if p+2 < len(src) && (src[p+2] == '\'' || src[p+2] == '$' || src[p+2] == '\\') {
			j = p + 3
			continue
		}
		return p + 2
	}
}

// prefixedString reads a string whose quote follows the name at
// start:end (r"..", b'..', f"..", R"x(..)x", r#".."#); it reports whether
// it did.
func (s *scanner) prefixedString(start, end int) bool {
	src := s.src
	w := src[start:end]
	q := src[end]
	f := s.l.flags
	if f&fRustRaw != 0 && (w == "r" || w == "br" || w == "cr") {
		j := end
		for j < len(src) && src[j] == '#' {
			j++
		}
		if j >= len(src) || src[j] != '"' {
			return false
		}
		close := `"` + src[end:j]
		k := strings.Index(src[j+1:], close)
		e := len(src)
		if k >= 0 {
			e = j + 1 + k + len(close)
		}
		s.emit(String, start, e)
		return true
	}
	if f&fCppRaw != 0 && q == '"' && strings.HasSuffix(w, "R") && len(w) <= 3 {
		p := strings.IndexByte(src[end+1:min(len(src), end+18)], '(')
		if p < 0 {
			return false
		}
		delim := src[end+1 : end+1+p]
		if strings.ContainsAny(delim, " \\)\t\n") {
			return false
		}
		close := ")" + delim + `"`
		k := strings.Index(src[end+2+p:], close)
		e := len(src)
		if k >= 0 {
			e = end + 2 + p + k + len(close)
		}
		s.emit(String, start, e)
		return true
	}
	if q == '#' || len(w) > 3 || !s.t.prefixes[strings.ToLower(w)] {
		return false
	}
	if q == '\'' && f&fCharLit != 0 {
		return s.charLit(start, end)
	}
	for n := range s.l.strs {
		r := &s.l.strs[n]
		if strings.HasPrefix(src[end:], r.open) {
			s.emit(String, start, s.stringEnd(end+len(r.open), r))
			return true
		}
	}
	return false
}
