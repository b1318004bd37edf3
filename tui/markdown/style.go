package markdown

import (
	"strconv"
	"strings"

	"github.com/ternhq/tern/tui/highlight"
)

// Style picks the palette a Renderer draws with.
type Style int

// The styles tern renders with; the set is closed.
const (
	// Dark suits terminals with a dark background.
	Dark Style = iota + 1
	// Light suits terminals with a light background.
	Light
	// Plain has no colours, for NO_COLOR: only bold, italic, underline
	// and strikethrough.
	Plain
)

// noColor marks an unset colour in a look.
const noColor = -1

// Attributes of a look, as a bit set.
const (
	bold uint8 = 1 << iota
	italic
	underline
	strike
	faint
)

// look is how a run of text is drawn: xterm 256-colour indexes, or noColor,
// and attributes.
type look struct {
	fg, bg int16
	attrs  uint8
}

// plainLook draws text as the terminal's default.
var plainLook = look{fg: noColor, bg: noColor}

// with returns l with the attributes a added.
func (l look) with(a uint8) look { l.attrs |= a; return l }

// over returns l drawn over base: l's colours where it has them, and the
// attributes of both.
func (l look) over(base look) look {
	if l.fg == noColor {
		l.fg = base.fg
	}
	if l.bg == noColor {
		l.bg = base.bg
	}
	l.attrs |= base.attrs
	return l
}

// sgr is the escape sequence that selects l from the default, or "" for it.
func (l look) sgr() string {
	var b strings.Builder
	l.writeSGR(&b)
	return b.String()
}

// writeSGR writes the escape sequence that selects l from the default, and
// nothing for the default itself, without allocating.
func (l look) writeSGR(b *strings.Builder) {
	if l == plainLook {
		return
	}
	var buf [48]byte
	out := append(buf[:0], "\x1b["...)
	sep := func() {
		if len(out) > 2 {
			out = append(out, ';')
		}
	}
	if l.fg != noColor {
		out = append(out, "38;5;"...)
		out = strconv.AppendInt(out, int64(l.fg), 10)
	}
	if l.bg != noColor {
		sep()
		out = append(out, "48;5;"...)
		out = strconv.AppendInt(out, int64(l.bg), 10)
	}
	for _, a := range [...]struct {
		bit  uint8
		code byte
	}{{bold, '1'}, {faint, '2'}, {italic, '3'}, {underline, '4'}, {strike, '9'}} {
		if l.attrs&a.bit != 0 {
			sep()
			out = append(out, a.code)
		}
	}
	b.Write(append(out, 'm'))
}

// palette is every look and decoration of one Style; the colours are those
// of glamour's dark and light styles, which tern drew with before.
type palette struct {
	text               look // body text
	heading, h1, h6    look
	link, linkText     look
	image, imageText   look
	code               look   // a code span
	codeOpen, codeEnd  string // drawn around a code span
	rule               look   // thematic breaks and table borders
	quote              look   // the quote bar
	quoteBar, quoteGap string // a quoted line's prefix, and a blank quoted line's
	colSep, rowSep     string // table column separator and header rule
	cross              string // where they meet
	ticked, unticked   string
	codeText           look // code block text without a class
	tokens             [highlight.Heading + 1]look
}

// c makes a look of colour fg.
func c(fg int16) look { return look{fg: fg, bg: noColor} }

// paletteOf returns the palette of s.
func paletteOf(s Style) *palette {
	switch s {
	case Dark:
		p := &palette{
			text: c(252), heading: c(39).with(bold), h1: look{fg: 228, bg: 63, attrs: bold}, h6: c(35),
			link: c(30).with(underline), linkText: c(35).with(bold),
			image: c(212).with(underline), imageText: c(243),
			code: look{fg: 203, bg: 236}, codeOpen: "\u00a0", codeEnd: "\u00a0",
			rule: c(240), quote: c(252), quoteBar: "│ ", quoteGap: "│",
			colSep: "│", rowSep: "─", cross: "┼", ticked: "[✓] ", unticked: "[ ] ",
			codeText: c(251),
		}
		p.tokens = codeLooks(251, 39, 62, 212, 42, 173, 85, 241, 210, 209, 42, 203, 243)
		return p
	case Light:
		p := &palette{
			text: c(234), heading: c(27).with(bold), h1: look{fg: 228, bg: 63, attrs: bold}, h6: c(27),
			link: c(36).with(underline), linkText: c(29).with(bold),
			image: c(205).with(underline), imageText: c(243),
			code: look{fg: 203, bg: 254}, codeOpen: "\u00a0", codeEnd: "\u00a0",
			rule: c(249), quote: c(234), quoteBar: "│ ", quoteGap: "│",
			colSep: "│", rowSep: "─", cross: "┼", ticked: "[✓] ", unticked: "[ ] ",
			codeText: c(235),
		}
		p.tokens = codeLooks(235, 39, 61, 19, 35, 95, 43, 245, 196, 209, 42, 203, 243)
		return p
	case Plain:
	}
	p := &palette{
		text: plainLook, heading: plainLook.with(bold), h1: plainLook.with(bold), h6: plainLook,
		link: plainLook.with(underline), linkText: plainLook.with(bold),
		image: plainLook.with(underline), imageText: plainLook,
		code: plainLook, codeOpen: "`", codeEnd: "`",
		rule: plainLook, quote: plainLook, quoteBar: "| ", quoteGap: "|",
		colSep: "|", rowSep: "-", cross: "|", ticked: "[x] ", unticked: "[ ] ",
		codeText: plainLook,
	}
	for k := range p.tokens {
		p.tokens[k] = plainLook
	}
	return p
}

// codeLooks lists the colours of code by class, in the order of
// highlight's kinds: text, keyword, type, builtin, name, string, number,
// comment, operator, meta, inserted, deleted, heading.
func codeLooks(cols ...int16) [highlight.Heading + 1]look {
	var out [highlight.Heading + 1]look
	for k := range out {
		out[k] = c(cols[k])
	}
	return out
}

// tokenLook is the look of code of kind k.
func (p *palette) tokenLook(k highlight.Kind) look {
	switch k {
	case highlight.Text, highlight.Keyword, highlight.Type, highlight.Builtin, highlight.Name,
		highlight.String, highlight.Number, highlight.Comment, highlight.Operator, highlight.Meta,
		highlight.Inserted, highlight.Deleted, highlight.Heading:
		return p.tokens[k]
	}
	return p.codeText
}
