package session

import (
	"context"
	"sync"
)

// ShadowSource gives the shadow repository when it is needed. *Shadow is
// one (a nil *Shadow means there is none); *PendingShadow is one still being
// opened, so that start-up does not wait for git.
type ShadowSource interface {
	// Shadow returns the repository, waiting for it to open if it must;
	// nil when there is none or ctx ended first.
	Shadow(ctx context.Context) *Shadow
}

// Shadow implements ShadowSource.
func (s *Shadow) Shadow(context.Context) *Shadow { return s }

// PendingShadow is a shadow repository being opened in the background.
type PendingShadow struct {
	done chan struct{}
	sh   *Shadow
	err  error
	// start begins a lazy open (OpenShadowLazy) once; nil when the open
	// began with the value.
	start func()
	once  sync.Once
}

// OpenShadowAsync starts OpenShadow on its own goroutine, which ends when
// the repository is open or ctx is done.
func OpenShadowAsync(ctx context.Context, home, workspace string) *PendingShadow {
	p := &PendingShadow{done: make(chan struct{})}
	go func() {
		defer close(p.done)
		p.sh, p.err = OpenShadow(ctx, home, workspace)
	}()
	return p
}

// Shadow implements ShadowSource: it waits for the open to finish.
func (p *PendingShadow) Shadow(ctx context.Context) *Shadow {
	p.begin()
	select {
	case <-p.done:
		return p.sh
	case <-ctx.Done():
		return nil
	}
}

// Err waits for the open to finish and says why there is no repository:
// nil when there is one, an error wrapping ErrNoShadow when the workspace is
// not in a git repository or git is missing, another error when opening it
// failed.
func (p *PendingShadow) Err(ctx context.Context) error {
	p.begin()
	select {
	case <-p.done:
		return p.err
	case <-ctx.Done():
		return ctx.Err()
	}
}
