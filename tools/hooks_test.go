package tools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// hookLog records what the workspace hooks saw, and the file's content at
// each call, so a test can tell whether a hook ran before or after the change.
type hookLog struct {
	mu     sync.Mutex
	w      *Workspace
	events []string
	fail   error
}

func (h *hookLog) add(s string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events = append(h.events, s)
}

func (h *hookLog) onDisk(abs string) string {
	b, err := os.ReadFile(abs)
	if errors.Is(err, os.ErrNotExist) {
		return "<absent>"
	}
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

func (h *hookLog) install(w *Workspace) {
	h.w = w
	w.BeforeWrite = func(abs, rel string) error {
		h.add("before " + rel + " disk=" + h.onDisk(abs))
		return h.fail
	}
	w.AfterWrite = func(abs, rel string, content []byte) {
		h.add("after " + rel + " content=" + string(content) + " disk=" + h.onDisk(abs))
	}
	w.BeforeCommand = func(_ context.Context, command string) func() {
		f := filepath.Join(w.Root, "made")
		h.add("command " + command + " disk=" + h.onDisk(f))
		return func() { h.add("command done disk=" + h.onDisk(f)) }
	}
}

func (h *hookLog) log() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return strings.Join(h.events, "\n")
}

func TestWorkspaceHooks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tests := []struct {
		name string
		run  func(w *Workspace) Result
		want string
	}{
		{
			name: "edit",
			run: func(w *Workspace) Result {
				return NewEditFile(w).Run(ctx, toolArgs(t, map[string]any{"path": "a.txt", "old_string": "one", "new_string": "two"}), nil)
			},
			want: "before a.txt disk=one\nafter a.txt content=two disk=two",
		},
		{
			name: "overwrite",
			run: func(w *Workspace) Result {
				return NewWriteFile(w).Run(ctx, toolArgs(t, map[string]any{"path": "a.txt", "content": "three"}), nil)
			},
			want: "before a.txt disk=one\nafter a.txt content=three disk=three",
		},
		{
			name: "create",
			run: func(w *Workspace) Result {
				return NewWriteFile(w).Run(ctx, toolArgs(t, map[string]any{"path": "new/b.txt", "content": "fresh"}), nil)
			},
			want: "before new/b.txt disk=<absent>\nafter new/b.txt content=fresh disk=fresh",
		},
		{
			name: "shell",
			run: func(w *Workspace) Result {
				return NewRunShell(w, os.Environ()).Run(ctx, toolArgs(t, map[string]any{"command": "sleep 0.05; echo hi > made"}), nil)
			},
			want: "command sleep 0.05; echo hi > made disk=<absent>\ncommand done disk=hi\n",
		},
		{
			name: "failed edit does not call the hooks",
			run: func(w *Workspace) Result {
				return NewEditFile(w).Run(ctx, toolArgs(t, map[string]any{"path": "a.txt", "old_string": "missing", "new_string": "x"}), nil)
			},
			want: "",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newFileToolWorkspace(t, map[string]string{"a.txt": "one"})
			h := &hookLog{}
			h.install(w)
			tc.run(w)
			if got := h.log(); got != tc.want {
				t.Errorf("hooks saw:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

func TestBeforeWriteErrorStopsTheChange(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, name := range []string{"edit_file", "write_file"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := newFileToolWorkspace(t, map[string]string{"a.txt": "one"})
			h := &hookLog{fail: errors.New("disk full")}
			h.install(w)
			var res Result
			if name == "edit_file" {
				res = NewEditFile(w).Run(ctx, toolArgs(t, map[string]any{"path": "a.txt", "old_string": "one", "new_string": "two"}), nil)
			} else {
				res = NewWriteFile(w).Run(ctx, toolArgs(t, map[string]any{"path": "a.txt", "content": "two"}), nil)
			}
			if res.Status != StatusError || !strings.Contains(res.Output, "disk full") {
				t.Errorf("result = %+v, want an error naming the cause", res)
			}
			if got, _ := fileContent(t, w, "a.txt"); got != "one" {
				t.Errorf("file = %q, want it unchanged", got)
			}
			if strings.Contains(h.log(), "after") {
				t.Errorf("AfterWrite ran for a change that did not happen:\n%s", h.log())
			}
		})
	}
}
