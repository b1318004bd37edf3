package highlight

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// languages names one alias of every language, for the tests that run over
// all of them.
var languages = []string{
	"go", "python", "javascript", "typescript", "rust", "c", "cpp", "java", "kotlin",
	"csharp", "swift", "ruby", "php", "bash", "console", "json", "yaml", "toml", "ini",
	"sql", "html", "css", "scss", "lua", "dockerfile", "makefile", "diff", "markdown",
	"protobuf", "graphql", "dart", "scala", "haskell", "elixir", "r", "zig", "nix", "hcl",
	"powershell", "cmake", "perl", "julia",
}

// checkTokens fails unless toks concatenate to code, none is empty and no
// two neighbours have the same kind.
func checkTokens(t testing.TB, lang, code string, toks []Token) {
	t.Helper()
	var b strings.Builder
	for i, tok := range toks {
		if tok.Text == "" {
			t.Fatalf("%s: token %d is empty", lang, i)
		}
		if i > 0 && toks[i-1].Kind == tok.Kind {
			t.Fatalf("%s: tokens %d and %d have the same kind %d", lang, i-1, i, tok.Kind)
		}
		b.WriteString(tok.Text)
	}
	if b.String() != code {
		t.Fatalf("%s: tokens do not give back the code:\n got %q\nwant %q", lang, trunc(b.String()), trunc(code))
	}
}

func trunc(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

func TestLang(t *testing.T) {
	t.Parallel()
	tests := []struct {
		info, want string
		known      bool
	}{
		{"go", "go", true},
		{"Go", "go", true},
		{"go title=\"main.go\"", "go", true},
		{"{.python}", "python", true},
		{"{.python .numberLines}", "python", true},
		{"rust,ignore", "rust", true},
		{"language-ts", "ts", true},
		{"  sh  ", "sh", true},
		{"C++", "c++", true},
		{"c#", "c#", true},
		{"Dockerfile", "dockerfile", true},
		{"main.go", "main.go", true},
		{"objective-z", "objective-z", false},
		{"", "", false},
		{"text", "text", false},
	}
	for _, tt := range tests {
		if got := Lang(tt.info); got != tt.want {
			t.Errorf("Lang(%q) = %q, want %q", tt.info, got, tt.want)
		}
		if got := Known(tt.info); got != tt.known {
			t.Errorf("Known(%q) = %v, want %v", tt.info, got, tt.known)
		}
	}
}

func TestAliases(t *testing.T) {
	t.Parallel()
	same := [][]string{
		{"go", "golang"},
		{"python", "py", "python3"},
		{"javascript", "js", "jsx", "mjs"},
		{"typescript", "ts", "tsx"},
		{"rust", "rs"},
		{"cpp", "c++", "cc", "hpp", "cxx"},
		{"c", "h"},
		{"kotlin", "kt"},
		{"csharp", "cs", "c#"},
		{"ruby", "rb"},
		{"bash", "sh", "shell", "zsh"},
		{"console", "shell-session"},
		{"json", "jsonc"},
		{"yaml", "yml"},
		{"html", "xml", "svg"},
		{"css"},
		{"scss", "sass", "less"},
		{"dockerfile", "Dockerfile", "docker"},
		{"makefile", "make", "Makefile", "mk"},
		{"diff", "patch"},
		{"markdown", "md"},
		{"protobuf", "proto"},
		{"graphql", "gql"},
		{"hcl", "terraform", "tf"},
		{"haskell", "hs"},
		{"elixir", "ex", "exs"},
		{"powershell", "pwsh", "ps1"},
		{"cmake", "CMakeLists.txt"},
		{"perl", "pl"},
		{"julia", "jl"},
	}
	for _, names := range same {
		first := lookup(Lang(names[0]))
		if first == nil {
			t.Errorf("%s is unknown", names[0])
			continue
		}
		for _, n := range names[1:] {
			if lookup(Lang(n)) != first {
				t.Errorf("%s is not %s", n, names[0])
			}
		}
	}
	// The aliases the renderer's users write most, from the task that made
	// this package.
	for _, n := range []string{"golang", "py", "python3", "js", "mjs", "ts", "rs", "cpp", "c++", "cc", "h", "hpp",
		"kt", "cs", "rb", "yml", "sh", "shell", "zsh", "console", "Dockerfile", "make", "patch", "tf", "jsx", "tsx",
		"jsonc", "svg", "xml", "scss", "bash"} {
		if !Known(n) {
			t.Errorf("%s is unknown", n)
		}
	}
	for _, n := range languages {
		if !Known(n) {
			t.Errorf("%s is unknown", n)
		}
	}
}

func TestUnknownLanguageIsText(t *testing.T) {
	t.Parallel()
	got := Tokens("klingon", "qapla' \"x\" // y")
	if len(got) != 1 || got[0] != (Token{Kind: Text, Text: "qapla' \"x\" // y"}) {
		t.Fatalf("got %v", got)
	}
	if got := Tokens("go", ""); got != nil {
		t.Fatalf("empty code gave %v", got)
	}
}

// hostile are inputs that break naive scanners: unterminated constructs,
// deep nesting, garbage.
func hostile() map[string]string {
	garbage := make([]byte, 4096)
	for i := range garbage {
		garbage[i] = byte(i*131 + i/7)
	}
	return map[string]string{
		"unterminated string":  `x = "abc`,
		"unterminated raw":     "x = `abc\n\ndef",
		"unterminated triple":  `x = """abc` + "\n\n",
		"unterminated comment": "a /* b\n c",
		"nested comments":      strings.Repeat("/*", 100_000),
		"nested haskell":       strings.Repeat("{-", 100_000),
		"long line":            strings.Repeat(`a = "b" + 'c' // d `, 5_000),
		"megabyte line":        strings.Repeat("x", 1<<20),
		"quotes":               strings.Repeat(`"'`+"`", 10_000),
		"garbage":              string(garbage),
		"invalid utf-8":        "\xff\xfe\x80 \"\xc3\" '\xe2\x82' \xed\xa0\x80 #\xff\n//\xc0",
		"lone escapes":         "\"\\",
		"heredoc words":        strings.Repeat("<<EOF\n", 5_000),
		"unclosed heredoc":     "cat <<EOF\nbody\n",
		"lua levels":           strings.Repeat("[=", 10_000) + "[" + strings.Repeat("]=", 10_000),
		"backticks":            strings.Repeat("`` ` ``` ", 5_000),
		"stars":                strings.Repeat("** ", 10_000),
		"tags":                 strings.Repeat("<a b='", 5_000),
		"rust raw":             "r" + strings.Repeat("#", 100_000),
		"cpp raw":              `R"` + strings.Repeat("(", 10),
		"dollars":              strings.Repeat("${", 10_000),
		"fences":               strings.Repeat("```go\n", 10_000),
		"yaml keys":            strings.Repeat("a: b: c: |\n", 10_000),
		"css":                  strings.Repeat("a{b:c;#d .e :f", 10_000),
		"only newlines":        strings.Repeat("\n", 10_000),
		"crlf":                 "a\r\nb\r\n+c\r\n",
		"nul":                  "\x00\x00'\x00\"",
	}
}

func TestTokensGiveBackTheCode(t *testing.T) {
	t.Parallel()
	for name, code := range hostile() {
		for _, lang := range languages {
			checkTokens(t, lang+" "+name, code, Tokens(lang, code))
		}
	}
}

// TestConcurrentFirstUse has many goroutines draw the first blocks of a
// language at once, as the renderer may; run with -race it checks that the
// tables are built once and safely.
func TestConcurrentFirstUse(t *testing.T) {
	t.Parallel()
	code := "func f() { return 1 } // c\n"
	want := Tokens("go", code)
	fresh := &lang{
		lineComments: goLang.lineComments, blockComments: goLang.blockComments, strs: goLang.strs,
		keywords: goLang.keywords, defs: goLang.defs, types: goLang.types, builtins: goLang.builtins,
		ops: goLang.ops, opChars: goLang.opChars, flags: goLang.flags,
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if got := tokens(fresh, code); !slices.Equal(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
	wg.Wait()
}

// TestLinearTime feeds a megabyte of the openers that tempt a scanner to
// look far ahead again and again. Linear scanning takes milliseconds; a
// quadratic path would take minutes, so the generous limit cannot flake.
func TestLinearTime(t *testing.T) {
	if testing.Short() {
		t.Skip("megabytes of input")
	}
	t.Parallel()
	tests := []struct{ lang, unit string }{
		{"bash", "${"}, {"bash", "<<'"}, {"bash", "$'"}, {"ruby", "<<~'"},
		{"cpp", `R"(`}, {"cpp", `R"`}, {"rust", "/*"}, {"rust", "r#"}, {"rust", "'\\"}, {"rust", "#["},
		{"haskell", "{-"}, {"lua", "[="}, {"lua", "--[="}, {"markdown", "`` ` ``` "}, {"markdown", "** "},
		{"javascript", "(/ "}, {"javascript", "( /["}, {"javascript", "`${"}, {"javascript", "${`}"}, {"css", "a{"}, {"css", "a:"}, {"html", "<a b="},
		{"html", "&a"}, {"yaml", "- a"}, {"json", `"\`}, {"toml", "["}, {"c", "#"}, {"nix", "''$"},
		{"python", `r"`}, {"csharp", "["}, {"makefile", "$("}, {"diff", "+"}, {"console", "$ "},
	}
	for _, tt := range tests {
		code := strings.Repeat(tt.unit, 1<<20/len(tt.unit))
		start := time.Now()
		checkTokens(t, tt.lang, code, Tokens(tt.lang, code))
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: a megabyte of %q took %v", tt.lang, tt.unit, d)
		}
	}
}
