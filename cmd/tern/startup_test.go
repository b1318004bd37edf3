package main

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// initTrace is one package's line of GODEBUG=inittrace=1 output.
type initTrace struct {
	order  int
	allocs int
}

// traceInit runs tern --version with the runtime's init trace on and returns
// each package's place in the initialisation order and its allocations.
func traceInit(t *testing.T) map[string]initTrace {
	t.Helper()
	cmd := exec.Command(ternBin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tern --version: %v\n%s", err, out)
	}
	traces := map[string]initTrace{}
	for _, line := range strings.Split(string(out), "\n") {
		// init <package> @<t> ms, <t> ms clock, <n> bytes, <n> allocs
		f := strings.Fields(line)
		if len(f) != 11 || f[0] != "init" || f[10] != "allocs" {
			continue
		}
		n, err := strconv.Atoi(f[9])
		if err != nil {
			t.Fatalf("allocations in %q: %v", line, err)
		}
		traces[f[1]] = initTrace{order: len(traces), allocs: n}
	}
	return traces
}

// TestStartupLeavesHighlighterForLater checks what keeps tern's start-up
// short, from the runtime's own trace: chroma's lexer and style registries
// are not built while packages initialise (tern's copy of chroma fills them
// on first use; upstream allocates 25,859 and 34,056 times there), and the
// package that builds the width tables in the background initialises before
// chroma's lexers, so its work overlaps theirs.
func TestStartupLeavesHighlighterForLater(t *testing.T) {
	t.Parallel()
	traces := traceInit(t)
	const most = 2000 // the lexers package still builds a few lexers defined in Go
	for _, pkg := range []string{"github.com/alecthomas/chroma/v2/lexers", "github.com/alecthomas/chroma/v2/styles"} {
		tr, ok := traces[pkg]
		if !ok {
			t.Fatalf("%s is not in the init trace; packages traced: %d", pkg, len(traces))
		}
		if tr.allocs > most {
			t.Errorf("%s allocates %d times while initialising, want at most %d: is the replace of chroma by _third_party/chroma gone from go.mod?", pkg, tr.allocs, most)
		}
	}
	warm, ok := traces["github.com/ternhq/tern/internal/warm"]
	if !ok {
		t.Fatal("internal/warm is not in the init trace: is its import gone from main.go?")
	}
	if lexers := traces["github.com/alecthomas/chroma/v2/lexers"]; warm.order > lexers.order {
		t.Errorf("internal/warm initialises at place %d, after chroma's lexers (%d): its goroutine no longer overlaps them; keep its imports few and early", warm.order, lexers.order)
	}
}
