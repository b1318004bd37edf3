package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDefaultRegistry(t *testing.T) {
	t.Parallel()
	w, err := NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	reg := DefaultRegistry(w, nil)
	want := []struct {
		name   string
		kind   Kind
		params []string // required first, in schema order
	}{
		{"read_file", KindRead, []string{"path", "offset", "limit"}},
		{"list_files", KindRead, []string{"path", "pattern"}},
		{"grep", KindRead, []string{"pattern", "path", "glob", "ignore_case", "context_lines"}},
		{"edit_file", KindEdit, []string{"path", "old_string", "new_string", "replace_all"}},
		{"write_file", KindEdit, []string{"path", "content"}},
		{"run_shell", KindShell, []string{"command", "timeout_s", "workdir"}},
		{"todo_write", KindRead, []string{"items"}},
		{"web_fetch", KindNetwork, []string{"url", "max_bytes"}},
	}
	names := reg.Names()
	if len(names) != len(want) {
		t.Fatalf("names = %v", names)
	}
	specs := reg.Specs()
	again := DefaultRegistry(w, nil).Specs()
	for i, wt := range want {
		if names[i] != wt.name {
			t.Fatalf("tool %d is %s, want %s (order: %v)", i, names[i], wt.name, names)
		}
		tool, _ := reg.Get(wt.name)
		if tool.Kind() != wt.kind {
			t.Errorf("%s kind = %v, want %v", wt.name, tool.Kind(), wt.kind)
		}
		spec := specs[i]
		if spec.Description == "" {
			t.Errorf("%s has no description", wt.name)
		}
		// Specs are byte-identical between calls and registries, so the
		// request prefix stays stable for prompt caches.
		if !bytes.Equal(spec.Parameters, again[i].Parameters) || spec.Description != again[i].Description {
			t.Errorf("%s spec differs between registries", wt.name)
		}
		var schema struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(spec.Parameters, &schema); err != nil {
			t.Fatalf("%s schema: %v", wt.name, err)
		}
		if schema.Type != "object" || len(schema.Properties) != len(wt.params) {
			t.Errorf("%s schema has %d properties, want %v", wt.name, len(schema.Properties), wt.params)
		}
		for _, p := range wt.params {
			var prop struct{ Description string }
			if err := json.Unmarshal(schema.Properties[p], &prop); err != nil || prop.Description == "" {
				t.Errorf("%s.%s is missing or undescribed", wt.name, p)
			}
		}
	}
}

// TestReadThenEdit runs the tools together the way the model uses them: an
// edit of an unread file is refused, read_file unlocks it, and an edit
// after another program changed the file is refused again.
func TestReadThenEdit(t *testing.T) {
	t.Parallel()
	w, err := NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	abs := filepath.Join(w.Root, "main.go")
	if err := os.WriteFile(abs, []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := DefaultRegistry(w, os.Environ())
	call := func(name string, args map[string]any) Result {
		tool, ok := reg.Get(name)
		if !ok {
			t.Fatalf("no tool %s", name)
		}
		return tool.Run(context.Background(), toolArgs(t, args), nil)
	}
	edit := map[string]any{"path": "main.go", "old_string": "func main() {}", "new_string": "func main() { println(1) }"}
	if res := call("edit_file", edit); res.Status != StatusError || !strings.Contains(res.Output, "read_file") {
		t.Fatalf("edit before read: %v %q", res.Status, res.Output)
	}
	if res := call("read_file", map[string]any{"path": "main.go"}); res.Status != StatusOK {
		t.Fatalf("read: %v %q", res.Status, res.Output)
	}
	if res := call("edit_file", edit); res.Status != StatusOK {
		t.Fatalf("edit after read: %v %q", res.Status, res.Output)
	}
	if res := call("run_shell", map[string]any{"command": "echo '// touched' >> main.go"}); res.Status != StatusOK || res.ExitCode != 0 {
		t.Fatalf("shell: %v %q", res.Status, res.Output)
	}
	again := map[string]any{"path": "main.go", "old_string": "println(1)", "new_string": "println(2)"}
	if res := call("edit_file", again); res.Status != StatusError || !strings.Contains(res.Output, "changed on disk") {
		t.Fatalf("edit after an outside change: %v %q", res.Status, res.Output)
	}
	if res := call("write_file", map[string]any{"path": "main.go", "content": "x"}); res.Status != StatusError {
		t.Fatalf("overwrite after an outside change: %v %q", res.Status, res.Output)
	}
}
