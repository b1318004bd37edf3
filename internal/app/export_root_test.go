package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ternhq/tern/session"
	"github.com/ternhq/tern/tools"
)

// TestExportInsideWorkspaceStaysInside checks that /export into the
// workspace does not follow a symlink planted there to a file outside,
// while a path the user names outside the workspace is still written.
func TestExportInsideWorkspaceStaysInside(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(base, "bashrc")
	if err := os.WriteFile(victim, []byte("rc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(ws.Root, "notes.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(base, filepath.Join(ws.Root, "out")); err != nil {
		t.Fatal(err)
	}
	h := session.Header{TernVersion: "test", Workspace: ws.Root, Model: "m", ApprovalPolicy: "ask", SystemPrompt: "sys"}
	log, err := openLog(context.Background(), t.TempDir(), h, nil, false, ws)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = log.close() })

	for _, p := range []string{"notes.md", filepath.Join(ws.Root, "notes.md"), "out/new.md"} {
		if _, err := log.export(p); err == nil {
			t.Errorf("export to %s, a link out of the workspace, succeeded", p)
		}
	}
	if b, err := os.ReadFile(victim); err != nil || string(b) != "rc\n" {
		t.Errorf("the file outside was overwritten: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(base, "new.md")); err == nil {
		t.Error("export created a file outside through a linked folder")
	}
	// Named explicitly outside the workspace: the user's choice.
	mine := filepath.Join(base, "mine.md")
	if _, err := log.export(mine); err != nil {
		t.Fatalf("export to %s: %v", mine, err)
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("export did not write %s: %v", mine, err)
	}
}
