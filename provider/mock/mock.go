package mock

import (
	"context"
	"time"

	"github.com/ternhq/tern/provider"
)

// DefaultChunkSize is the largest number of runes in one streamed chunk when
// Options.ChunkSize is not set; chunks vary between half of it and all of it,
// like tokens of a real model.
const DefaultChunkSize = 6

// Options tune how the offline provider streams. The zero value streams with
// no delay, which is what tests want; DefaultOptions gives the natural feel
// used interactively.
type Options struct {
	// Delay is the pause before each text, reasoning or tool-call chunk.
	Delay time.Duration
	// FirstDelay is the extra pause before the first chunk, like a real
	// model's time to first token.
	FirstDelay time.Duration
	// ChunkSize is the largest chunk in runes; 0 means DefaultChunkSize.
	ChunkSize int
}

// interactiveChunk is the largest chunk DefaultOptions streams: a few
// tokens per update, like a fast gateway.
const interactiveChunk = 20

// DefaultOptions returns the options cmd/tern uses: about 1,500 characters
// a second after a short first-token pause, so the welcome answer streams
// in under 2 s and the long scene in about 4 s (TestStreamingPace): fast
// enough to read on, slow enough to watch it stream.
func DefaultOptions() Options {
	return Options{Delay: 10 * time.Millisecond, FirstDelay: 250 * time.Millisecond, ChunkSize: interactiveChunk}
}

// Provider is the offline scripted provider. It holds no mutable state, so
// one value may serve concurrent streams.
type Provider struct {
	opts Options
}

var _ provider.Provider = (*Provider)(nil)

// New returns an offline provider streaming with opts.
func New(opts Options) *Provider {
	if opts.ChunkSize <= 0 {
		opts.ChunkSize = DefaultChunkSize
	}
	if opts.Delay < 0 {
		opts.Delay = 0
	}
	if opts.FirstDelay < 0 {
		opts.FirstDelay = 0
	}
	return &Provider{opts: opts}
}

// Stream answers req with the scene its last user message selects. The whole
// answer is decided up front (it depends only on req), then streamed chunk by
// chunk; cancelling ctx ends the stream with a provider.ErrCancelled error.
func (p *Provider) Stream(ctx context.Context, req provider.Request) (provider.Stream, error) {
	if err := ctx.Err(); err != nil {
		return nil, cancelled(err)
	}
	t := newTurn(req.Messages).planAware()
	t.user = resolveMentions(t.user)
	for _, s := range req.Tools {
		t.canPropose = t.canPropose || s.Name == proposePlanTool
		if s.Name == taskTool {
			t.canTask, t.agents = true, taskAgents(s.Parameters)
		}
	}
	// The agent offers propose_plan only in plan mode, which its note
	// announces on the first message alone.
	t.planning = t.planning || t.canPropose
	sc, m := chooseScene(t.user)
	if sc.name == defaultScene().name && (t.planning || t.accepted) {
		sc = planScene()
	}
	t.match = m
	a := sc.step(t)
	switch {
	case t.planning:
		a = asPlan(t, a)
	case t.accepted:
		a = finishPlan(t, a)
	}
	if len(a.calls) > 0 && len(req.Tools) == 0 {
		a = withoutTools(a)
	}
	ids := callIDs(sc.name, t.toolMessages, len(a.calls))
	deltas := render(a, ids, p.opts.ChunkSize)
	// Finish, then usage: OpenAI sends usage in a last chunk after the finish
	// reason, and provider/openai keeps that order.
	deltas = append(deltas, finishDelta(a), usageDelta(req, a))
	return newStream(ctx, deltas, p.opts), nil
}

// cancelled wraps a context error as the provider error every consumer expects.
func cancelled(err error) error {
	return &provider.Error{Kind: provider.ErrCancelled, Message: "the request was cancelled", Err: err}
}
