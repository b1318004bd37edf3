package highlight

import (
	"slices"
	"strings"
	"testing"
)

// lineRuns is code's tokens as lines of runs, neighbours of the same kind
// merged: what a renderer draws of them.
func lineRuns(toks []Token) [][]Token {
	out := [][]Token{nil}
	add := func(k Kind, s string) {
		if s == "" {
			return
		}
		l := &out[len(out)-1]
		if n := len(*l); n > 0 && (*l)[n-1].Kind == k {
			(*l)[n-1].Text += s
			return
		}
		*l = append(*l, Token{k, s})
	}
	for _, t := range toks {
		for i, part := range strings.Split(t.Text, "\n") {
			if i > 0 {
				out = append(out, nil)
			}
			add(t.Kind, part)
		}
	}
	return out
}

// checkRests fails unless every rest point of every prefix of code cuts
// code's tokens (the whole code's, as if the prefix had grown into it)
// into the tokens of the two pieces scanned apart.
func checkRests(t *testing.T, lang, code string) {
	t.Helper()
	whole := lineRuns(Tokens(lang, code))
	checked := map[int]bool{}
	for q := 1; q <= len(code); q += max(1, len(code)/40) {
		for _, p := range Rests(lang, code[:q]) {
			if p <= 0 || p >= q || checked[p] {
				if p <= 0 || p >= q {
					t.Fatalf("%s: rest %d outside (0, %d)", lang, p, q)
				}
				continue
			}
			checked[p] = true
			a, b := lineRuns(Tokens(lang, code[:p])), lineRuns(Tokens(lang, code[p:]))
			// code[:p] ends with a newline: its last line is empty and is
			// the first line of code[p:].
			got := slices.Concat(a[:len(a)-1], b)
			if !slices.EqualFunc(got, whole, slices.Equal) {
				t.Fatalf("%s: cut at %d (prefix %d) of %q:\n got %v\nwant %v", lang, p, q, code, got, whole)
			}
		}
	}
}

// restSamples are sources with constructs that span lines or look around.
func restSamples() []string {
	return []string{
		"// Doc.\nfunc (p *T) Len() int { s := `a\nb`; return len(s) + 0x1F }\ntype Point struct{}\nfunc\nName() {}\n",
		"@app.route('/')\ndef index(n=1_000):\n    \"\"\"Doc.\n\n    more\"\"\"\n    return f\"{n}\" if n is not None else rb'\\d'  # c\n",
		"const re = /\"[/]/g; function add(a, b) {\n return a ?? `x${b + f({c: 1})}\ny`; }\nx = a\n/ b / c\ny = (1)\n/re/.test(s)\n",
		"a /* b\n c */ d\n/* e */\nf\n",
		"#!/bin/sh\nX=1 cat <<'EOF'\n$body\nEOF\necho done\n#!/not/a/shebang\n",
		"a {\n color: red;\n}\n.b:hover,\n.c\n{ d: #fff }\ne\n",
		"--[==[ x\n]==] y\nz = [[\nlong\n]]\n",
		"#[attr]\nfn f<'a>() {\n r#\"a\n\"# }\n",
		"x = \"abc\n\ndef\n",
		"{- {- \n -} -}\nmain = 1\n",
	}
}

func TestRestsCutTokensExactly(t *testing.T) {
	t.Parallel()
	all := strings.Join(restSamples(), "\n")
	for _, lang := range append(languages, "nosuchlang", "") {
		for _, code := range append(restSamples(), all) {
			checkRests(t, lang, code)
		}
	}
}

func TestRestsFound(t *testing.T) {
	t.Parallel()
	code := strings.Repeat("func f(x int) int {\n\treturn x * 2 // double\n}\n\n", 50)
	if n := len(Rests("go", code)); n < 100 {
		t.Fatalf("%d rests in %d lines of plain Go", n, strings.Count(code, "\n"))
	}
	if r := Rests("go", "x := `open\n"+code); len(r) != 0 {
		t.Fatalf("rests inside an open raw string: %v", r[:min(3, len(r))])
	}
	if n := len(Rests("", "a\nb\nc")); n != 2 {
		t.Fatalf("%d rests in three plain lines", n)
	}
}

// FuzzRests checks the promise of Rests on any input in every language.
func FuzzRests(f *testing.F) {
	for _, s := range restSamples() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		if len(code) > 2048 {
			return
		}
		for _, lang := range languages {
			checkRests(t, lang, code)
		}
	})
}
