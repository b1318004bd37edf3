//go:build unix

package approval

import (
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/ternhq/tern/tools"
)

// TestReadOnlyFifo: a named pipe in the workspace (a hostile archive can
// hold one) is no file to read unasked: cat waits for a writer until the
// timeout.
func TestReadOnlyFifo(t *testing.T) {
	t.Parallel()
	_, _, shell := fakeTools()
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	a, err := newSession(Config{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd  string
		want judged
	}{
		{"cat fifo", asks},
		{"head -n1 < fifo", asks},
		{"grep x fifo", asks},
		{"cat a.go", unasked},
		{"ls -la", unasked},
	} {
		args, _ := json.Marshal(map[string]string{"command": tc.cmd})
		r := a.judge(shell, "run_shell", args, PolicyAsk)
		if got := classify(r, PolicyAsk); got != tc.want {
			t.Errorf("%q: %s (%s), want %s", tc.cmd, got, r.Reason, tc.want)
		}
	}
}
