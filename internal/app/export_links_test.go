package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ternhq/tern/session"
	"github.com/ternhq/tern/tools"
)

// TestExportFollowsNoLinkInside: /export writes text the model wrote. A
// link planted inside the workspace (a folder linked to .git, a name hard
// linked to a git hook) must not turn the export into a write of
// .git/config or of a hook, which git would run outside the sandbox.
func TestExportFollowsNoLinkInside(t *testing.T) {
	t.Parallel()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	hook := filepath.Join(ws.Root, ".git", "hooks", "post-commit")
	config := filepath.Join(ws.Root, ".git", "config")
	for _, p := range []string{hook, config} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("original\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(".git", filepath.Join(ws.Root, "sub")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(hook, filepath.Join(ws.Root, "hooked.md")); err != nil {
		t.Fatal(err)
	}
	h := session.Header{TernVersion: "test", Workspace: ws.Root, Model: "m", ApprovalPolicy: "ask", SystemPrompt: "sys"}
	log, err := openLog(context.Background(), t.TempDir(), h, nil, false, ws)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = log.close() })
	for _, p := range []string{"sub/config", "sub/hooks/post-commit", ".GIT/config", "hooked.md"} {
		_, _ = log.export(p)
	}
	for _, p := range []string{hook, config} {
		if b, err := os.ReadFile(p); err != nil || string(b) != "original\n" {
			t.Errorf("%s was changed by /export: %q, %v", p, b, err)
		}
	}
}
