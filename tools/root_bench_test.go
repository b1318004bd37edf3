package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchWorkspace makes a workspace with a 200-line file src/a.go.
func benchWorkspace(b *testing.B) *Workspace {
	b.Helper()
	root := b.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		b.Fatal(err)
	}
	var s strings.Builder
	for i := range 200 {
		fmt.Fprintf(&s, "func f%d(ctx context.Context) error { return nil }\n", i)
	}
	if err := os.WriteFile(filepath.Join(root, "src", "a.go"), []byte(s.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	w, err := NewWorkspace(root)
	if err != nil {
		b.Fatal(err)
	}
	return w
}

// BenchmarkReadFileCall measures one read_file call of a 200-line file.
func BenchmarkReadFileCall(b *testing.B) {
	w := benchWorkspace(b)
	t := NewReadFile(w)
	args := json.RawMessage(`{"path":"src/a.go"}`)
	for b.Loop() {
		if r := t.Run(context.Background(), args, nil); r.Status != StatusOK {
			b.Fatal(r.Output)
		}
	}
}

// BenchmarkWriteFileCall measures one write_file call overwriting a file
// the model has read (temporary file, fsync, rename).
func BenchmarkWriteFileCall(b *testing.B) {
	w := benchWorkspace(b)
	if r := NewReadFile(w).Run(context.Background(), json.RawMessage(`{"path":"src/a.go"}`), nil); r.Status != StatusOK {
		b.Fatal(r.Output)
	}
	t := NewWriteFile(w)
	bodies := []json.RawMessage{
		json.RawMessage(`{"path":"src/a.go","content":"package a\n\nfunc A() {}\n"}`),
		json.RawMessage(`{"path":"src/a.go","content":"package a\n\nfunc B() {}\n"}`),
	}
	i := 0
	for b.Loop() {
		if r := t.Run(context.Background(), bodies[i%2], nil); r.Status != StatusOK {
			b.Fatal(r.Output)
		}
		i++
	}
}
