package providertest

import (
	"context"
	"time"

	"github.com/ternhq/tern/provider"
)

// Stream plays one Script as a provider.Stream.
type Stream struct {
	ctx    context.Context
	s      Script
	deltas []provider.Delta
	// ends marks the positions in deltas where a burst ends.
	ends      map[int]bool
	i         int
	cur       provider.Delta
	cancelled bool
}

// NewStream returns a stream playing s until ctx is cancelled.
func NewStream(ctx context.Context, s Script) *Stream {
	st := &Stream{ctx: ctx, s: s, deltas: s.Deltas}
	if s.Bursts != nil {
		st.deltas, st.ends = nil, map[int]bool{}
		for _, b := range s.Bursts {
			st.deltas = append(st.deltas, b...)
			st.ends[len(st.deltas)] = true
		}
	}
	return st
}

// Next advances to the next delta, waiting the script's delay first.
func (f *Stream) Next() bool {
	if f.ctx.Err() != nil {
		f.cancelled = true
		return false
	}
	if f.i >= len(f.deltas) {
		if f.s.Hang {
			<-f.ctx.Done()
			f.cancelled = true
		}
		return false
	}
	if f.s.Delay > 0 {
		tm := time.NewTimer(f.s.Delay)
		select {
		case <-f.ctx.Done():
			tm.Stop()
			f.cancelled = true
			return false
		case <-tm.C:
		}
	}
	f.cur = f.deltas[f.i]
	f.i++
	return true
}

// Buffered reports whether the current burst has more deltas.
func (f *Stream) Buffered() bool {
	return f.ends != nil && !f.ends[f.i] && f.i < len(f.deltas)
}

// Delta is the current delta.
func (f *Stream) Delta() provider.Delta { return f.cur }

// Err reports why the stream ended: cancelled, the script's error, or, as
// the contract requires, an error for an end without a finish delta (unless
// the script is Quiet).
func (f *Stream) Err() error {
	switch {
	case f.cancelled:
		return &provider.Error{Kind: provider.ErrCancelled, Message: "cancelled", Err: f.ctx.Err()}
	case f.s.Err != nil:
		return f.s.Err
	}
	for _, d := range f.deltas {
		if d.Kind == provider.DeltaFinish {
			return nil
		}
	}
	if f.s.Quiet {
		return nil
	}
	return &provider.Error{Kind: provider.ErrNetwork, Message: "stream ended before the model finished"}
}

// Close does nothing: the stream holds no resources.
func (f *Stream) Close() error { return nil }
