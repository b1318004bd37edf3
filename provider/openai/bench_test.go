package openai

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
)

// benchEvents is the size of the recorded answer.
const benchEvents = 15000

// recordedAnswer builds a 15,000-event answer as OpenAI streams it: a
// reasoning preamble, text in token-sized chunks (with escapes and
// non-ASCII now and then), two parallel tool calls whose arguments arrive in
// interleaved fragments, then the finish chunk and the usage chunk.
func recordedAnswer() (body []byte, text string, args [2]string) {
	words := []string{"The", " handler", " reads", " the", " config", ",", " then", " calls", " `Serve`", ".\n", " Größe", " \"quoted\"", " path\\to", " 😀", "\t"}
	argPieces := []string{`{"path": "`, `internal`, `/server`, `/handler`, `.go", `, `"start": `, `120`, `, "note": "`, `a \"b\"`, ` c\n`, `"}`}
	var b strings.Builder
	var tb strings.Builder
	n := 0
	emit := func(payload string) {
		b.WriteString("data: ")
		b.WriteString(payload)
		b.WriteString("\n\n")
		n++
	}
	emit(delta(`{"role":"assistant","content":"","reasoning_content":"Planning."}`))
	const textEvents = 10000
	for i := range textEvents {
		w := words[i%len(words)]
		tb.WriteString(w)
		emit(delta(`{"content":` + quoteJSON(w) + `}`))
	}
	for i := range 2 {
		emit(delta(fmt.Sprintf(`{"tool_calls":[{"index":%d,"id":"call_%d","type":"function","function":{"name":"read_file","arguments":""}}]}`, i, i)))
	}
	var ab [2]strings.Builder
	for i := 0; n < benchEvents-2; i++ {
		idx := i % 2
		piece := argPieces[(i/2)%len(argPieces)]
		ab[idx].WriteString(piece)
		emit(delta(fmt.Sprintf(`{"tool_calls":[{"index":%d,"function":{"arguments":%s}}]}`, idx, quoteJSON(piece))))
	}
	emit(finishChunk("tool_calls"))
	emit(usageChunk)
	b.WriteString("data: [DONE]\n\n")
	if n != benchEvents {
		panic(fmt.Sprintf("built %d events", n))
	}
	return []byte(b.String()), tb.String(), [2]string{ab[0].String(), ab[1].String()}
}

// BenchmarkStream15k streams a recorded 15,000-event answer from a local
// server through the provider and a provider.Accumulator. It reports wall
// and CPU time per event (CPU of the whole process: client, in-process
// server and GC) and allocations per event. When the reading pace and the
// chunk decoder were chosen it showed a wake-up per token costing 50-200 µs
// of CPU (provider/openai/pace.go) and encoding/json about 3 µs and a dozen
// allocations per chunk (provider/openai/scan.go).
func BenchmarkStream15k(b *testing.B) {
	body, text, args := recordedAnswer()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for rest := body; len(rest) > 0; {
			n := min(len(rest), 32<<10)
			if _, err := w.Write(rest[:n]); err != nil {
				return
			}
			rest = rest[n:]
		}
	}))
	defer srv.Close()
	p, err := New(Config{BaseURL: srv.URL + "/v1", Model: "m"})
	if err != nil {
		b.Fatal(err)
	}
	req := userRequest("explain the handler")

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu0, hasCPU := processCPU()
	deltas := 0
	b.ResetTimer()
	for b.Loop() {
		s, err := p.Stream(context.Background(), req)
		if err != nil {
			b.Fatal(err)
		}
		var acc provider.Accumulator
		events := 0
		for s.Next() {
			acc.Add(s.Delta())
			events++
		}
		deltas += events
		if err := s.Err(); err != nil {
			b.Fatal(err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
		calls := acc.ToolCalls()
		if acc.Text() != text || len(calls) != 2 || calls[0].Arguments != args[0] || calls[1].Arguments != args[1] ||
			acc.Finish() != provider.FinishToolCalls {
			b.Fatalf("wrong result: %d deltas, %d text bytes, %d calls, finish %s", events, len(acc.Text()), len(calls), acc.Finish())
		}
	}
	b.StopTimer()
	cpu1, _ := processCPU()
	runtime.ReadMemStats(&after)
	total := float64(b.N * benchEvents)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e3/total, "µs/event")
	if hasCPU {
		b.ReportMetric(float64((cpu1-cpu0)/time.Nanosecond)/1e3/total, "cpu-µs/event")
	}
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/total, "allocs/event")
	b.ReportMetric(float64(deltas)/float64(b.N), "deltas/op")
	b.SetBytes(int64(len(body)))
}
