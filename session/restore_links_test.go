package session

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestRestoreFollowsNoLinkInside: a rewind writes back content the model
// wrote, or removes files the model created. A folder swapped since for a
// link inside the workspace, to .git or .git/hooks, must not turn that
// into writing a git hook or removing .git/config; nor may a path named
// .GIT in another case.
func TestRestoreFollowsNoLinkInside(t *testing.T) {
	t.Parallel()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	gitDir := filepath.Join(root, ".git")
	if err := os.MkdirAll(filepath.Join(gitDir, "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(gitDir, "config")
	if err := os.WriteFile(config, []byte("[core]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"h": ".git/hooks", "g": ".git"} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	store := NewStore(filepath.Join(t.TempDir(), "session.jsonl"))
	hash, err := store.Save([]byte("#!/bin/sh\ntouch pwned\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		rel string
		v   fileVersion
	}{
		{"h/post-commit", versionOfHash(hash)},
		{"g/config", fileVersion{kind: versionAbsent}},
		{"g/hooks/pre-commit", versionOfHash(hash)},
		{".GIT/hooks/post-merge", versionOfHash(hash)},
	} {
		if _, err := restoreFile(context.Background(), root, tc.rel, tc.v, store, nil); err == nil {
			t.Errorf("restoring %s succeeded", tc.rel)
		}
	}
	if b, err := os.ReadFile(config); err != nil || string(b) != "[core]\n" {
		t.Errorf(".git/config was changed: %q, %v", b, err)
	}
	entries, _ := os.ReadDir(filepath.Join(gitDir, "hooks"))
	if len(entries) != 0 {
		t.Errorf("hooks appeared in .git/hooks: %v", entries)
	}
}
