package session

import (
	"context"
	"fmt"
)

// OpenShadowLazy is OpenShadowAsync started by the first Shadow or Err
// call rather than at once: a headless run that changes no file never
// starts git, and does not wait for it to exit (two git processes were a
// seventh of a short `tern run`'s CPU, and closing waited for them).
func OpenShadowLazy(ctx context.Context, home, workspace string) *PendingShadow {
	p := &PendingShadow{done: make(chan struct{})}
	p.start = func() {
		go func() {
			defer close(p.done)
			p.sh, p.err = OpenShadow(ctx, home, workspace)
		}()
	}
	return p
}

// begin starts a lazy open, once.
func (p *PendingShadow) begin() {
	if p.start != nil {
		p.once.Do(p.start)
	}
}

// Settle waits, until ctx ends, for an open that has begun to finish, so no
// git runs on after the session closes. A lazy open that has not begun is
// called off instead: no git starts, and later calls find no repository.
func (p *PendingShadow) Settle(ctx context.Context) {
	if p.start != nil {
		p.once.Do(func() {
			p.err = fmt.Errorf("the session closed before the snapshot repository was needed: %w", ErrNoShadow)
			close(p.done)
		})
	}
	select {
	case <-p.done:
	case <-ctx.Done():
	}
}
