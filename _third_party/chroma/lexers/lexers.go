package lexers

import (
	"embed"
	"io/fs"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

//go:embed embedded
var embedded embed.FS

// GlobalLexerRegistry is the global LexerRegistry of Lexers.
//
// tern: it is filled on first use (any function below), not when the package
// is initialised: parsing the embedded lexers took 13-17 ms of every start.
// Code that reads GlobalLexerRegistry directly must call one of them first.
var GlobalLexerRegistry = chroma.NewLexerRegistry()

var (
	loadMu   sync.Mutex
	loaded   bool
	pending  []chroma.Lexer // lexers defined in Go, registered after the embedded ones
	deferred []func()       // set-up that needs the filled registry, run last
)

// registry fills GlobalLexerRegistry once, in the order the upstream package
// initialisation used: embedded lexers, then those defined in Go, then the
// analysers set by init functions.
func registry() *chroma.LexerRegistry {
	loadMu.Lock()
	defer loadMu.Unlock()
	if loaded {
		return GlobalLexerRegistry
	}
	paths, err := fs.Glob(embedded, "embedded/*.xml")
	if err != nil {
		panic(err)
	}
	for _, path := range paths {
		GlobalLexerRegistry.Register(chroma.MustNewXMLLexer(embedded, path))
	}
	for _, lexer := range pending {
		GlobalLexerRegistry.Register(lexer)
	}
	for _, f := range deferred {
		f()
	}
	pending, deferred, loaded = nil, nil, true
	return GlobalLexerRegistry
}

// afterLoad runs f once the registry is filled (tern: what an init function
// did with the registry upstream).
func afterLoad(f func()) {
	loadMu.Lock()
	defer loadMu.Unlock()
	if loaded {
		f()
		return
	}
	deferred = append(deferred, f)
}

// Names of all lexers, optionally including aliases.
func Names(withAliases bool) []string {
	return registry().Names(withAliases)
}

// Get a Lexer by name, alias or file extension.
//
// Note that this if there isn't an exact match on name or alias, this will
// call Match(), so it is not efficient.
func Get(name string) chroma.Lexer {
	return registry().Get(name)
}

// MatchMimeType attempts to find a lexer for the given MIME type.
func MatchMimeType(mimeType string) chroma.Lexer {
	return registry().MatchMimeType(mimeType)
}

// Match returns the first lexer matching filename.
//
// Note that this iterates over all file patterns in all lexers, so it's not
// particularly efficient.
func Match(filename string) chroma.Lexer {
	return registry().Match(filename)
}

// Register a Lexer with the global registry.
func Register(lexer chroma.Lexer) chroma.Lexer {
	loadMu.Lock()
	defer loadMu.Unlock()
	if !loaded {
		pending = append(pending, lexer)
		return lexer
	}
	return GlobalLexerRegistry.Register(lexer)
}

// Analyse text content and return the "best" lexer..
func Analyse(text string) chroma.Lexer {
	return registry().Analyse(text)
}

// PlaintextRules is used for the fallback lexer as well as the explicit
// plaintext lexer.
func PlaintextRules() chroma.Rules {
	return chroma.Rules{
		"root": []chroma.Rule{
			{`.+`, chroma.Text, nil},
			{`\n`, chroma.Text, nil},
		},
	}
}

// Fallback lexer if no other is found.
var Fallback chroma.Lexer = chroma.MustNewLexer(&chroma.Config{
	Name:      "fallback",
	Filenames: []string{"*"},
	Priority:  -1,
}, PlaintextRules)
