package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// traceInit runs tern --version with the runtime's init trace on and returns
// each package's place in the initialisation order (GODEBUG=inittrace=1).
func traceInit(t *testing.T) map[string]int {
	t.Helper()
	cmd := exec.Command(ternBin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tern --version: %v\n%s", err, out)
	}
	order := map[string]int{}
	for _, line := range strings.Split(string(out), "\n") {
		// init <package> @<t> ms, <t> ms clock, <n> bytes, <n> allocs
		f := strings.Fields(line)
		if len(f) != 11 || f[0] != "init" || f[10] != "allocs" {
			continue
		}
		order[f[1]] = len(order)
	}
	return order
}

// TestStartupWarmsEarly checks, from the runtime's own trace, that the
// package that builds the width tables in the background initialises before
// the Markdown parser's (goldmark's entity table is the heaviest init left),
// so its work runs on another CPU while the rest initialises; and that no
// package of the Markdown stack tern dropped is back: glamour's imports
// (chroma's lexer registry parsed 279 embedded XML lexers at init) were
// 48 ms of the 58 ms every command spent initialising packages.
func TestStartupWarmsEarly(t *testing.T) {
	t.Parallel()
	traces := traceInit(t)
	for pkg := range traces {
		for _, heavy := range []string{"alecthomas/chroma", "charm.land/glamour", "microcosm-cc/bluemonday", "gorilla/css"} {
			if strings.Contains(pkg, heavy) {
				t.Errorf("%s initialises at start-up: tern draws Markdown itself (tui/markdown) to keep it out", pkg)
			}
		}
	}
	parser, ok := traces["github.com/yuin/goldmark/util"]
	if !ok {
		t.Fatalf("goldmark is not in the init trace; packages traced: %d", len(traces))
	}
	warm, ok := traces["github.com/ternhq/tern/internal/warm"]
	if !ok {
		t.Fatal("internal/warm is not in the init trace: is its import gone from main.go?")
	}
	if warm > parser {
		t.Errorf("internal/warm initialises at place %d, after goldmark's util (%d): its goroutine no longer overlaps the init; keep its imports few and early", warm, parser)
	}
}
