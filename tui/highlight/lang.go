package highlight

import (
	"sort"
	"strings"
	"sync"
)

// flag turns on one feature of the generic scanner for a language.
type flag uint32

const (
	// fCallName marks a plain name followed by "(" as Name.
	fCallName flag = 1 << iota
	// fHashMeta reads "#word" at the start of a line as a preprocessor
	// directive; after #include and #import the rest of the line is a String.
	fHashMeta
	// fAtMeta reads "@name" (dots allowed) as Meta: decorators, annotations.
	fAtMeta
	// fAtBuiltin reads "@name" as Builtin (Zig's @import).
	fAtBuiltin
	// fRustAttr reads "#[...]" and "#![...]" as Meta.
	fRustAttr
	// fDollarVar reads "$name", "${...}", "$1" and "$@" as Name.
	fDollarVar
	// fShell makes words shell words: "#" starts a comment only at the
	// start of a word, words may hold - . / and the like, and a word of
	// digits only is a Number.
	fShell
	// fHeredoc reads "<<WORD" (and <<-, <<~, <<<, quoted words) heredocs,
	// whose body lines are a String.
	fHeredoc
	// fCharLit reads 'x' and '\n' as String and anything else after a lone
	// quote (a Rust lifetime, a Haskell prime) as Meta or Text.
	fCharLit
	// fSymbol reads ":name" as String (Ruby symbols, Elixir atoms).
	fSymbol
	// fKeyName makes a string or name followed by ":" a Name (JSON keys).
	fKeyName
	// fLineKey makes the first name of a line a Name when "=" or ":"
	// follows it (TOML, INI, HCL, Makefile variables and targets).
	fLineKey
	// fSection makes a line starting with "[" a Heading (TOML, INI).
	fSection
	// fBracketAttr makes a line starting with "[" Meta up to its "]" (C#
	// attributes).
	fBracketAttr
	// fRustRaw reads r"..." and r#"..."# raw strings.
	fRustRaw
	// fCppRaw reads R"delim(...)delim" raw strings.
	fCppRaw
	// fLuaLong reads [[...]] and [==[...]==] strings and --[[...]] comments.
	fLuaLong
	// fUpperType marks names that start with a capital letter as Type.
	fUpperType
	// fCaseFold matches keywords without regard to case (SQL).
	fCaseFold
	// fCSS colours selectors, properties and #colours.
	fCSS
	// fZigLine reads Zig's \\ multi-line string lines as String.
	fZigLine
	// fNixStr reads Nix's ''...'' indented strings.
	fNixStr
	// fRegex reads /.../flags regular expressions where a value may start
	// (JavaScript).
	fRegex
	// fMacroBang makes a "!" right after a name part of it (Rust macros).
	fMacroBang
	// fTemplate reads `...` template literals whose ${...} parts are
	// scanned as code (JavaScript).
	fTemplate
	// fSpacedComment starts a line comment only at the start of a word
	// (YAML's "a#b" is no comment).
	fSpacedComment
	// fSignedNum reads a "-" before a digit as part of the number (data
	// formats, where "-" is no operator).
	fSignedNum
	// fMakeVar reads "$(...)" as one variable reference (Makefile).
	fMakeVar
)

// mode is a scanner of its own for a format the generic scanner does not
// fit.
type mode uint8

const (
	generic mode = iota
	diffMode
	consoleMode
	markdownMode
	dockerMode
	yamlMode
	markupMode
)

// pair is an opening and closing delimiter.
type pair struct{ open, close string }

// strRule is one kind of string literal.
type strRule struct {
	open, close string
	// esc is the escape character, 0 for none.
	esc byte
	// multi lets the string run over newlines; otherwise an unterminated
	// string ends at the end of its line.
	multi bool
	// double lets a doubled closing delimiter stand for itself ('it''s').
	double bool
}

// lang is the static description of a language. It is plain data so that
// declaring it costs nothing at start-up; tables are built on first use.
type lang struct {
	lineComments  []string
	blockComments []pair
	// nest lets block comments nest (Rust, Haskell, Swift...).
	nest bool
	// strs are tried in order, so longer openings come first.
	strs []strRule
	// strPrefixes are names that may stand just before a string's quote
	// and belong to it (Python's r, b, f), space separated, any case.
	strPrefixes string
	// keywords, types and builtins are space-separated word lists.
	keywords, types, builtins string
	// defs are keywords after which the next name is defined (a Name).
	defs string
	// ops are the multi-character operators, space separated.
	ops string
	// opChars are the single characters that are an Operator.
	opChars string
	// identStart and identPart are the characters besides letters, digits
	// (part only), "_" and non-ASCII bytes that make up a name.
	identStart, identPart string
	flags                 flag
	// mode, when set, replaces the generic scanner (line-based formats).
	mode mode

	once sync.Once
	tab  *tables
}

// Byte classes of tables.class.
const (
	cIdentStart uint8 = 1 << iota
	cIdentPart
	cSpecial
	cOp
	cOpChar
	cDigit
)

// word is what tables know about a word.
type word struct {
	kind Kind
	def  bool
}

// tables are a language's compiled lookup tables.
type tables struct {
	class    [256]uint8
	words    map[string]word
	prefixes map[string]bool
	ops      [256][]string
}

// tables returns the language's tables, building them on first use; it is
// safe for concurrent use.
func (l *lang) tables() *tables {
	l.once.Do(func() { l.tab = l.compile() })
	return l.tab
}

// compile builds the tables from the description.
func (l *lang) compile() *tables {
	t := &tables{words: map[string]word{}, prefixes: map[string]bool{}}
	fold := l.flags&fCaseFold != 0
	add := func(list string, k Kind) {
		for _, w := range strings.Fields(list) {
			if fold {
				w = strings.ToLower(w)
			}
			t.words[w] = word{kind: k, def: t.words[w].def}
		}
	}
	add(l.keywords, Keyword)
	add(l.types, Type)
	add(l.builtins, Builtin)
	for _, w := range strings.Fields(l.defs) {
		if fold {
			w = strings.ToLower(w)
		}
		e, ok := t.words[w]
		if !ok {
			e.kind = Keyword
		}
		e.def = true
		t.words[w] = e
	}
	for _, p := range strings.Fields(l.strPrefixes) {
		t.prefixes[strings.ToLower(p)] = true
	}
	for c := 0; c < 256; c++ {
		b := byte(c)
		switch {
		case b >= 'a' && b <= 'z', b >= 'A' && b <= 'Z', b == '_', b >= 0x80:
			t.class[c] |= cIdentStart | cIdentPart
		case b >= '0' && b <= '9':
			t.class[c] |= cIdentPart | cDigit
		}
	}
	for i := 0; i < len(l.identStart); i++ {
		t.class[l.identStart[i]] |= cIdentStart | cIdentPart
	}
	for i := 0; i < len(l.identPart); i++ {
		t.class[l.identPart[i]] |= cIdentPart
	}
	ops := strings.Fields(l.ops)
	sort.SliceStable(ops, func(i, j int) bool { return len(ops[i]) > len(ops[j]) })
	for _, op := range ops {
		t.ops[op[0]] = append(t.ops[op[0]], op)
		t.class[op[0]] |= cOp
	}
	for i := 0; i < len(l.opChars); i++ {
		t.class[l.opChars[i]] |= cOp | cOpChar
	}
	special := func(s string) {
		if s != "" {
			t.class[s[0]] |= cSpecial
		}
	}
	for _, c := range l.lineComments {
		special(c)
	}
	for _, c := range l.blockComments {
		special(c.open)
	}
	for _, r := range l.strs {
		special(r.open)
	}
	special("#") // shebang lines, directives, attributes
	f := l.flags
	if f&(fAtMeta|fAtBuiltin) != 0 {
		special("@")
	}
	if f&fDollarVar != 0 {
		special("$")
	}
	if f&fHeredoc != 0 {
		special("<")
	}
	if f&(fCharLit|fNixStr) != 0 {
		special("'")
	}
	if f&fSymbol != 0 {
		special(":")
	}
	if f&(fSection|fLuaLong|fBracketAttr) != 0 {
		special("[")
	}
	if f&fTemplate != 0 {
		special("`")
	}
	if f&fZigLine != 0 {
		special("\\")
	}
	if f&fCSS != 0 {
		for _, c := range "#.:" {
			t.class[c] |= cSpecial
		}
	}
	return t
}
