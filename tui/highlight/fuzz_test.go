package highlight

import "testing"

// FuzzTokens checks that, for every language, the tokens of any input give
// it back exactly.
func FuzzTokens(f *testing.F) {
	for _, code := range hostile() {
		if len(code) < 4096 {
			f.Add(code)
		}
	}
	for _, seed := range []string{
		"func f() { return `x` }", "def f():\n    '''d'''", "r#\"a\"#", `R"x(a)x"`,
		"cat <<-EOF\n\tx\n\tEOF\n", "--[==[ x ]==]", "''a''${b}''", "<a href='x'>&amp;</a>",
		"```go\nx\n```", "a: |\n  b\nc: d", "+a\n-b\n@@ x", "$ ls\nout", ".a:hover{b:#fff}",
		"x = /re[/]/g", "`a${`b${c}`}d`", "#[attr] fn f<'a>()", "@dec\nclass A", "{- {- -} -}", "\\\\line",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, code string) {
		for _, lang := range languages {
			checkTokens(t, lang, code, Tokens(lang, code))
		}
	})
}
