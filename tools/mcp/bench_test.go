package mcp_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/mcp"
)

// benchCalls times calls of a tool that answers at once, so each call's
// time is tern's and the SDK's overhead plus the transport (the server's
// own work is nil), and reports the median as median-µs/call. The target
// is 2 ms.
func benchCalls(b *testing.B, tl tools.Tool) {
	args := json.RawMessage(`{}`)
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		if res := tl.Run(context.Background(), args, nil); res.Status != tools.StatusOK {
			b.Fatalf("%+v", res)
		}
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds()), "median-µs/call")
}

// BenchmarkCallStdio calls a tool of a server in a process of its own
// over stdio, as for `command = ...` servers.
func BenchmarkCallStdio(b *testing.B) {
	m, err := mcp.New(mcp.Options{Servers: []mcp.ServerConfig{{Name: "bench", Command: testBinary(), Env: map[string]string{serverEnv: "1"}}}})
	if err != nil {
		b.Fatal(err)
	}
	m.Start(context.Background())
	defer func() { _ = m.Close() }()
	m.Wait(context.Background())
	var noop tools.Tool
	for _, tl := range m.Tools() {
		if tl.Spec().Name == "mcp__bench__noop" {
			noop = tl
		}
	}
	if noop == nil {
		b.Fatalf("no noop tool: %+v", m.Servers())
	}
	benchCalls(b, noop)
}

// BenchmarkCallInMemory calls a tool of an in-process server: tern's and
// the SDK's overhead without a transport.
func BenchmarkCallInMemory(b *testing.B) {
	s := sdk.NewServer(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
	textTool(s, "noop", func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return text("ok"), nil })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m, err := mcp.New(mcp.WithTransport(mcp.Options{Servers: []mcp.ServerConfig{{Name: "bench", Command: "unused"}}},
		func(mcp.ServerConfig) (sdk.Transport, error) {
			ct, st := sdk.NewInMemoryTransports()
			if _, err := s.Connect(ctx, st, nil); err != nil {
				return nil, err
			}
			return ct, nil
		}))
	if err != nil {
		b.Fatal(err)
	}
	m.Start(ctx)
	defer func() { _ = m.Close() }()
	m.Wait(ctx)
	benchCalls(b, m.Tools()[0])
}
