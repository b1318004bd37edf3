package provider

import "strings"

// pieceKept is the size from which a piece of text is kept as it came
// rather than copied; smaller ones are gathered in a tail of at most
// tailSize bytes before they are kept together.
const (
	pieceKept = 256
	tailSize  = 4 << 10
)

// Pieces is streamed text kept as the pieces it arrived in, joined once,
// when the whole is asked for. A strings.Builder grows by doubling and
// copies the text at each step: a 62 KB answer allocated about 250 KB for
// each of its copies (the agent's, the session recorder's, the log
// writer's), and in a fresh process every page of that is touched for the
// first time, a page fault each (17 µs on a firecracker VM). Pieces keeps
// each large piece without a copy and gathers small ones in a bounded tail,
// so the text is copied once, into the string String returns, and not at
// all when nobody asks for it. The zero value is empty and ready to use.
type Pieces struct {
	parts []string
	tail  []byte // small pieces after parts
	n     int
}

// WriteString adds s to the end of the text. A piece of pieceKept bytes or
// more is kept as it is, and with it the memory it points into.
func (p *Pieces) WriteString(s string) {
	if s == "" {
		return
	}
	p.n += len(s)
	if len(s) < pieceKept && len(p.tail)+len(s) <= tailSize {
		p.tail = append(p.tail, s...)
		return
	}
	p.keepTail()
	if len(s) < pieceKept {
		p.tail = append(p.tail, s...)
		return
	}
	p.parts = append(p.parts, s)
}

// keepTail moves the gathered small pieces into parts.
func (p *Pieces) keepTail() {
	if len(p.tail) > 0 {
		p.parts = append(p.parts, string(p.tail))
		p.tail = p.tail[:0]
	}
}

// Len is the length of the text in bytes.
func (p *Pieces) Len() int { return p.n }

// String returns the whole text. It is joined at the first call and kept
// as one piece, so asking again copies nothing.
func (p *Pieces) String() string {
	p.keepTail()
	switch len(p.parts) {
	case 0:
		return ""
	case 1:
		return p.parts[0]
	}
	var b strings.Builder
	b.Grow(p.n)
	for _, s := range p.parts {
		b.WriteString(s)
	}
	clear(p.parts)
	p.parts = append(p.parts[:0], b.String())
	return p.parts[0]
}

// Reset empties the text, keeping the tail's buffer for what comes next.
func (p *Pieces) Reset() {
	clear(p.parts)
	p.parts, p.tail, p.n = p.parts[:0], p.tail[:0], 0
}
