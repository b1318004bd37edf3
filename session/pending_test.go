package session

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestOpenShadowAsync(t *testing.T) {
	t.Parallel()
	needGit(t)
	ctx := context.Background()

	repo := gitRepo(t, map[string]string{"a.txt": "a\n"})
	p := OpenShadowAsync(ctx, t.TempDir(), repo)
	sh := p.Shadow(ctx)
	if sh == nil {
		t.Fatalf("no shadow for a git workspace: %v", p.Err(ctx))
	}
	if _, err := sh.Snapshot(ctx); err != nil {
		t.Fatal(err)
	}

	plain := OpenShadowAsync(ctx, t.TempDir(), t.TempDir())
	if sh := plain.Shadow(ctx); sh != nil {
		t.Fatal("a shadow for a directory outside any git repository")
	}
	if err := plain.Err(ctx); !errors.Is(err, ErrNoShadow) {
		t.Fatalf("Err = %v, want ErrNoShadow", err)
	}

	// A caller that stops waiting gets nil at once.
	done, cancel := context.WithCancel(ctx)
	cancel()
	slow := &PendingShadow{done: make(chan struct{})}
	start := time.Now()
	if sh := slow.Shadow(done); sh != nil || time.Since(start) > time.Second {
		t.Fatal("Shadow did not give up when its context ended")
	}
}
