package tools

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fakeEditor holds buffers by absolute path and records what it was asked.
type fakeEditor struct {
	mu       sync.Mutex
	buffers  map[string]string
	reads    []string
	writes   []string
	noWrites bool
}

func (e *fakeEditor) ReadText(_ context.Context, abs string) (string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.reads = append(e.reads, abs)
	s, ok := e.buffers[abs]
	if !ok {
		return "", errors.New("no buffer")
	}
	return s, nil
}

func (e *fakeEditor) WriteText(_ context.Context, abs, content string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.noWrites {
		return ErrNotDelegated
	}
	e.writes = append(e.writes, abs)
	e.buffers[abs] = content
	return nil
}

func editorWorkspace(t *testing.T) (*Workspace, *fakeEditor, *hookLog) {
	t.Helper()
	w, err := NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w.Secrets = []string{".env"}
	e := &fakeEditor{buffers: map[string]string{}}
	w.Editor = e
	h := &hookLog{}
	h.install(w)
	return w, e, h
}

func runArgs(t *testing.T, tool Tool, args string) Result {
	t.Helper()
	return tool.Run(context.Background(), json.RawMessage(args), nil)
}

func TestEditorBufferWinsOverDisk(t *testing.T) {
	t.Parallel()
	w, e, h := editorWorkspace(t)
	abs := filepath.Join(w.Root, "a.txt")
	if err := os.WriteFile(abs, []byte("disk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.buffers[abs] = "buffer, unsaved\n"
	if r := runArgs(t, NewReadFile(w), `{"path":"a.txt"}`); r.Status != StatusOK || !strings.Contains(r.Output, "buffer, unsaved") {
		t.Fatalf("read_file: %+v", r)
	}
	r := runArgs(t, NewEditFile(w), `{"path":"a.txt","old_string":"unsaved","new_string":"edited"}`)
	if r.Status != StatusOK {
		t.Fatalf("edit_file: %+v", r)
	}
	if e.buffers[abs] != "buffer, edited\n" || len(e.writes) != 1 {
		t.Errorf("editor holds %q after %d writes", e.buffers[abs], len(e.writes))
	}
	if b, _ := os.ReadFile(abs); string(b) != "disk\n" {
		t.Errorf("the disk changed: %q (the editor writes it)", b)
	}
	if log := h.log(); !strings.Contains(log, "before a.txt") || !strings.Contains(log, "after a.txt content=buffer, edited") {
		t.Errorf("checkpoints:\n%s", log)
	}
}

func TestEditorStillGuarded(t *testing.T) {
	t.Parallel()
	w, e, _ := editorWorkspace(t)
	env := filepath.Join(w.Root, ".env")
	if err := os.WriteFile(env, []byte("KEY=1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e.buffers[env] = "KEY=secret-from-buffer\n"
	for _, tc := range []struct {
		tool Tool
		args string
	}{
		{NewReadFile(w), `{"path":".env"}`},
		{NewReadFile(w), `{"path":"../outside.txt"}`},
		{NewWriteFile(w), `{"path":"../outside.txt","content":"x"}`},
		{NewWriteFile(w), `{"path":".git/config","content":"x"}`},
	} {
		if r := runArgs(t, tc.tool, tc.args); r.Status == StatusOK || strings.Contains(r.Output, "secret-from-buffer") {
			t.Errorf("%s %s: %+v", tc.tool.Spec().Name, tc.args, r)
		}
	}
	if len(e.reads) != 0 || len(e.writes) != 0 {
		t.Errorf("the editor was asked for refused files: reads %q writes %q", e.reads, e.writes)
	}
}

func TestEditorWrites(t *testing.T) {
	t.Parallel()
	w, e, _ := editorWorkspace(t)
	// A new file in an existing folder goes to the editor; in a folder that
	// does not exist yet, to the disk (which makes the folders).
	if r := runArgs(t, NewWriteFile(w), `{"path":"new.txt","content":"hi\n"}`); r.Status != StatusOK {
		t.Fatal(r)
	}
	if e.buffers[filepath.Join(w.Root, "new.txt")] != "hi\n" {
		t.Errorf("new.txt not written through the editor: %q", e.writes)
	}
	if r := runArgs(t, NewWriteFile(w), `{"path":"sub/dir/f.txt","content":"x\n"}`); r.Status != StatusOK {
		t.Fatal(r)
	}
	if b, err := os.ReadFile(filepath.Join(w.Root, "sub/dir/f.txt")); err != nil || string(b) != "x\n" {
		t.Errorf("sub/dir/f.txt on disk: %q %v", b, err)
	}
	// An editor that only reads leaves writes to the disk.
	e.noWrites = true
	if r := runArgs(t, NewWriteFile(w), `{"path":"disk.txt","content":"d\n"}`); r.Status != StatusOK {
		t.Fatal(r)
	}
	if b, err := os.ReadFile(filepath.Join(w.Root, "disk.txt")); err != nil || string(b) != "d\n" {
		t.Errorf("disk.txt: %q %v", b, err)
	}
}
