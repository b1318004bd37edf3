package agent

import (
	"context"
	"testing"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// countProvider streams n text deltas with no delay, then finishes.
type countProvider struct{ n int }

func (p countProvider) Stream(ctx context.Context, _ provider.Request) (provider.Stream, error) {
	return &countStream{ctx: ctx, left: p.n}, nil
}

type countStream struct {
	ctx  context.Context
	left int
	d    provider.Delta
	done bool
}

func (s *countStream) Next() bool {
	switch {
	case s.left > 0:
		s.left--
		s.d = provider.Delta{Kind: provider.DeltaText, Text: "tok "}
	case !s.done:
		s.done = true
		s.d = provider.Delta{Kind: provider.DeltaFinish, Finish: provider.FinishStop}
	default:
		return false
	}
	return true
}

func (s *countStream) Delta() provider.Delta { return s.d }
func (s *countStream) Err() error            { return nil }
func (s *countStream) Close() error          { return nil }

// BenchmarkStreamDelta measures the agent's own cost per streamed text delta:
// accumulating it and fanning it out as an event to a consumer draining
// Events. One op is one delta.
func BenchmarkStreamDelta(b *testing.B) {
	ws, err := tools.NewWorkspace(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	read, _, _ := fakeTools()
	a, err := New(Options{Provider: countProvider{n: b.N}, Tools: tools.NewRegistry(read), Workspace: ws})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go a.Run(ctx)
	b.ReportAllocs()
	b.ResetTimer()
	if err := a.Submit("go"); err != nil {
		b.Fatal(err)
	}
	deltas := 0
	for ev := range a.Events() {
		if ev.Kind == EventTextDelta {
			deltas++
		}
		if ev.Kind == EventTurnFinished {
			break
		}
	}
	b.StopTimer()
	if deltas != b.N {
		b.Fatalf("got %d deltas, want %d", deltas, b.N)
	}
}
