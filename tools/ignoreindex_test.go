package tools

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// indexTestRules mixes every shape of rule the index sorts: literals with
// and without a slash, directory-only ones, suffixes, patterns with a
// literal start, patterns starting with a wildcard, negations and repeats.
const indexTestRules = "*.log\n!keep.log\nbuild/\n/top.txt\ndocs/*.html\n**/gen/**\na/**/z.txt\n" +
	"file{1,2}.txt\n[ab]?.c\nnode_modules/\n!node_modules/\nnode_modules\n/d1/ignored1/\n" +
	"gen_1_*.tmp\n!gen_1_keep.tmp\n*~\nfoo*bar\n!/docs/keep.html\ndocs/\n!docs/\nx?\n/x1\n"

// TestIgnoreIndexAgreesWithRules checks the index against trying every
// rule from the last, on paths that hit each kind of rule.
func TestIgnoreIndexAgreesWithRules(t *testing.T) {
	t.Parallel()
	rules := parseIgnore(indexTestRules)
	x := newIgnoreIndex(rules)
	names := []string{"x.log", "keep.log", "build", "top.txt", "a.html", "gen", "z.txt", "file{1,2}.txt",
		"ax.c", "node_modules", "ignored1", "gen_1_a.tmp", "gen_1_keep.tmp", "f~", "fooxbar", "keep.html",
		"docs", "x1", "x", "main.go", ""}
	dirs := []string{"", "docs", "a", "a/b", "d1", "src/gen", "x"}
	for _, dir := range dirs {
		for _, name := range names {
			sub := name
			if dir != "" {
				sub = dir + "/" + name
			}
			for _, isDir := range []bool{false, true} {
				want := -1
				for j := len(rules) - 1; j >= 0; j-- {
					if rules[j].match(sub, name, isDir) {
						want = j
						break
					}
				}
				if got := x.last(rules, sub, name, isDir); got != want {
					t.Errorf("last(%q, dir=%v) = %d, want %d", sub, isDir, got, want)
				}
			}
		}
	}
}

// TestIgnoredManyRulesIsFast bounds matching against a 2,000-rule
// .gitignore (issue 20's big repository): trying each rule in turn took
// about 20 µs a path; the index takes well under one.
func TestIgnoredManyRulesIsFast(t *testing.T) {
	t.Parallel()
	stack := ignoreStack{&ignoreFile{rules: parseIgnore(manyIgnoreRules(2000))}}
	const paths = 20000
	start := time.Now()
	for i := range paths {
		if stack.ignored(fmt.Sprintf("d%d/s%d/f%d.go", i%20, i%50, i), false) {
			t.Fatal("an ordinary file was ignored")
		}
	}
	// 20,000 paths: about 0.4 s rule by rule on a quiet machine, a few ms
	// indexed; the bound leaves room for a loaded one.
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("%d paths took %v", paths, d)
	}
	if !stack.ignored("d3/ignored3", true) || !stack.ignored("x/gen_7_a.tmp", false) || !stack.ignored("node_modules", true) {
		t.Error("rules of the big .gitignore do not apply")
	}
}

// manyIgnoreRules returns a .gitignore of 2*n+3 rules, as internal/gen
// writes for the big repository.
func manyIgnoreRules(n int) string {
	var b strings.Builder
	b.WriteString("/build/\n*.log\nnode_modules/\n")
	for i := range n {
		fmt.Fprintf(&b, "gen_%d_*.tmp\n/d%d/ignored%d/\n", i, i%20, i)
	}
	return b.String()
}

// BenchmarkIgnored measures one path against a 4,003-rule .gitignore.
func BenchmarkIgnored(b *testing.B) {
	stack := ignoreStack{&ignoreFile{rules: parseIgnore(manyIgnoreRules(2000))}}
	for b.Loop() {
		stack.ignored("d3/s7/t9/f1234.go", false)
	}
}
