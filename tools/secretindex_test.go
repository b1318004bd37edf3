package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// scanWorkspace makes a workspace with a/x.txt, b/sub/.env holding marker
// and notes.txt, a hard link to that .env; the folders are left to settle
// a little, so the scan's times can tell a change made during it.
func scanWorkspace(t *testing.T, marker string) (*Workspace, string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for p, c := range map[string]string{
		filepath.Join(root, "a", "x.txt"):          "plain\n",
		filepath.Join(root, "b", "sub", ".env"):    marker,
		filepath.Join(root, "b", "sub", "y.txt"):   "plain\n",
		filepath.Join(root, "c", "z.txt"):          "plain\n",
		filepath.Join(root, ".git", "config"):      "",
		filepath.Join(root, "a", "deeper", "q.md"): "plain\n",
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(filepath.Join(root, "b", "sub", ".env"), filepath.Join(root, "notes.txt")); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	w, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(30 * time.Millisecond) // past a coarse clock tick
	return w, root
}

// TestSecretScanFolderMovedDuringScan: the folder holding .env is moved,
// while the scan runs, from a part it has not read yet into one it has
// read. No listing then names .env, without any error; the scan must not
// call itself complete, so the hard link to .env is refused, never shown.
// (The same as a listing that misses an entry because its folder changed
// while it was read, which some file systems do under a rename beside it:
// the scan cannot trust a folder that changed.)
func TestSecretScanFolderMovedDuringScan(t *testing.T) {
	const marker = "SCAN-MOVED-SECRET-41f7"
	w, root := scanWorkspace(t, marker)
	oldSettle := secretScanSettle
	secretScanSettle = 0 // only a change during the scan counts here
	defer func() { secretScanSettle, secretScanRead = oldSettle, nil }()
	moved := false
	secretScanRead = func(rel string) {
		if rel == "a" && !moved {
			moved = true
			if err := os.Rename(filepath.Join(root, "b", "sub"), filepath.Join(root, "a", "sub")); err != nil {
				t.Error(err)
			}
		}
	}
	byID, state := scanSecretsOnce(w, w.fsys)
	if !moved {
		t.Fatal("the scan never read a")
	}
	if state == scanDone {
		t.Fatalf("a scan that missed the moved .env calls itself complete: %v", byID)
	}

	// Through the tools: the first scan is disturbed again each time, the
	// later ones see the folder where it is now and know .env.
	moved = false
	secretScanRead = func(rel string) {
		if rel == "a" && !moved {
			moved = true
			if err := os.Rename(filepath.Join(root, "a", "sub"), filepath.Join(root, "b", "sub")); err != nil {
				t.Error(err)
			}
		}
	}
	for _, c := range []struct {
		tool Tool
		args string
	}{
		{NewGrep(w), `{"pattern":"SCAN-MOVED"}`},
		{NewReadFile(w), `{"path":"notes.txt"}`},
	} {
		res := c.tool.Run(context.Background(), json.RawMessage(c.args), nil)
		if strings.Contains(res.Output, marker) {
			t.Errorf("%s %s leaked: %q", c.tool.Spec().Name, c.args, res.Output)
		}
	}
	if !moved {
		t.Error("no tool scanned for secrets")
	}
}

// TestSecretScanSettled: a quiet workspace is scanned completely and the
// scan knows .env, wherever it is; a folder that cannot be read makes the
// scan incomplete rather than leaving it out.
func TestSecretScanSettled(t *testing.T) {
	const marker = "SCAN-SETTLED-SECRET-9a2c"
	w, root := scanWorkspace(t, marker)
	byID, complete := w.scanSecrets()
	for id, p := range byID {
		if inGitDir(p) {
			delete(byID, id) // .git's own files are known too (gitFiles)
		}
	}
	if !complete || len(byID) != 1 {
		t.Fatalf("scan of a quiet workspace: %v, complete %v", byID, complete)
	}
	for _, p := range byID {
		if p != "b/sub/.env" {
			t.Errorf("secret found as %q", p)
		}
	}
	if os.Geteuid() == 0 {
		t.Skip("root reads any folder")
	}
	locked := filepath.Join(root, "c")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = os.Chmod(locked, 0o755) }()
	if _, complete := w.scanSecrets(); complete {
		t.Error("a scan that could not read c calls itself complete")
	}
}
