// Package toolstest holds the workspaces tests of several packages share:
// the agent's and the approval engine's tests judge the same protected
// files. Only tests import it (cmd/tern's fitness test enforces that).
package toolstest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ternhq/tern/tools"
)

// ProtectedWorkspace makes a workspace that is a git repository (written
// by hand: no git needed) with core.hooksPath set, a hook, husky hooks,
// memory files and tern settings: every kind of file tern protects.
func ProtectedWorkspace(t testing.TB) *tools.Workspace {
	t.Helper()
	files := map[string]string{
		".git/config":            "[core]\n\tbare = false\n\thooksPath = scripts/hooks\n",
		".git/HEAD":              "ref: refs/heads/main\n",
		".git/hooks/pre-commit":  "#!/bin/sh\ngo vet ./...\n",
		"scripts/hooks/pre-push": "#!/bin/sh\ngo test ./...\n",
		".husky/pre-commit":      "npm test\n",
		"AGENTS.md":              "# rules\n- be careful\n",
		"CLAUDE.md":              "# more rules\n",
		".tern/config.toml":      "approval = \"ask\"\n",
		"main.go":                "package main\n",
	}
	dir := t.TempDir()
	for rel, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	return ws
}
