package config

import (
	"strings"
	"testing"
	"time"
)

func TestMCPServers(t *testing.T) {
	t.Parallel()
	home := writeHome(t, `
mcp_trust_read_only = true

[mcp_servers.github]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-github"]
env = { GITHUB_TOKEN = "$GITHUB_TOKEN" }
startup_timeout = 5
tool_timeout = "90s"

[mcp_servers.docs]
url = "https://mcp.example.com/mcp"
headers = { Authorization = "Bearer $TOKEN" }
enabled = false
`)
	c, err := Load(Inputs{Getenv: envFunc(map[string]string{EnvHome: home})})
	if err != nil {
		t.Fatal(err)
	}
	if !c.MCPTrustReadOnly.V || c.MCPTrustReadOnly.Source.Kind != SourceFile {
		t.Errorf("trust %+v", c.MCPTrustReadOnly)
	}
	if len(c.MCPServers) != 2 {
		t.Fatalf("servers %+v", c.MCPServers)
	}
	d, g := c.MCPServers[0], c.MCPServers[1]
	if d.Name != "docs" || d.URL != "https://mcp.example.com/mcp" || d.Headers["Authorization"] != "Bearer $TOKEN" || !d.Disabled {
		t.Errorf("docs %+v", d)
	}
	if g.Name != "github" || g.Command != "npx" || len(g.Args) != 2 || g.Env["GITHUB_TOKEN"] != "$GITHUB_TOKEN" ||
		g.StartupTimeout != 5*time.Second || g.ToolTimeout != 90*time.Second || g.Disabled {
		t.Errorf("github %+v", g)
	}
}

func TestMCPServerErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ toml, want string }{
		{"[mcp_servers.x]\nargs = [\"a\"]\n", "set command"},
		{"[mcp_servers.x]\ncommand = \"a\"\nurl = \"http://h\"\n", "not both"},
		{"[mcp_servers.\"a b\"]\ncommand = \"a\"\n", "letters, digits"},
		{"[mcp_servers.x]\ncommand = \"a\"\nstartup_timeout = \"soon\"\n", "not a duration"},
		{"[mcp_servers.x]\ncommand = \"a\"\ncolour = 1\n", "unknown keys"},
	} {
		home := writeHome(t, c.toml)
		_, err := Load(Inputs{Getenv: envFunc(map[string]string{EnvHome: home})})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err %v, want %q", c.toml, err, c.want)
		}
	}
}
