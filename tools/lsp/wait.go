package lsp

import (
	"context"
	"fmt"
	"time"
)

// waitReady waits until c's server is initialized; false when it failed
// or ctx ended first.
func (m *Manager) waitReady(ctx context.Context, c *client) bool {
	for {
		c.mu.Lock()
		st, ready := c.state, c.ready
		c.mu.Unlock()
		switch st {
		case StateRunning:
			return true
		case StateFailed, StateStopped:
			return false
		case StateStarting:
		}
		select {
		case <-ready:
		case <-ctx.Done():
			return false
		}
	}
}

// notReady says why a server gave no diagnostics: still starting, or failed.
func (m *Manager) notReady(c *client) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch c.state {
	case StateStarting:
		return fmt.Sprintf("%s is still starting; its diagnostics come with the next edit or a diagnostics call", c.cfg.Name)
	case StateFailed:
		return fmt.Sprintf("%s is not available: %s", c.cfg.Name, c.lastErr)
	case StateStopped:
		return fmt.Sprintf("%s was stopped", c.cfg.Name)
	case StateRunning:
	}
	return fmt.Sprintf("%s is running", c.cfg.Name)
}

// waitReport waits for a report on uri (at version or later) published
// after seq, then until the server has been quiet for the settle period;
// false when none came before ctx ended or the server failed.
func (m *Manager) waitReport(ctx context.Context, c *client, uri string, seq uint64, version int) bool {
	got := false
	var quiet <-chan time.Time
	for {
		c.mu.Lock()
		if c.state == StateFailed || c.state == StateStopped {
			c.mu.Unlock()
			return false
		}
		// A report on an earlier version (a change still in flight) does
		// not count.
		if p, ok := c.diags[uri]; ok && p.seq > seq && (p.version < 0 || p.version >= version) && !got {
			got = true
			quiet = time.After(m.opts.Settle)
		}
		notify := c.notify
		c.mu.Unlock()
		select {
		case <-notify:
			// Once the file is reported on, any report (a later pass on
			// it, its callers in other files) restarts the settle period.
			if got {
				quiet = time.After(m.opts.Settle)
			}
		case <-quiet:
			return true
		case <-ctx.Done():
			return got
		}
	}
}

// waitQuiet waits for reports after seq until the server is quiet for the
// settle period, or ctx ends. Before the first report it waits first long,
// until ctx ends when 0.
func (m *Manager) waitQuiet(ctx context.Context, c *client, seq uint64, first time.Duration) {
	var quiet <-chan time.Time
	if first > 0 {
		quiet = time.After(first)
	}
	for {
		c.mu.Lock()
		notify := c.notify
		moved := c.seq > seq
		seq = c.seq
		c.mu.Unlock()
		if moved {
			quiet = time.After(m.opts.Settle)
		}
		select {
		case <-notify:
		case <-quiet:
			return
		case <-ctx.Done():
			return
		}
	}
}
