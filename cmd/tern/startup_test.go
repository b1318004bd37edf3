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

// TestStartupOverlapsHighlighter checks, from the runtime's own trace, what
// keeps chroma's cost at start-up from adding to the launch: its lexer and
// style registries are built while packages initialise (upstream chroma
// parses every embedded lexer and style there), and the package that builds
// the width tables in the background initialises before chroma's lexers, so
// its work runs on another CPU while they are built.
func TestStartupOverlapsHighlighter(t *testing.T) {
	t.Parallel()
	traces := traceInit(t)
	lexers, ok := traces["github.com/alecthomas/chroma/v2/lexers"]
	if !ok {
		t.Fatalf("chroma's lexers are not in the init trace; packages traced: %d", len(traces))
	}
	warm, ok := traces["github.com/ternhq/tern/internal/warm"]
	if !ok {
		t.Fatal("internal/warm is not in the init trace: is its import gone from main.go?")
	}
	if warm > lexers {
		t.Errorf("internal/warm initialises at place %d, after chroma's lexers (%d): its goroutine no longer overlaps them; keep its imports few and early", warm, lexers)
	}
}
