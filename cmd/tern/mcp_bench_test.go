package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestE2EMCPLaunchBench measures tern's launch to the ready input with no
// MCP server and with three stdio servers (the reference server on node),
// alternating, in a 120x40 tmux pane. The servers start in the background,
// so the launch must not be slower. On demand:
//
//	TERN_E2E_BENCH=1 go test -run TestE2EMCPLaunchBench -count=1 -v ./cmd/tern/
func TestE2EMCPLaunchBench(t *testing.T) {
	if os.Getenv("TERN_E2E_BENCH") != "1" {
		t.Skip("on demand: TERN_E2E_BENCH=1 go test -run TestE2EMCPLaunchBench -v ./cmd/tern/")
	}
	needTmux(t)
	node, entry := everythingServer(t)
	g := newMCPGateway(t)
	ws := t.TempDir()
	plain, withMCP := t.TempDir(), t.TempDir()
	var conf strings.Builder
	for i := range 3 {
		fmt.Fprintf(&conf, "[mcp_servers.s%d]\ncommand = %s\nargs = [%s]\n\n", i, tomlQuote(node), tomlQuote(entry))
	}
	if err := os.WriteFile(filepath.Join(withMCP, "config.toml"), []byte(conf.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startTmux(t, tmuxEnv(t, g.srv.URL), ws, "exec cat")
	b := &bench{t: t, c: s.control()}
	launch := func(n int, home string) time.Duration {
		win := fmt.Sprintf("%s:m%d", tmuxSession, n)
		start := time.Now()
		b.must(fmt.Sprintf("new-window -d -t %s: -n m%d -c %s %s", tmuxSession, n, shellQuote(ws),
			shellQuote("exec env TERN_HOME="+shellQuote(home)+" "+shellQuote(ternBin))))
		seen := b.poll(win, 2*time.Millisecond, "the input", func(scr string) bool { return strings.Contains(scr, "› "+placeholder) })
		b.must("kill-window -t " + win)
		return seen.Sub(start)
	}
	var without, with []time.Duration
	for i := range 7 {
		without = append(without, launch(2*i, plain))
		with = append(with, launch(2*i+1, withMCP))
		time.Sleep(2 * time.Second) // the last servers are gone and the CPU is idle again
	}
	t.Logf("launch → input ready, median of 7: no MCP server %v, three stdio servers %v", median(without), median(with))
	if median(with) > median(without)+20*time.Millisecond {
		t.Errorf("three MCP servers slow the launch: %v against %v", median(with), median(without))
	}
}
