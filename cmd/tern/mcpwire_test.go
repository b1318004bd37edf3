package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ternhq/tern/cmd/tern/config"
	"github.com/ternhq/tern/tools/mcp"
)

// TestProjectServersNeedApproval: a workspace's .mcp.json starts nothing
// until its exact content is approved; the interface asks once on the
// terminal, tern run only says so.
func TestProjectServersNeedApproval(t *testing.T) {
	t.Parallel()
	root, home := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(root, mcp.ProjectFile),
		[]byte(`{"mcpServers":{"proj":{"command":"srv"},"dup":{"command":"other"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{Home: config.Value[string]{V: home}, MCPServers: []mcp.ServerConfig{{Name: "dup", Command: "mine"}}}
	names := func(ss []mcp.ServerConfig) string {
		var n []string
		for _, s := range ss {
			n = append(n, s.Name+"="+s.Command)
		}
		return strings.Join(n, " ")
	}
	for _, c := range []struct {
		desc     string
		ask      bool
		terminal bool
		answer   string
		want     string
		notice   string
	}{
		{"headless skips", false, true, "y\n", "dup=mine", "not started"},
		{"no terminal skips", true, false, "y\n", "dup=mine", "not started"},
		{"declined", true, true, "n\n", "dup=mine", "not started"},
		{"approved", true, true, "y\n", "dup=mine proj=srv", "approved"},
		{"remembered", false, false, "", "dup=mine proj=srv", "config.toml names one dup too"},
	} {
		var out, notices bytes.Buffer
		cl := &cli{stdin: strings.NewReader(c.answer), stdinIsTerminal: c.terminal, stdout: &out, stderr: &out}
		got := cl.mcpServers(cfg, root, &notices, c.ask)
		if names(got) != c.want || !strings.Contains(notices.String(), c.notice) {
			t.Errorf("%s: servers %q, notices %q; want %q and %q", c.desc, names(got), notices.String(), c.want, c.notice)
		}
	}
}
