package highlight

// Rests returns line starts p of code, in order, where scanning rests: no
// comment, string, heredoc or template is open across p, no decision before
// p looked past it and none after it looks back before it. So the tokens of
// code[:p] and of code[p:], scanned apart, are those of code scanned whole
// and cut at p (neighbours of the same kind may merge differently, which
// changes no line), and this holds for any text appended to code: a
// streaming renderer may highlight a long open block in pieces cut there.
// The table-driven languages report such points; a diff, coloured line by
// line, and a language it does not know (a single Text token) rest at every
// line start; the other formats report none. A point is reported only once
// the first bytes of its line are in.
func Rests(lang, code string) []int {
	l := lookup(Lang(lang))
	if l == nil || l.mode == diffMode {
		return lineStarts(code)
	}
	if l.mode != generic || code == "" {
		return nil
	}
	var rests []int
	s := scanner{src: code, l: l, t: l.tables(), lineStart: true, rests: &rests}
	s.toks = make([]Token, 0, min(len(code)/4+4, 1<<16))
	s.scan()
	return rests
}

// lineStarts returns the start of every line of code but the first, once
// a byte of it is in.
func lineStarts(code string) []int {
	var out []int
	for i := 0; i < len(code); i++ {
		if code[i] == '\n' && i+1 < len(code) {
			out = append(out, i+1)
		}
	}
	return out
}

// noteRest records s.pos, the start of a line, when scanning rests there
// (see Rests); only the outermost scanner of Rests records.
func (s *scanner) noteRest() {
	p := s.pos
	if s.rests == nil || p+2 > len(s.src) || len(s.braces) > 0 || len(s.heredocs) > 0 ||
		s.wantName || s.noRegex > p || s.cssEnd > p {
		return
	}
	if s.src[p] == '#' && s.src[p+1] == '!' {
		return // a shebang is a comment only at the very start
	}
	if s.l.flags&fRegex != 0 && !s.valueMayStart(p) {
		return // a "/" after p looks back past p for what came before it
	}
	*s.rests = append(*s.rests, p)
}
