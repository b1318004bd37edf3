package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// BenchmarkStreamDelta measures the agent's own cost per streamed text delta:
// accumulating it and fanning it out as an event to a consumer draining
// Events. One op is one delta.
func BenchmarkStreamDelta(b *testing.B) {
	ws, err := tools.NewWorkspace(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	read, _, _ := fakeTools()
	a, err := New(Options{Provider: burstProvider{tokens: b.N, burst: 1}, Tools: tools.NewRegistry(read), Workspace: ws})
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

// burstProvider streams an answer of tokens 4-byte pieces in bursts of
// burst pieces, as provider/openai reads a fast answer: either each piece
// a delta, the stream saying the rest of its burst is buffered (as before
// the provider joined them), or each burst one joined delta. Bursts of one
// piece are a delta at a time, nothing buffered.
type burstProvider struct {
	tokens, burst int
	joined        bool
}

func (p burstProvider) Stream(context.Context, provider.Request) (provider.Stream, error) {
	return &burstStream{p: p}, nil
}

type burstStream struct {
	p    burstProvider
	sent int // pieces delivered
	d    provider.Delta
	done bool
}

func (s *burstStream) Next() bool {
	switch {
	case s.sent < s.p.tokens && s.p.joined:
		n := min(s.p.burst, s.p.tokens-s.sent)
		s.sent += n
		s.d = provider.Delta{Kind: provider.DeltaText, Text: strings.Repeat("tok ", n)}
	case s.sent < s.p.tokens:
		s.sent++
		s.d = provider.Delta{Kind: provider.DeltaText, Text: "tok "}
	case !s.done:
		s.done = true
		s.d = provider.Delta{Kind: provider.DeltaFinish, Finish: provider.FinishStop}
	default:
		return false
	}
	return true
}

// Buffered says the burst goes on.
func (s *burstStream) Buffered() bool { return s.sent%s.p.burst != 0 && s.sent < s.p.tokens }

func (s *burstStream) Delta() provider.Delta { return s.d }
func (s *burstStream) Err() error            { return nil }
func (s *burstStream) Close() error          { return nil }

// BenchmarkStreamBurst measures the agent's cost of a fast answer of
// 15,000 tokens in bursts of 300, from the provider's deltas to the
// events a consumer drains: one op is one answer. "pieces" is the agent
// joining the burst (textHold), "joined" the provider having joined it.
func BenchmarkStreamBurst(b *testing.B) {
	for _, joined := range []bool{false, true} {
		name := "pieces"
		if joined {
			name = "joined"
		}
		b.Run(name, func(b *testing.B) {
			ws, err := tools.NewWorkspace(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			read, _, _ := fakeTools()
			a, err := New(Options{Provider: burstProvider{tokens: 15000, burst: 300, joined: joined}, Tools: tools.NewRegistry(read), Workspace: ws})
			if err != nil {
				b.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go a.Run(ctx)
			b.ReportAllocs()
			for b.Loop() {
				if err := a.Submit("go"); err != nil {
					b.Fatal(err)
				}
				text := 0
				for ev := range a.Events() {
					if ev.Kind == EventTextDelta {
						text += len(ev.Text)
					}
					if ev.Kind == EventTurnFinished {
						break
					}
				}
				if text != 4*15000 {
					b.Fatalf("%d bytes of text, want %d", text, 4*15000)
				}
			}
		})
	}
}
