package mock

import (
	"context"
	"time"

	"github.com/ternhq/tern/provider"
)

// stream replays precomputed deltas with the configured pauses. Next blocks
// only in wait, which returns as soon as ctx is cancelled, so no goroutine is
// needed and none can leak.
type stream struct {
	ctx    context.Context
	deltas []provider.Delta
	opts   Options
	pos    int
	cur    provider.Delta
	err    error
	closed bool
}

func newStream(ctx context.Context, deltas []provider.Delta, opts Options) *stream {
	return &stream{ctx: ctx, deltas: deltas, opts: opts}
}

// Next advances to the next delta, pausing like a real model would.
func (s *stream) Next() bool {
	if s.closed || s.err != nil || s.pos >= len(s.deltas) {
		return false
	}
	d := s.deltas[s.pos]
	if err := s.wait(s.pause(d)); err != nil {
		s.err = err
		return false
	}
	s.cur = d
	s.pos++
	return true
}

// Delta returns the current delta.
func (s *stream) Delta() provider.Delta { return s.cur }

// Err reports why the stream stopped early: only cancellation can stop it.
func (s *stream) Err() error { return s.err }

// Close ends the stream; later calls to Next return false.
func (s *stream) Close() error {
	s.closed = true
	return nil
}

// pause is the wait before d: content chunks are paced, while usage and the
// finish reason follow at once, as they do from a real gateway.
func (s *stream) pause(d provider.Delta) time.Duration {
	var p time.Duration
	switch d.Kind {
	case provider.DeltaText, provider.DeltaReasoning, provider.DeltaToolCall:
		p = s.opts.Delay
	case provider.DeltaUsage, provider.DeltaFinish:
	}
	if s.pos == 0 {
		p += s.opts.FirstDelay
	}
	return p
}

func (s *stream) wait(d time.Duration) error {
	if err := s.ctx.Err(); err != nil {
		return cancelled(err)
	}
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-s.ctx.Done():
		return cancelled(s.ctx.Err())
	case <-t.C:
		return nil
	}
}
