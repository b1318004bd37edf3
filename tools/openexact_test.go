package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadFileInsideFollowsNoLink: what a checkpoint saves before a tool
// replaces a file (and a rewind compares) is read by the exact name the
// tool resolved. A name swapped for a link since, to .env or into .git,
// must fail the read, not save the secret into the session's store, from
// which /rewind would write it back as an ordinary, readable file.
func TestReadFileInsideFollowsNoLink(t *testing.T) {
	t.Parallel()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	const marker = "EXACT-SECRET-3b7f"
	for p, c := range map[string]string{
		".env":        marker,
		".git/config": marker,
		"real/a.txt":  "plain",
	} {
		p = filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"notes.txt": ".env", "d": ".git"} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	w, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"notes.txt", "d/config"} {
		if b, err := w.ReadFileInside(rel); err == nil || strings.Contains(string(b), marker) {
			t.Errorf("ReadFileInside(%q) = %q, %v; want an error", rel, b, err)
		}
	}
	if b, err := w.ReadFileInside("real/a.txt"); err != nil || string(b) != "plain" {
		t.Errorf("ReadFileInside(real/a.txt) = %q, %v", b, err)
	}
}

// TestWriteRefusesGitDirAnyCase: on a case-insensitive file system
// .GIT/config is .git/config, so the file tools' refusal to write into
// .git must not depend on the letter case, on any system.
func TestWriteRefusesGitDirAnyCase(t *testing.T) {
	t.Parallel()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{".GIT/config", ".Git/hooks/post-commit", "sub/.gIt/config"} {
		args, _ := json.Marshal(map[string]string{"path": p, "content": "[alias]\n\tx = !sh\n"})
		res := NewWriteFile(w).Run(context.Background(), args, nil)
		if res.Status == StatusOK {
			t.Errorf("write_file %s was written: %s", p, res.Output)
		}
	}
}
