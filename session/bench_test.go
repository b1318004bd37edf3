package session

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// eventMix is a realistic turn: a prompt, then steps of a streamed answer
// with a tool call, its approval, a result of about 2 KB, and usage.
func eventMix(i int) Body {
	output := strings.Repeat("ok  \tgithub.com/example/pkg\t0.123s\n", 60)
	switch i % 6 {
	case 0:
		return UserMessage{Turn: i/60 + 1, Text: "Run the tests in ./session and fix whatever fails; keep the API."}
	case 1:
		return AssistantMessage{Stream: fmt.Sprint("s", i), Text: strings.Repeat("I will run the tests first. ", 8),
			ToolCalls: []ToolCall{{ID: fmt.Sprint("call_", i), Name: "run_shell", Arguments: `{"command":"go test ./session/..."}`}}}
	case 2:
		return Approval{RequestID: fmt.Sprint("req_", i), CallID: fmt.Sprint("call_", i), Tool: "run_shell", Decision: DecisionAllowOnce, Scope: "run_shell:go test"}
	case 3:
		return ToolResult{CallID: fmt.Sprint("call_", i), Tool: "run_shell", Status: StatusOK, Output: output, Summary: "exit 0", DurationMS: 812}
	case 4:
		return Usage{Prompt: 12000 + i, Completion: 300, Cached: 11000}
	}
	return AssistantDelta{Stream: fmt.Sprint("s", i+1), Text: strings.Repeat("streamed text ", 15)}
}

// BenchmarkAppend measures what a caller pays per record: the write itself
// happens on the writer goroutine.
func BenchmarkAppend(b *testing.B) {
	w, err := Create(b.TempDir(), testHeader())
	if err != nil {
		b.Fatal(err)
	}
	bodies := make([]Body, 60)
	for i := range bodies {
		bodies[i] = eventMix(i)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := w.Append(bodies[i%len(bodies)]); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkAppendWritten includes encoding and writing every record to the
// file (one fsync at the end, amortised), i.e. the writer's throughput.
func BenchmarkAppendWritten(b *testing.B) {
	bodies := make([]Body, 60)
	for i := range bodies {
		bodies[i] = eventMix(i)
	}
	home := b.TempDir()
	b.ReportAllocs()
	b.ResetTimer()
	w, err := Create(home, testHeader())
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		if _, err := w.Append(bodies[i%len(bodies)]); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkDelta measures one streamed fragment.
func BenchmarkDelta(b *testing.B) {
	w, err := Create(b.TempDir(), testHeader())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		w.Delta("s1", "token ")
	}
	b.StopTimer()
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkLoad5000 loads a session of 5,000 records (about 4 MB).
func BenchmarkLoad5000(b *testing.B) {
	w, err := Create(b.TempDir(), testHeader())
	if err != nil {
		b.Fatal(err)
	}
	for i := range 5000 {
		if _, err := w.Append(eventMix(i)); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	st, err := os.Stat(w.Path())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	for b.Loop() {
		s, err := Load(w.Path())
		if err != nil {
			b.Fatal(err)
		}
		if len(s.Records) < 4000 {
			b.Fatalf("loaded %d records", len(s.Records))
		}
	}
}
