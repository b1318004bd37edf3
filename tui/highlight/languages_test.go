package highlight

import (
	"fmt"
	"testing"
)

// kt is a wanted token in the language tests.
type kt struct {
	kind Kind
	text string
}

func (k kt) String() string { return fmt.Sprintf("%d:%q", k.kind, k.text) }

// TestLanguages runs a short realistic snippet of each language and wants
// its key tokens, in order, among the coloured ones.
func TestLanguages(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang, code string
		want       []kt
	}{
		{"go", "// Doc.\nfunc (p *T) Len() int { s := `a\nb`; return len(s) + 0x1F }\ntype Point struct{}",
			[]kt{{Comment, "// Doc."}, {Keyword, "func"}, {Operator, "*"}, {Name, "Len"}, {Type, "int"}, {Operator, ":="}, {String, "`a\nb`"}, {Keyword, "return"}, {Builtin, "len"}, {Number, "0x1F"}, {Keyword, "type"}, {Name, "Point"}, {Keyword, "struct"}}},
		{"python", "@app.route('/')\ndef index(n=1_000):\n    \"\"\"Doc.\"\"\"\n    return f\"{n}\" if n is not None else rb'\\d'  # c",
			[]kt{{Meta, "@app.route"}, {String, "'/'"}, {Keyword, "def"}, {Name, "index"}, {Number, "1_000"}, {String, `"""Doc."""`}, {Keyword, "return"}, {String, `f"{n}"`}, {Keyword, "if"}, {Type, "None"}, {String, `rb'\d'`}, {Comment, "# c"}}},
		{"js", "const re = /\"[/]/g; function add(a, b) { return a ?? `x${b + f({c: 1})}y`; }",
			[]kt{{Keyword, "const"}, {String, `/"[/]/g`}, {Keyword, "function"}, {Name, "add"}, {Keyword, "return"}, {Operator, "??"}, {String, "`x${"}, {Operator, "+"}, {Name, "f"}, {Number, "1"}, {String, "}y`"}}},
		{"tsx", "export interface Props { n?: number }\nconst f = (p: Props): JSX.Element => <div/>;",
			[]kt{{Keyword, "export"}, {Keyword, "interface"}, {Name, "Props"}, {Type, "number"}, {Keyword, "const"}, {Operator, "=>"}}},
		{"jsx", "const a = <p>x</p>; const b = <i>y</i>; // c",
			[]kt{{Keyword, "const"}, {Keyword, "const"}, {Comment, "// c"}}},
		{"rust", "#[derive(Debug)]\nfn main<'a>() { let s = r#\"x\"#; let b = b'x'; println!(\"{}\", 1u8); /* a /* b */ c */ }",
			[]kt{{Meta, "#[derive(Debug)]"}, {Keyword, "fn"}, {Name, "main"}, {Meta, "'a"}, {Keyword, "let"}, {String, `r#"x"#`}, {Keyword, "let"}, {String, "b'x'"}, {Builtin, "println!"}, {String, `"{}"`}, {Number, "1u8"}, {Comment, "/* a /* b */ c */"}}},
		{"c", "#include <stdio.h>\nint main(void) { char c = '\\n'; printf(\"%d\", 1.5f); }",
			[]kt{{Meta, "#include"}, {String, "<stdio.h>"}, {Type, "int"}, {Name, "main"}, {Type, "void"}, {String, `'\n'`}, {Builtin, "printf"}, {String, `"%d"`}, {Number, "1.5f"}}},
		{"c++", "template <typename T> class Box { auto s = R\"x(a)\"b)x\"; };",
			[]kt{{Keyword, "template"}, {Keyword, "typename"}, {Keyword, "class"}, {Name, "Box"}, {String, `R"x(a)"b)x"`}}},
		{"java", "@Override public String toString() { return \"\"\"\n  x\"\"\"; }",
			[]kt{{Meta, "@Override"}, {Keyword, "public"}, {Type, "String"}, {Name, "toString"}, {Keyword, "return"}, {String, "\"\"\"\n  x\"\"\""}}},
		{"kotlin", "data class User(val name: String) { fun greet() = println(\"hi \\$name\") }",
			[]kt{{Keyword, "class"}, {Name, "User"}, {Keyword, "val"}, {Type, "String"}, {Keyword, "fun"}, {Name, "greet"}, {Builtin, "println"}}},
		{"c#", "[Serializable]\nnamespace App { public record P(string Name) { string p = @\"C:\\x\"\"y\"; } }",
			[]kt{{Meta, "[Serializable]"}, {Keyword, "namespace"}, {Name, "App"}, {Keyword, "public"}, {Keyword, "record"}, {Name, "P"}, {Type, "string"}, {String, `@"C:\x""y"`}}},
		{"swift", "@MainActor struct V: View { func f() -> Int? { nil } }",
			[]kt{{Meta, "@MainActor"}, {Keyword, "struct"}, {Name, "V"}, {Keyword, "func"}, {Name, "f"}, {Operator, "->"}, {Type, "Int"}, {Type, "nil"}}},
		{"ruby", "class Foo < Bar\n  def greet = puts(:hi, \"x\")\nend",
			[]kt{{Keyword, "class"}, {Name, "Foo"}, {Type, "Bar"}, {Keyword, "def"}, {Name, "greet"}, {Builtin, "puts"}, {String, ":hi"}, {String, `"x"`}, {Keyword, "end"}}},
		{"php", "<?php\nfunction f(string $s): int { return strlen($s); } # c",
			[]kt{{Operator, "<?php"}, {Keyword, "function"}, {Name, "f"}, {Type, "string"}, {Name, "$s"}, {Keyword, "return"}, {Builtin, "strlen"}, {Comment, "# c"}}},
		{"sh", "#!/bin/sh\nfor f in *.go; do echo \"$f\" | grep -v x#y # c\ndone\nX=1 cat <<'EOF'\n$body\nEOF\n",
			[]kt{{Comment, "#!/bin/sh"}, {Keyword, "for"}, {Keyword, "in"}, {Keyword, "do"}, {Builtin, "echo"}, {String, `"$f"`}, {Operator, "|"}, {Comment, "# c"}, {Keyword, "done"}, {Name, "X"}, {String, "<<'EOF'"}, {String, "$body\nEOF"}}},
		{"console", "$ ls -la ~\ntotal 0\nuser@host:~$ echo $HOME\n",
			[]kt{{Meta, "$ "}, {Meta, "user@host:~$ "}, {Builtin, "echo"}, {Name, "$HOME"}}},
		{"json", `{"a": [1, 2.5e3, true, null], "b": "x\"y"}`,
			[]kt{{Name, `"a"`}, {Number, "1"}, {Number, "2.5e3"}, {Type, "true"}, {Type, "null"}, {Name, `"b"`}, {String, `"x\"y"`}}},
		{"yaml", "# c\nurl: http://x/#frag # c2\nname: CI\nsteps:\n  - run: |\n      go test\n    with: &a\n      x: 'y'\n",
			[]kt{{Comment, "# c"}, {Name, "url"}, {Comment, "# c2"}, {Name, "name"}, {Name, "steps"}, {Operator, "-"}, {Name, "run"}, {String, "      go test"}, {Name, "with"}, {Meta, "&a"}, {Name, "x"}, {String, "'y'"}}},
		{"toml", "[package]\nname = \"x\" # c\n[[bin]]\nok = true",
			[]kt{{Heading, "[package]"}, {Name, "name"}, {String, `"x"`}, {Comment, "# c"}, {Heading, "[[bin]]"}, {Name, "ok"}, {Type, "true"}}},
		{"ini", "; c\n[core]\neditor = vim\n",
			[]kt{{Comment, "; c"}, {Heading, "[core]"}, {Name, "editor"}}},
		{"sql", "SELECT count(*) FROM t WHERE name = 'O''Brien' -- c",
			[]kt{{Keyword, "SELECT"}, {Builtin, "count"}, {Keyword, "FROM"}, {Keyword, "WHERE"}, {String, "'O''Brien'"}, {Comment, "-- c"}}},
		{"html", "<!DOCTYPE html><a href=\"x\">a &amp; b</a><!-- c --><script> let x = 1;</script>",
			[]kt{{Meta, "<!DOCTYPE html>"}, {Keyword, "<a"}, {Name, "href"}, {String, `"x"`}, {Type, "&amp;"}, {Comment, "<!-- c -->"}, {Keyword, "let"}, {Number, "1"}}},
		{"css", ".btn:hover, #main > a { color: #fff; margin: -1px 2em; }",
			[]kt{{Name, ".btn"}, {Meta, ":hover"}, {Name, "#main"}, {Keyword, "a"}, {Builtin, "color"}, {Number, "#fff"}, {Builtin, "margin"}, {Number, "-1px"}, {Number, "2em"}}},
		{"scss", "$c: red; // c\n.a { color: $c; }",
			[]kt{{Name, "$c"}, {Comment, "// c"}, {Name, ".a"}, {Builtin, "color"}, {Name, "$c"}}},
		{"lua", "--[[ c ]] local function f(x) return x .. [==[s]==] end",
			[]kt{{Comment, "--[[ c ]]"}, {Keyword, "local"}, {Keyword, "function"}, {Name, "f"}, {Keyword, "return"}, {Operator, ".."}, {String, "[==[s]==]"}, {Keyword, "end"}}},
		{"dockerfile", "# c\nFROM golang:1.26 AS b\nrun go build && echo \"x\"\n",
			[]kt{{Comment, "# c"}, {Keyword, "FROM"}, {Keyword, "run"}, {Operator, "&&"}, {Builtin, "echo"}, {String, `"x"`}}},
		{"makefile", ".PHONY: all\nCC ?= gcc\nall: $(OBJS)\n\t$(CC) -o $@ # c\n",
			[]kt{{Name, ".PHONY"}, {Name, "CC"}, {Operator, "?="}, {Name, "all"}, {Name, "$(OBJS)"}, {Name, "$(CC)"}, {Name, "$@"}, {Comment, "# c"}}},
		{"diff", "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n ctx\n-old\n+new\n",
			[]kt{{Heading, "diff --git a/x b/x"}, {Heading, "--- a/x"}, {Heading, "+++ b/x"}, {Heading, "@@ -1 +1 @@"}, {Deleted, "-old"}, {Inserted, "+new"}}},
		{"markdown", "# Title\n\nSome `code` and **bold**.\n\n- item\n\n```go\nfunc x() {}\n```\n",
			[]kt{{Heading, "# Title"}, {String, "`code`"}, {Keyword, "**bold**"}, {Operator, "-"}, {String, "```go"}, {Keyword, "func"}, {Name, "x"}, {String, "```"}}},
		{"proto", "syntax = \"proto3\";\nmessage User { string name = 1; }",
			[]kt{{Keyword, "syntax"}, {String, `"proto3"`}, {Keyword, "message"}, {Name, "User"}, {Type, "string"}, {Number, "1"}}},
		{"graphql", "query Q($id: ID!) @cached { user(id: $id) { name } } # c",
			[]kt{{Keyword, "query"}, {Name, "$id"}, {Type, "ID"}, {Meta, "@cached"}, {Name, "$id"}, {Comment, "# c"}}},
		{"dart", "@override\nFuture<void> main() async { final s = r'\\d'; print(s); }",
			[]kt{{Meta, "@override"}, {Type, "Future"}, {Type, "void"}, {Name, "main"}, {Keyword, "async"}, {Keyword, "final"}, {String, `r'\d'`}, {Builtin, "print"}}},
		{"scala", "case class P(x: Int)\ndef f(c: Char) = c == 'a' && s\"$x\" != null",
			[]kt{{Keyword, "case"}, {Keyword, "class"}, {Name, "P"}, {Type, "Int"}, {Keyword, "def"}, {Name, "f"}, {Type, "Char"}, {String, "'a'"}, {String, `s"$x"`}, {Type, "null"}}},
		{"haskell", "{- a {- b -} -}\nmain :: IO ()\nmain = putStrLn $ show (Just 'x') -- c",
			[]kt{{Comment, "{- a {- b -} -}"}, {Operator, "::"}, {Type, "IO"}, {Builtin, "putStrLn"}, {Builtin, "show"}, {Type, "Just"}, {String, "'x'"}, {Comment, "-- c"}}},
		{"elixir", "defmodule M do\n  @doc \"\"\"\n  x\n  \"\"\"\n  def f(x), do: {:ok, x |> g()}\nend",
			[]kt{{Keyword, "defmodule"}, {Name, "M"}, {Meta, "@doc"}, {String, "\"\"\"\n  x\n  \"\"\""}, {Keyword, "def"}, {Name, "f"}, {String, ":ok"}, {Operator, "|>"}, {Keyword, "end"}}},
		{"r", "f <- function(x) { if (is.na(x)) NULL else print(x) } # c",
			[]kt{{Operator, "<-"}, {Keyword, "function"}, {Keyword, "if"}, {Type, "NULL"}, {Keyword, "else"}, {Builtin, "print"}, {Comment, "# c"}}},
		{"zig", "const std = @import(\"std\");\npub fn main() !void {\n    const s = \\\\raw\n    ;\n}",
			[]kt{{Keyword, "const"}, {Builtin, "@import"}, {String, `"std"`}, {Keyword, "pub"}, {Keyword, "fn"}, {Name, "main"}, {Type, "void"}, {String, `\\raw`}}},
		{"nix", "{ pkgs ? import <nixpkgs> {} }:\nlet s = ''\n  a ''${b}\n''; in s # c",
			[]kt{{Builtin, "import"}, {Keyword, "let"}, {String, "''\n  a ''${b}\n''"}, {Keyword, "in"}, {Comment, "# c"}}},
		{"terraform", "resource \"aws\" \"web\" {\n  ami = \"x\" # c\n  n = length(var.l)\n  t = <<EOT\nhi\nEOT\n}",
			[]kt{{Keyword, "resource"}, {String, `"aws"`}, {Name, "ami"}, {String, `"x"`}, {Comment, "# c"}, {Name, "n"}, {Builtin, "length"}, {Name, "t"}, {String, "<<EOT"}, {String, "hi\nEOT"}}},
		{"powershell", "function Get-X { param([string]$Name) Write-Host \"hi\" -NoNewline; if ($a -eq 1) {} } # c",
			[]kt{{Keyword, "function"}, {Name, "Get-X"}, {Keyword, "param"}, {Type, "string"}, {Name, "$Name"}, {Builtin, "Write-Host"}, {String, `"hi"`}, {Keyword, "if"}, {Keyword, "-eq"}, {Comment, "# c"}}},
		{"cmake", "project(x)\nadd_executable(app main.cpp) # c\ntarget_link_libraries(app PRIVATE ${LIBS})",
			[]kt{{Builtin, "project"}, {Builtin, "add_executable"}, {Comment, "# c"}, {Builtin, "target_link_libraries"}, {Type, "PRIVATE"}, {Name, "${LIBS}"}}},
		{"perl", "use strict;\nsub f { my $x = \"a\"; return $x; } # c",
			[]kt{{Keyword, "use"}, {Keyword, "sub"}, {Name, "f"}, {Keyword, "my"}, {Name, "$x"}, {String, `"a"`}, {Keyword, "return"}, {Comment, "# c"}}},
		{"julia", "#= c =#\nfunction f(x::Int)\n  @assert x > 0\n  push!(v, 'c')\nend",
			[]kt{{Comment, "#= c =#"}, {Keyword, "function"}, {Name, "f"}, {Operator, "::"}, {Type, "Int"}, {Meta, "@assert"}, {Builtin, "push!"}, {String, "'c'"}, {Keyword, "end"}}},
	}
	for _, tt := range tests {
		toks := Tokens(tt.lang, tt.code)
		checkTokens(t, tt.lang, tt.code, toks)
		var got []kt
		for _, tok := range toks {
			if tok.Kind != Text {
				got = append(got, kt{tok.Kind, tok.Text})
			}
		}
		rest := got
		for _, w := range tt.want {
			for len(rest) > 0 && rest[0] != w {
				rest = rest[1:]
			}
			if len(rest) == 0 {
				t.Errorf("%s: %v not found in order in\n%v", tt.lang, w, got)
				break
			}
			rest = rest[1:]
		}
	}
}

func TestSignedNumbersInData(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ lang, code, num string }{
		{"json", `{"a": -2.5e3}`, "-2.5e3"},
		{"yaml", "a: -1", "-1"},
		{"toml", "a = -1_000", "-1_000"},
	} {
		found := false
		for _, tok := range Tokens(tt.lang, tt.code) {
			found = found || tok == Token{Kind: Number, Text: tt.num}
		}
		if !found {
			t.Errorf("%s: no number %q in %v", tt.lang, tt.num, Tokens(tt.lang, tt.code))
		}
	}
}
