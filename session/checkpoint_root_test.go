package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ternhq/tern/tools"
)

// TestCheckpointReadsOnlyInsideWorkspace checks that saving a file before a
// tool changes it never reads a file outside the workspace, when the file
// or a folder on its way was swapped for a symlink to outside.
func TestCheckpointReadsOnlyInsideWorkspace(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	root := filepath.Join(base, "ws")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{root, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	const marker = "OUTSIDE-CHECKPOINT-MARKER"
	if err := os.WriteFile(filepath.Join(outside, "id_ed25519"), []byte(marker), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "d")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "id_ed25519"), filepath.Join(root, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	w, err := Create(t.TempDir(), testHeader())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Close() })
	rec := NewRecorder(w)
	for _, installed := range []bool{true, false} {
		cp := NewCheckpointer(rec, nil)
		if installed {
			cp.Install(ws)
		}
		for _, rel := range []string{"d/id_ed25519", "notes.txt"} {
			if err := cp.BeforeWrite(filepath.Join(root, filepath.FromSlash(rel)), rel); err == nil {
				t.Errorf("installed %v: checkpointing %s, a link out of the workspace, succeeded", installed, rel)
			}
		}
	}
	err = filepath.WalkDir(rec.Store().Dir(), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if b, _ := os.ReadFile(p); strings.Contains(string(b), marker) {
			t.Errorf("the checkpoint store holds the outside file: %s", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
