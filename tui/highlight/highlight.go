// Package highlight splits source code into classes of token for the
// terminal to colour. Each language is static data whose tables are built on
// first use, so start-up costs nothing; scanning is linear, never backtracks.
package highlight

import "strings"

// Kind is the class of a token, which the renderer maps to a colour; the set
// is closed.
type Kind uint8

// The classes of token; Text is everything that gets no colour.
const (
	// Text is plain code: names, spaces and anything unclassified.
	Text Kind = iota
	// Keyword is a reserved word of the language (func, if, return).
	Keyword
	// Type is a built-in type or constant (int, string, true, nil, None).
	Type
	// Builtin is a built-in function or command (len, print, echo).
	Builtin
	// Name is a name being defined or called (a function's name).
	Name
	// String is a string, character or template literal.
	String
	// Number is a numeric literal.
	Number
	// Comment is a comment, including doc comments and shebang lines.
	Comment
	// Operator is an operator or punctuation that carries meaning (:=, =>, &&).
	Operator
	// Meta is a preprocessor line, decorator, attribute or annotation.
	Meta
	// Inserted is an added line of a diff.
	Inserted
	// Deleted is a removed line of a diff.
	Deleted
	// Heading is a diff's hunk or file header, or a heading in prose formats.
	Heading
)

// Token is a run of code of one class; concatenating the tokens of a block
// gives back its code exactly.
type Token struct {
	Kind Kind
	Text string
}

// Tokens splits code written in lang (a fence's info word: "go", "py",
// "typescript", "sh", "diff"; case does not matter) into tokens. A language
// it does not know gives a single Text token.
func Tokens(lang, code string) []Token {
	if code == "" {
		return nil
	}
	l := lookup(Lang(lang))
	if l == nil {
		return []Token{{Kind: Text, Text: code}}
	}
	return tokens(l, code)
}

// tokens splits code written in l.
func tokens(l *lang, code string) []Token {
	s := scanner{src: code, l: l, t: l.tables(), lineStart: true}
	// Dense code runs about 5 bytes a token; huge blocks grow as they go.
	s.toks = make([]Token, 0, min(len(code)/4+4, 1<<16))
	s.scan()
	return s.toks
}

// Known reports whether Tokens colours code in lang (an info string or a
// language name, alias or file extension).
func Known(lang string) bool {
	return lookup(Lang(lang)) != nil
}

// Lang returns the language word of a fence's info string, lower-cased and
// without decoration: "go" for "Go title=x", "python" for "{.python}",
// "rust" for "rust,ignore", "ts" for "language-ts". It does not resolve
// aliases; Tokens and Known do.
func Lang(info string) string {
	info = strings.TrimLeft(info, " \t{.")
	end := strings.IndexAny(info, " \t,{}:;=")
	if end >= 0 {
		info = info[:end]
	}
	info = strings.ToLower(info)
	info = strings.TrimPrefix(info, "language-")
	return strings.TrimPrefix(info, "lang-")
}
