package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ternhq/tern/cmd/tern/config"
	"github.com/ternhq/tern/tools/sandbox"
)

// TestSandboxIgnoresAGoEnvFileCommandsCanWrite starts the sandbox with Go's
// env file (~/.config/go/env) naming GOCACHE: honoured when the file lies
// outside the workspace, ignored when tern runs in the home folder, where a
// previous command could have written it (`go env -w GOCACHE=/etc`) to make
// any folder writable in this session.
func TestSandboxIgnoresAGoEnvFileCommandsCanWrite(t *testing.T) {
	if _, ok, why := sandbox.Available(); !ok {
		t.Skip(why)
	}
	for _, tc := range []struct {
		name      string
		inHome    bool
		wantNamed bool
	}{
		{"workspace elsewhere", false, true},
		{"workspace is the home folder", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			named := filepath.Join(t.TempDir(), "named-cache")
			if err := os.MkdirAll(filepath.Join(home, ".config", "go"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(home, ".config", "go", "env"), []byte("GOCACHE="+named+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			ws := t.TempDir()
			if tc.inHome {
				ws = home
			}
			c := &cli{getenv: func(string) string { return "" }, userHome: home}
			cfg := &config.Config{}
			cfg.Sandbox.V = true
			opts, _, cleanup, err := c.sandboxShell(context.Background(), cfg, ws)
			if err != nil {
				t.Fatal(err)
			}
			defer cleanup()
			if opts.Sandbox == nil {
				t.Fatal("no sandbox policy")
			}
			if got := slices.Contains(opts.Sandbox.Caches, named); got != tc.wantNamed {
				t.Errorf("caches %v: the one Go's env file names is there: %v, want %v", opts.Sandbox.Caches, got, tc.wantNamed)
			}
		})
	}
}
