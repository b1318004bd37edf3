package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Bounds on what package initialisation allocates, from the runtime's init
// trace of tern --version: counts, not times, so a loaded machine does not
// move them. Measured at 1.0 MB in 6,300 allocations (2026-12, issue 20,
// once tern drew Markdown itself: with glamour and chroma's lexer and style
// registries it was 7.3 MB in 88,700); a package that parses a database or
// compiles a large table at init crosses them.
const (
	maxInitBytes  = 3 << 20
	maxInitAllocs = 20_000
)

// TestStartupInitCost keeps the cost of package initialisation, which
// every command pays before it starts (tern run, tern sessions), bounded.
func TestStartupInitCost(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(ternBin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tern --version: %v\n%s", err, out)
	}
	var bytes, allocs int64
	type pkg struct {
		name          string
		bytes, allocs int64
	}
	var heaviest pkg
	for _, line := range strings.Split(string(out), "\n") {
		// init <package> @<t> ms, <t> ms clock, <n> bytes, <n> allocs
		f := strings.Fields(line)
		if len(f) != 11 || f[0] != "init" || f[10] != "allocs" {
			continue
		}
		b, err1 := strconv.ParseInt(f[7], 10, 64)
		a, err2 := strconv.ParseInt(f[9], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("unexpected init trace line %q", line)
		}
		bytes, allocs = bytes+b, allocs+a
		if b > heaviest.bytes {
			heaviest = pkg{f[1], b, a}
		}
	}
	if allocs == 0 {
		t.Fatalf("no init trace in the output of tern --version:\n%s", out)
	}
	t.Logf("package init: %.1f MB in %d allocations; heaviest %s (%.1f MB, %d)", float64(bytes)/(1<<20), allocs, heaviest.name, float64(heaviest.bytes)/(1<<20), heaviest.allocs)
	if bytes > maxInitBytes || allocs > maxInitAllocs {
		t.Errorf("package init allocates %.1f MB in %d allocations, over the bound of %.0f MB and %d: what new work runs at init? (GODEBUG=inittrace=1 tern --version)",
			float64(bytes)/(1<<20), allocs, float64(maxInitBytes)/(1<<20), maxInitAllocs)
	}
}

// TestRunStartsNoGitWithoutTools checks that a headless run whose answer
// uses no tool never opens the snapshot repository: git starts only when a
// tool needs it (the two git processes were a seventh of a short run).
func TestRunStartsNoGitWithoutTools(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	ws := t.TempDir()
	git := exec.Command("git", "init", "-q")
	git.Dir = ws
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	home := filepath.Join(t.TempDir(), ".tern")
	r := tern(t, ws, map[string]string{"TERN_HOME": home}, "", "run", "hello")
	if r.code != exitOK {
		t.Fatalf("tern run: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(home, "shadow")); !os.IsNotExist(err) {
		t.Errorf("a run without tools opened a snapshot repository under %s (stat: %v)", home, err)
	}
}
