package config

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ternhq/tern/tools/mcp"
)

func TestAddAndRemoveMCPServerKeepComments(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "config.toml")
	orig := "# my settings\nmodel = \"m\" # the model\n\n[mcp_servers.keep]\n# keep this one\ncommand = \"a\"\n\n[mcp_servers.keep.env]\nX = \"1\"\n\n[models.\"m\"]\ncontext_window = 1000\n"
	if err := os.WriteFile(path, []byte(orig), 0o600); err != nil {
		t.Fatal(err)
	}
	add := mcp.ServerConfig{Name: "gh", Command: "npx", Args: []string{"-y", `we"ird`}, Env: map[string]string{"GITHUB_TOKEN": "$GITHUB_TOKEN"}, ToolTimeout: 90 * time.Second}
	if err := AddMCPServer(path, add); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want := orig + "\n[mcp_servers.gh]\ncommand = \"npx\"\nargs = [\"-y\", \"we\\\"ird\"]\nenv = { \"GITHUB_TOKEN\" = \"$GITHUB_TOKEN\" }\ntool_timeout = 90\n"
	if string(got) != want {
		t.Fatalf("after add:\n%s\nwant:\n%s", got, want)
	}
	if err := AddMCPServer(path, add); err == nil {
		t.Error("added the same name twice")
	}
	if err := AddMCPServer(path, mcp.ServerConfig{Name: "web", URL: "https://h/mcp", Headers: map[string]string{"Authorization": "Bearer $T"}}); err != nil {
		t.Fatal(err)
	}
	if err := RemoveMCPServer(path, "keep"); err != nil {
		t.Fatal(err)
	}
	if err := RemoveMCPServer(path, "gh"); err != nil {
		t.Fatal(err)
	}
	got, _ = os.ReadFile(path)
	want = "# my settings\nmodel = \"m\" # the model\n\n[models.\"m\"]\ncontext_window = 1000\n\n[mcp_servers.web]\nurl = \"https://h/mcp\"\nheaders = { \"Authorization\" = \"Bearer $T\" }\n"
	if string(got) != want {
		t.Fatalf("after remove:\n%s\nwant:\n%s", got, want)
	}
	if err := RemoveMCPServer(path, "nope"); err == nil {
		t.Error("removed a server that is not there")
	}
}
