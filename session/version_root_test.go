package session

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestRestoreStaysInWorkspace checks that a rewind or undo writing a file
// back, or removing it, never acts outside the workspace when a folder on
// the way was replaced by a symlink to outside since it was checkpointed.
func TestRestoreStaysInWorkspace(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	root := filepath.Join(base, "ws")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{root, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	victim := filepath.Join(outside, "x.txt")
	if err := os.WriteFile(victim, []byte("outside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "d")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, ".bashrc"), []byte("rc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	store := NewStore(filepath.Join(base, "session.jsonl"))
	hash, err := store.Save([]byte("restored\n"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		rel  string
		v    fileVersion
	}{
		{"remove through a swapped folder", "d/x.txt", fileVersion{kind: versionAbsent}},
		{"write through a swapped folder", "d/.bashrc", versionOfHash(hash)},
		{"create through a swapped folder", "d/new.txt", versionOfHash(hash)},
	}
	for _, tt := range tests {
		if _, err := restoreFile(context.Background(), root, tt.rel, tt.v, store, nil); err == nil {
			t.Errorf("%s: restoring %s succeeded", tt.name, tt.rel)
		}
	}
	if b, err := os.ReadFile(victim); err != nil || string(b) != "outside\n" {
		t.Errorf("the file outside was changed: %q, %v", b, err)
	}
	if b, err := os.ReadFile(filepath.Join(outside, ".bashrc")); err != nil || string(b) != "rc\n" {
		t.Errorf(".bashrc outside was changed: %q, %v", b, err)
	}
	entries, err := os.ReadDir(outside)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Errorf("files appeared outside: %v", entries)
	}
}
