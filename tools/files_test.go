package tools

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestWorkspaceFiles(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for name, body := range map[string]string{
		".gitignore":     "build/\n*.log\n",
		"main.go":        "package main\n",
		"a/b.go":         "package a\n",
		"build/out.bin":  "x",
		"debug.log":      "x",
		".env":           "SECRET=1\n",
		".git/config":    "[core]\n",
		"docs/readme.md": "# hi\n",
		"docs/sub/x.txt": "x",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		max  int
		want []string
	}{
		{"all", 0, []string{".gitignore", "a/b.go", "docs/readme.md", "docs/sub/x.txt", "main.go"}},
		{"limited", 2, []string{".gitignore", "a/b.go"}},
	} {
		got, err := w.ListFiles(context.Background(), tc.max)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
