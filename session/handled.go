package session

import (
	"context"
	"sync"
)

// handledCount counts the events a Recorder's Tap has recorded, so that a
// caller can wait until the events it knows were emitted are in the log.
type handledCount struct {
	mu sync.Mutex
	n  uint64
	// changed is closed when n grows; made only while someone waits, so
	// counting costs no allocation.
	changed chan struct{}
}

// add counts one more recorded event and wakes the waiters.
func (h *handledCount) add() {
	h.mu.Lock()
	h.n++
	if h.changed != nil {
		close(h.changed)
		h.changed = nil
	}
	h.mu.Unlock()
}

// wait returns once n events are counted, or with ctx's error when it ends
// first.
func (h *handledCount) wait(ctx context.Context, n uint64) error {
	for {
		h.mu.Lock()
		if h.n >= n {
			h.mu.Unlock()
			return nil
		}
		if h.changed == nil {
			h.changed = make(chan struct{})
		}
		changed := h.changed
		h.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
