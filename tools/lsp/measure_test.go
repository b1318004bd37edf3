package lsp

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/tools"
)

// TestMeasureGoplsOnThisRepository measures, with TERN_LSP_MEASURE=1, what
// gopls costs on this repository: the cold start, the time from an edit to
// its diagnostics (warm), the time an edit without problems waits, and
// gopls's memory. Nothing is written: the edits are sent, not saved.
func TestMeasureGoplsOnThisRepository(t *testing.T) {
	if os.Getenv("TERN_LSP_MEASURE") == "" {
		t.Skip("set TERN_LSP_MEASURE=1 to measure gopls on this repository")
	}
	gopls := goplsOrSkip(t)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	root, _ = filepath.EvalSymlinks(root)
	servers := KnownServers()[:1]
	servers[0].Command = gopls
	m := New(Options{Root: root, Servers: servers, Wait: 60 * time.Second, Env: os.Environ()})
	defer func() { _ = m.Close() }()
	abs := filepath.Join(root, "tools", "cap.go")
	orig, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	start := time.Now()
	rep, _ := m.Changed(ctx, abs, orig)
	t.Logf("cold: first report %s (%d diagnostics, notes %q)", time.Since(start), len(rep.Diagnostics), rep.Notes)

	broken := strings.Replace(string(orig), "return s\n", "return undefinedName\n", 1)
	var bad, clean []time.Duration
	for i := range 10 {
		text := string(orig) + strings.Repeat("\n", i+1) // a new content each time
		s := time.Now()
		rep, _ = m.Changed(ctx, abs, []byte(broken+strings.Repeat("\n", i+1)))
		bad = append(bad, time.Since(s))
		if !slices.ContainsFunc(rep.Diagnostics, func(d tools.Diagnostic) bool { return strings.Contains(d.Message, "undefinedName") }) {
			t.Errorf("edit %d: no undefinedName error: %q %q", i, lines(rep), rep.Notes)
		}
		s = time.Now()
		rep, _ = m.Changed(ctx, abs, []byte(text))
		clean = append(clean, time.Since(s))
		if len(rep.Diagnostics) != 0 {
			t.Errorf("edit %d: clean content has %q", i, lines(rep))
		}
	}
	t.Logf("warm edit with an error → its diagnostics: median %s (all %v)", median(bad), bad)
	t.Logf("warm edit without problems, time added: median %s (all %v)", median(clean), clean)
	c := m.running()[0]
	c.mu.Lock()
	pid := c.proc.cmd.Process.Pid
	c.mu.Unlock()
	if status, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status")); err == nil {
		for _, l := range strings.Split(string(status), "\n") {
			if strings.HasPrefix(l, "VmRSS") || strings.HasPrefix(l, "VmHWM") {
				t.Logf("gopls %s", strings.Join(strings.Fields(l), " "))
			}
		}
	}
	s := time.Now()
	_ = m.Close()
	t.Logf("stop: %s", time.Since(s))
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
