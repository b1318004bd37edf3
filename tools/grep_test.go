package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

var grepTree = map[string]string{
	"main.go":           "package main\n\nfunc main() {\n\tprintln(\"hello\")\n}\n",
	"a/b.go":            "package a\n\n// Hello says hello.\nfunc Hello() string { return \"HELLO\" }\n",
	"a-c.txt":           "hello from a-c\n",
	"a/deep/c_test.go":  "package deep\n\nfunc TestHello(t *testing.T) {}\n",
	"crlf.txt":          "first hello\r\nsecond\r\n",
	".gitignore":        "*.log\nvendor/\n",
	"debug.log":         "hello log\n",
	"vendor/v.go":       "package v // hello vendored\n",
	"nested/.gitignore": "gen.go\n",
	"nested/gen.go":     "package nested // hello generated\n",
	"nested/real.go":    "package nested // hello real\n",
	"bin.dat":           "hello\x00binary\n",
	".env":              "HELLO_TOKEN=secret\n",
	".env.example":      "HELLO_TOKEN=\n",
	"keys/id_ed25519":   "hello key\n",
	"evil\nname.txt":    "hello evil\n",
	"links/outside":     symlinkPrefix + "$OUTSIDE/outside.txt",
	"links/outdir":      symlinkPrefix + "$OUTSIDE/dir",
	"links/inside":      symlinkPrefix + "../a-c.txt",
	"long.txt":          strings.Repeat("x", 400) + "hello" + strings.Repeat("y", 100) + "\n",
	".git/config":       "hello git\n",
}

func TestGrep(t *testing.T) {
	t.Parallel()
	w, _ := toolTree(t, grepTree)
	w.OutputCap = 1 << 20
	run := func(args map[string]any) Result { return callTool(t, NewGrep(w), args) }

	// The plain literal search: sorted by path (directory by directory),
	// then line; ignored, binary, secret, .git and outside files absent.
	r := run(map[string]any{"pattern": "hello"})
	want := strings.Join([]string{
		"a/b.go:3: // Hello says hello.",
		"a-c.txt:1: hello from a-c",
		"crlf.txt:1: first hello",
		`"evil\nname.txt":1: hello evil`,
		"links/inside:1: hello from a-c",
		"long.txt:1: " + strings.Repeat("x", 300) + "… [line cut: 205 more chars]",
		"main.go:4: \tprintln(\"hello\")",
		"nested/real.go:1: package nested // hello real",
	}, "\n")
	if r.Status != StatusOK || r.Output != want {
		t.Errorf("output:\n%s\nwant:\n%s", r.Output, want)
	}
	if r.Summary != "8 matches in 8 files" {
		t.Errorf("summary %q", r.Summary)
	}

	cases := []struct {
		name    string
		args    map[string]any
		want    string
		has     []string
		err     bool
		summary string
	}{
		{name: "ignore_case", args: map[string]any{"pattern": "HELLO", "ignore_case": true, "path": "a"},
			want:    "a/b.go:3: // Hello says hello.\na/b.go:4: func Hello() string { return \"HELLO\" }\na/deep/c_test.go:3: func TestHello(t *testing.T) {}",
			summary: "3 matches in 2 files"},
		{name: "case-sensitive by default", args: map[string]any{"pattern": "HELLO", "path": "a"},
			want: "a/b.go:4: func Hello() string { return \"HELLO\" }", summary: "1 match in 1 file"},
		{name: "regex", args: map[string]any{"pattern": `func \w+\(\)`},
			want: "a/b.go:4: func Hello() string { return \"HELLO\" }\nmain.go:3: func main() {"},
		{name: "regex without a literal", args: map[string]any{"pattern": `^\w+\(`, "path": "main.go"}, want: ""},
		{name: "anchors per line", args: map[string]any{"pattern": `^func`},
			want: "a/b.go:4: func Hello() string { return \"HELLO\" }\na/deep/c_test.go:3: func TestHello(t *testing.T) {}\nmain.go:3: func main() {"},
		{name: "text anchors mean the line", args: map[string]any{"pattern": `\Afunc main`}, want: "main.go:3: func main() {"},
		{name: "dollar before CRLF", args: map[string]any{"pattern": `hello$`, "path": "crlf.txt"}, want: "crlf.txt:1: first hello"},
		{name: "glob by name", args: map[string]any{"pattern": "hello", "glob": "*.go"},
			want: "a/b.go:3: // Hello says hello.\nmain.go:4: \tprintln(\"hello\")\nnested/real.go:1: package nested // hello real"},
		{name: "glob with braces", args: map[string]any{"pattern": "hello", "glob": "*.{txt,log}", "path": "."},
			has: []string{"a-c.txt:1:", "crlf.txt:1:", "long.txt:1:"}},
		{name: "glob by path relative to path", args: map[string]any{"pattern": "Hello", "path": "a", "glob": "deep/*.go"},
			want: "a/deep/c_test.go:3: func TestHello(t *testing.T) {}"},
		{name: "negated glob", args: map[string]any{"pattern": "hello", "glob": "!*.{txt,go}"}, want: "links/inside:1: hello from a-c"},
		{name: "explicit ignored file", args: map[string]any{"pattern": "hello", "path": "debug.log"}, want: "debug.log:1: hello log"},
		{name: "explicit ignored dir", args: map[string]any{"pattern": "hello", "path": "vendor"}, want: "vendor/v.go:1: package v // hello vendored"},
		{name: "nested gitignore", args: map[string]any{"pattern": "hello", "path": "nested"}, want: "nested/real.go:1: package nested // hello real"},
		{name: "explicit binary file", args: map[string]any{"pattern": "hello", "path": "bin.dat"}, want: "No matches for \"hello\" in bin.dat.\n[bin.dat is a binary file; grep skips binary files]"},
		{name: "explicit secret file", args: map[string]any{"pattern": "HELLO", "path": ".env"}, err: true, has: []string{"secret", "configurable"}},
		{name: "no match", args: map[string]any{"pattern": "zebra", "glob": "*.go"}, want: `No matches for "zebra" in . (glob *.go).`, summary: "0 matches"},
		{name: "invalid regexp", args: map[string]any{"pattern": "func main("}, err: true,
			has: []string{"invalid regular expression", "missing closing )", "RE2", "backslash"}},
		{name: "lookahead unsupported", args: map[string]any{"pattern": "a(?=b)"}, err: true, has: []string{"invalid or unsupported Perl syntax"}},
		{name: "line break in pattern", args: map[string]any{"pattern": `hello\nworld`}, err: true, has: []string{"line break"}},
		{name: "invalid glob", args: map[string]any{"pattern": "x", "glob": "[a"}, err: true, has: []string{"invalid glob"}},
		{name: "escape with ..", args: map[string]any{"pattern": "outside", "path": "../outside"}, err: true, has: []string{"outside the workspace"}},
		{name: "symlinked dir outside", args: map[string]any{"pattern": "outside", "path": "links/outdir"}, err: true, has: []string{"outside the workspace"}},
		{name: "symlinked file outside", args: map[string]any{"pattern": "outside", "path": "links/outside"}, err: true, has: []string{"outside the workspace"}},
		{name: "outside content never found", args: map[string]any{"pattern": "outside"}, want: "No matches for \"outside\" in ..\n[2 secret files not searched: secret files such as .env are skipped (the patterns are configurable)]"},
		{name: "missing path", args: map[string]any{"pattern": "x", "path": "nope"}, err: true, has: []string{"does not exist"}},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := run(tt.args)
			if tt.err != (r.Status == StatusError) {
				t.Fatalf("status %v:\n%s", r.Status, r.Output)
			}
			if tt.want != "" && r.Output != tt.want {
				t.Errorf("output:\n%s\nwant:\n%s", r.Output, tt.want)
			}
			if tt.want == "" && !tt.err && tt.has == nil && r.Output != `No matches for "^\\w+\\(" in main.go.` {
				t.Errorf("output:\n%s", r.Output)
			}
			for _, h := range tt.has {
				if !strings.Contains(r.Output, h) {
					t.Errorf("output lacks %q:\n%s", h, r.Output)
				}
			}
			if tt.summary != "" && r.Summary != tt.summary {
				t.Errorf("summary %q, want %q", r.Summary, tt.summary)
			}
		})
	}
}

func TestGrepContext(t *testing.T) {
	t.Parallel()
	w, _ := toolTree(t, map[string]string{
		"f.txt": manyLines(20),
		"g.txt": "match here\nafter\n",
	})
	r := callTool(t, NewGrep(w), map[string]any{"pattern": `^line (2|4|10|19)$`, "context_lines": 1})
	want := strings.Join([]string{
		"f.txt-1- line 1",
		"f.txt:2: line 2",
		"f.txt-3- line 3",
		"f.txt:4: line 4",
		"f.txt-5- line 5",
		"--",
		"f.txt-9- line 9",
		"f.txt:10: line 10",
		"f.txt-11- line 11",
		"--",
		"f.txt-18- line 18",
		"f.txt:19: line 19",
		"f.txt-20- line 20",
	}, "\n")
	if r.Output != want {
		t.Errorf("output:\n%s\nwant:\n%s", r.Output, want)
	}
	if r.Summary != "4 matches in 1 file" {
		t.Errorf("summary %q", r.Summary)
	}

	// Adjacent groups merge; files are separated by "--" too.
	r = callTool(t, NewGrep(w), map[string]any{"pattern": `^line 1$|^line 3$|match`, "context_lines": 2})
	want = strings.Join([]string{
		"f.txt:1: line 1",
		"f.txt-2- line 2",
		"f.txt:3: line 3",
		"f.txt-4- line 4",
		"f.txt-5- line 5",
		"--",
		"g.txt:1: match here",
		"g.txt-2- after",
	}, "\n")
	if r.Output != want {
		t.Errorf("output:\n%s\nwant:\n%s", r.Output, want)
	}

	// context_lines is bounded.
	r = callTool(t, NewGrep(w), map[string]any{"pattern": `^line 10$`, "context_lines": 1000, "path": "f.txt"})
	if !strings.HasPrefix(r.Output, "f.txt-1- line 1\n") || !strings.HasSuffix(r.Output, "f.txt-20- line 20") {
		t.Errorf("output:\n%s", r.Output)
	}
	r = callTool(t, NewGrep(w), map[string]any{"pattern": `^line 15$`, "context_lines": 1000, "path": "f.txt"})
	if !strings.HasPrefix(r.Output, "f.txt-5- line 5\n") {
		t.Errorf("context not limited to %d lines:\n%s", grepMaxContext, r.Output)
	}
}

func TestGrepCaps(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := range 25 {
		files[fmt.Sprintf("f%02d.txt", i)] = manyLines(10)
	}
	w, _ := toolTree(t, files)
	w.OutputCap = 1 << 20
	r := callTool(t, NewGrep(w), map[string]any{"pattern": "line"})
	lines := strings.Split(r.Output, "\n")
	if len(lines) != grepMaxMatches+1 || lines[199] != "f19.txt:10: line 10" {
		t.Fatalf("%d lines, last %q", len(lines), lines[len(lines)-2:])
	}
	wantNote := "[50 matches left out: showing 200 of 250 matches, in 20 of 25 files; narrow the pattern, path or glob to see the rest]"
	if lines[200] != wantNote {
		t.Errorf("note %q\nwant %q", lines[200], wantNote)
	}
	if r.Summary != "250 matches in 25 files" {
		t.Errorf("summary %q", r.Summary)
	}

	w.OutputCap = 1000
	r = callTool(t, NewGrep(w), map[string]any{"pattern": "line"})
	if len(r.Output) > 1000 || !strings.Contains(r.Output, "matches left out: showing ") {
		t.Fatalf("%d bytes:\n%s", len(r.Output), r.Output)
	}
	for _, l := range strings.Split(r.Output, "\n") {
		if !regexp.MustCompile(`^f\d\d\.txt:\d+: line \d+$|^\[`).MatchString(l) {
			t.Errorf("broken line %q", l)
		}
	}
}

// TestGrepEscapesNames checks that a file name cannot forge an output line.
func TestGrepEscapesNames(t *testing.T) {
	t.Parallel()
	w, _ := toolTree(t, map[string]string{"x\nmain.go:1: fake": "needle\n"})
	r := callTool(t, NewGrep(w), map[string]any{"pattern": "needle"})
	if want := `"x\nmain.go:1: fake":1: needle`; r.Output != want {
		t.Errorf("output %q, want %q", r.Output, want)
	}
}

// TestGrepDeterministic runs the same search many times: worker scheduling
// must not change the output.
func TestGrepDeterministic(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := range 300 {
		files[fmt.Sprintf("d%d/f%d.txt", i%7, i)] = strings.Repeat(fmt.Sprintf("word %d\n", i), i%5+1)
	}
	w, _ := toolTree(t, files)
	first := callTool(t, NewGrep(w), map[string]any{"pattern": `word \d+`})
	for range 10 {
		if r := callTool(t, NewGrep(w), map[string]any{"pattern": `word \d+`}); r.Output != first.Output || r.Summary != first.Summary {
			t.Fatal("output differs between runs")
		}
	}
}

func TestGrepCancel(t *testing.T) {
	t.Parallel()
	w, _ := toolTree(t, map[string]string{"a.txt": "x\n"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := NewGrep(w).Run(ctx, json.RawMessage(`{"pattern":"x"}`), nil)
	if r.Status != StatusCancelled {
		t.Errorf("status %v: %s", r.Status, r.Output)
	}
}

func TestGrepPreview(t *testing.T) {
	t.Parallel()
	w, _ := toolTree(t, map[string]string{"a/b.go": ""})
	p, err := NewGrep(w).Preview(context.Background(), json.RawMessage(`{"pattern":"func main","path":"./a","glob":"*.go"}`))
	if err != nil || p.Title != `grep "func main" in a (*.go)` {
		t.Errorf("preview %+v, %v", p, err)
	}
}

// goSrc returns $(go env GOROOT)/src, or skips.
func goSrc(tb testing.TB) string {
	tb.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		tb.Skipf("go env GOROOT: %v", err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src")
	if _, err := os.Stat(src); err != nil {
		tb.Skipf("no Go source tree: %v", err)
	}
	return src
}

func benchmarkGrep(b *testing.B, pattern string) {
	w, err := NewWorkspace(goSrc(b))
	if err != nil {
		b.Fatal(err)
	}
	args, err := json.Marshal(map[string]any{"pattern": pattern})
	if err != nil {
		b.Fatal(err)
	}
	tool := NewGrep(w)
	cpu := startCPUClock(b)
	for b.Loop() {
		if r := tool.Run(context.Background(), args, nil); r.Status != StatusOK || strings.HasPrefix(r.Summary, "0 ") {
			b.Fatalf("%v %s", r.Status, r.Summary)
		}
	}
	cpu.report()
}

// cpuClock measures the process's CPU time (user + system) over a
// benchmark, comparable to the user+sys times hyperfine reports for rg and
// far less sensitive than wall time to other load on a shared machine.
type cpuClock struct {
	b     *testing.B
	start time.Duration
}

func startCPUClock(b *testing.B) cpuClock { return cpuClock{b: b, start: processCPU(b)} }

func (c cpuClock) report() {
	c.b.ReportMetric(float64(processCPU(c.b)-c.start)/float64(c.b.N)/1e6, "cpu-ms/op")
}

func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkGrepLiteral searches the Go source tree for a literal; compare
// with `rg -n 'func main\(' $(go env GOROOT)/src`.
func BenchmarkGrepLiteral(b *testing.B) { benchmarkGrep(b, `func main\(`) }

// BenchmarkGrepRegex searches the Go source tree with a regexp; compare with
// `rg -n 'func \w+\(ctx context\.Context' $(go env GOROOT)/src`.
func BenchmarkGrepRegex(b *testing.B) { benchmarkGrep(b, `func \w+\(ctx context\.Context`) }
