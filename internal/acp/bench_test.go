package acp

import (
	"bufio"
	"context"
	"io"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ternhq/tern/agent"
)

// rawServer is a server on pipes driven by raw JSON lines; a goroutine
// reads its output, handing lines that are not session/update to lines.
type rawServer struct {
	in     *io.PipeWriter
	lines  chan string
	served chan struct{}
}

func startRaw(tb testing.TB, factory Factory) *rawServer {
	tb.Helper()
	toAgentR, toAgentW := io.Pipe()
	toClientR, toClientW := io.Pipe()
	r := &rawServer{in: toAgentW, lines: make(chan string, 64), served: make(chan struct{})}
	go func() {
		defer close(r.served)
		_ = Serve(context.Background(), toAgentR, toClientW, Options{New: factory, Version: "bench"})
		_ = toClientW.Close()
	}()
	go func() {
		sc := bufio.NewScanner(toClientR)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			line := sc.Text()
			if strings.Contains(line, `"method":"session/update"`) {
				continue
			}
			r.lines <- line
		}
		close(r.lines)
	}()
	tb.Cleanup(func() {
		_ = r.in.Close()
		<-r.served
	})
	return r
}

func (r *rawServer) send(tb testing.TB, line string) {
	tb.Helper()
	if _, err := io.WriteString(r.in, line+"\n"); err != nil {
		tb.Fatal(err)
	}
}

func (r *rawServer) next(tb testing.TB) string {
	tb.Helper()
	select {
	case l := <-r.lines:
		return l
	case <-time.After(5 * time.Second):
		tb.Fatal("no answer")
	}
	return ""
}

func (r *rawServer) ready(tb testing.TB) {
	tb.Helper()
	r.send(tb, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`)
	r.next(tb)
	r.send(tb, `{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`)
	r.next(tb)
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkPromptOverhead is one prompt round trip through tern acp with a
// session whose turn ends at once: the protocol's cost per prompt.
func BenchmarkPromptOverhead(b *testing.B) {
	f := newFake(func(t *fakeTurn) agent.Finish {
		t.emit(agent.Event{Kind: agent.EventTextDelta, Text: "ok"})
		return agent.Finish{Reason: agent.FinishDone}
	})
	r := startRaw(b, fixed(f))
	r.ready(b)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		r.send(b, `{"jsonrpc":"2.0","id":"p","method":"session/prompt","params":{"sessionId":"sess-1","prompt":[{"type":"text","text":"hi"}]}}`)
		if l := r.next(b); !strings.Contains(l, "end_turn") {
			b.Fatal(l)
		}
	}
}

// BenchmarkStream60KB streams a 60 KB answer in 40-byte deltas (the agent
// joins what a gateway sends in one read; a slow gateway's tokens arrive
// one by one) and reports the CPU time tern spent per answer on projection
// and encoding.
func BenchmarkStream60KB(b *testing.B) {
	const size, piece = 60 << 10, 40
	text := strings.Repeat("lorem ipsum dolor sit amet, \"quoted\"\n\t", size/20)[:size]
	f := newFake(func(t *fakeTurn) agent.Finish {
		for i := 0; i < len(text); i += piece {
			t.emit(agent.Event{Kind: agent.EventTextDelta, Text: text[i:min(i+piece, len(text))]})
		}
		return agent.Finish{Reason: agent.FinishDone}
	})
	r := startRaw(b, fixed(f))
	r.ready(b)
	b.ResetTimer()
	start := cpuTime()
	for b.Loop() {
		r.send(b, `{"jsonrpc":"2.0","id":"p","method":"session/prompt","params":{"sessionId":"sess-1","prompt":[{"type":"text","text":"hi"}]}}`)
		if l := r.next(b); !strings.Contains(l, "end_turn") {
			b.Fatal(l)
		}
	}
	b.ReportMetric((cpuTime()-start).Seconds()/float64(b.N), "cpu-s/answer")
}

var _ = sdk.ProtocolVersionNumber
