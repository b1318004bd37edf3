package highlight

import "strings"

// markup colours HTML, XML and SVG: tags, attributes, comments, entities,
// and the code inside <script> and <style>.
func (s *scanner) markup() {
	src := s.src
	for s.pos < len(src) {
		k := strings.IndexAny(src[s.pos:], "<&")
		if k < 0 {
			s.pos = len(src)
			return
		}
		p := s.pos + k
		rest := src[p:]
		switch {
		case rest[0] == '&':
			j := p + 1
			for j < len(src) && j < p+32 && (src[j] == '#' || isDigit(src[j]) || src[j]|0x20 >= 'a' && src[j]|0x20 <= 'z') {
				j++
			}
			if j < len(src) && src[j] == ';' && j > p+1 {
				s.emit(Type, p, j+1)
			} else {
				s.pos = p + 1
			}
		case strings.HasPrefix(rest, "<!--"):
			s.emit(Comment, p, s.until(p+4, "-->"))
		case strings.HasPrefix(rest, "<![CDATA["):
			s.emit(String, p, s.until(p+9, "]]>"))
		case strings.HasPrefix(rest, "<!"), strings.HasPrefix(rest, "<?"):
			s.emit(Meta, p, s.until(p+2, ">"))
		case len(rest) > 1 && (isTagStart(rest[1]) || rest[1] == '/' && len(rest) > 2 && isTagStart(rest[2])):
			s.tag(p)
		default:
			s.pos = p + 1
		}
	}
}

func isTagStart(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isTagPart(c byte) bool {
	return isTagStart(c) || isDigit(c) || c == '-' || c == ':' || c == '_' || c == '.'
}

// until returns the end of the first close at or after i, or the end.
func (s *scanner) until(i int, close string) int {
	if k := strings.Index(s.src[i:], close); k >= 0 {
		return i + k + len(close)
	}
	return len(s.src)
}

// tag reads a tag opening at p, with its attributes.
func (s *scanner) tag(p int) {
	src := s.src
	j := p + 1
	closing := src[j] == '/'
	if closing {
		j++
	}
	n := j
	for n < len(src) && isTagPart(src[n]) {
		n++
	}
	name := src[j:n]
	s.emit(Keyword, p, n)
	j = n
	for j < len(src) {
		c := src[j]
		switch {
		case c == '>':
			s.emit(Keyword, j, j+1)
			if !closing && (strings.EqualFold(name, "script") || strings.EqualFold(name, "style")) {
				s.embedded(name, j+1)
			}
			return
		case c == '/' && j+1 < len(src) && src[j+1] == '>':
			s.emit(Keyword, j, j+2)
			return
		case c == '=':
			s.emit(Operator, j, j+1)
			v := j + 1
			for v < len(src) && isSpace(src[v]) {
				v++
			}
			switch {
			case v < len(src) && (src[v] == '"' || src[v] == '\''):
				s.emit(String, v, s.until(v+1, src[v:v+1]))
			default:
				e := v
				for e < len(src) && !isSpace(src[e]) && src[e] != '>' && src[e] != '\n' {
					e++
				}
				s.emit(String, v, e)
			}
			j = max(s.pos, v)
		case c == '<':
			return // a tag left open; the next one starts here
		case isSpace(c) || c == '\n' || c == '/':
			j++
		default:
			e := j
			for e < len(src) && !isSpace(src[e]) && src[e] != '\n' && src[e] != '=' && src[e] != '>' && src[e] != '/' && src[e] != '<' {
				e++
			}
			s.emit(Name, j, max(e, j+1))
			j = max(e, j+1)
		}
	}
	s.pos = len(src)
}

// embedded scans the body of a <script> or <style> element starting at i
// as JavaScript or CSS, up to its closing tag.
func (s *scanner) embedded(name string, i int) {
	src := s.src
	end := len(src)
	for k := i; k < len(src); {
		m := strings.Index(src[k:], "</")
		if m < 0 {
			break
		}
		k += m + 2
		if len(src)-k >= len(name) && strings.EqualFold(src[k:k+len(name)], name) {
			end = k - 2
			break
		}
	}
	l := &jsLang
	if strings.EqualFold(name, "style") {
		l = &cssLang
	}
	if end > i {
		s.sub(l, i, end)
	}
}
