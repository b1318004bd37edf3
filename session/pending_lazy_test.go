package session

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestOpenShadowLazy checks that a lazy open starts git only when the
// repository is first asked for, and that settling one never asked for
// starts nothing and leaves later askers without a repository.
func TestOpenShadowLazy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		ask     bool // ask for the repository before settling
		wantDir bool // the shadow repository exists after
	}{
		{"asked", true, true},
		{"never asked", false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ws := gitRepo(t, map[string]string{"a.txt": "a"})
			home := t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			p := OpenShadowLazy(ctx, home, ws)
			if tc.ask && p.Shadow(ctx) == nil {
				t.Fatalf("no repository: %v", p.Err(ctx))
			}
			p.Settle(ctx)
			entries, err := os.ReadDir(filepath.Join(home, "shadow"))
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				t.Fatal(err)
			}
			if got := len(entries) > 0; got != tc.wantDir {
				t.Fatalf("shadow repositories under %s: %d, want some: %v", home, len(entries), tc.wantDir)
			}
			if !tc.ask {
				if sh := p.Shadow(ctx); sh != nil {
					t.Fatal("a settled lazy open gave a repository")
				}
				if err := p.Err(ctx); !errors.Is(err, ErrNoShadow) {
					t.Fatalf("Err after settling = %v, want ErrNoShadow", err)
				}
			}
		})
	}
}
