package openai

import (
	"context"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
)

// heldBy is what the heap holds beyond before, after a GC.
func heldBy(before uint64) int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc) - int64(before)
}

func heapNow() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestAttackBurstHugeEventHeldOnce: a hostile gateway sends one 10 MB
// event of text, then small ones, and keeps the answer open. While the
// consumer holds the text it was handed, the open stream itself may keep
// one copy of the event (the line it was read as, as before the joined
// bursts) but not two or three more (the decoded text, the joined
// burst, the envelope of the last event).
//
// Not parallel: it measures the heap.
func TestAttackBurstHugeEventHeldOnce(t *testing.T) {
	const size = 10 << 20
	for _, tc := range []struct {
		name  string
		event string
	}{
		{"text", delta(`{"content":` + quoteJSON(strings.Repeat("x", size)) + `}`)},
		{"envelope", `{"id":"` + strings.Repeat("i", size) + `","choices":[{"index":0,"delta":{"content":"a"}}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sent := make(chan struct{})
			g := newGateway(t, response{handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				w.WriteHeader(http.StatusOK)
				_, _ = io.WriteString(w, "data: "+tc.event+"\n\ndata: "+tc.event+"\n\n"+"data: "+delta(`{"content":"b"}`)+"\n\n")
				w.(http.Flusher).Flush()
				close(sent)
				<-r.Context().Done()
			}})
			p, _ := newProvider(t, g)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			before := heapNow()
			s, err := p.Stream(ctx, userRequest("hi"))
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = s.Close() }()
			var got []string
			for s.Next() {
				got = append(got, s.Delta().Text)
				if strings.HasSuffix(s.Delta().Text, "b") {
					break
				}
			}
			<-sent
			kept := 0
			for _, x := range got {
				kept += len(x)
			}
			held := heldBy(before) - int64(kept)
			t.Logf("the open stream holds %.1f MB beyond the %.1f MB of text handed on", float64(held)/(1<<20), float64(kept)/(1<<20))
			if held > int64(len(tc.event))*3/2 {
				t.Errorf("the open stream holds %.1f MB for an event of %.1f MB: more than one copy", float64(held)/(1<<20), float64(len(tc.event))/(1<<20))
			}
			runtime.KeepAlive(got)
		})
	}
}

// TestAttackBurstLongAnswerHoldsLittle: a 50 MB answer of small events,
// sent as fast as the connection takes it, is read holding no more than a
// few buffers at any point, whatever the consumer drops.
//
// Not parallel: it measures the heap.
func TestAttackBurstLongAnswerHoldsLittle(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 50 MB")
	}
	piece := strings.Repeat("word ", 20)
	event := "data: " + delta(`{"content":"`+piece+`"}`) + "\n\n"
	n := (50 << 20) / len(piece)
	g := newGateway(t, response{handler: func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		block := strings.Repeat(event, 64)
		for i := 0; i < n; i += 64 {
			if _, err := io.WriteString(w, block); err != nil {
				return
			}
		}
		_, _ = io.WriteString(w, "data: "+finishChunk("stop")+"\n\ndata: [DONE]\n\n")
	}})
	p, _ := newProvider(t, g)
	before := heapNow()
	s, err := p.Stream(context.Background(), userRequest("hi"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	var most int64
	total, deltas, sampled := 0, 0, 0
	for s.Next() {
		total += len(s.Delta().Text)
		deltas++
		if total-sampled >= 2<<20 {
			sampled = total
			most = max(most, heldBy(before))
		}
	}
	if s.Err() != nil || total < n*len(piece) {
		t.Fatalf("read %d bytes of %d: %v", total, n*len(piece), s.Err())
	}
	t.Logf("%d MB in %d deltas; the stream held at most %.2f MB", total>>20, deltas, float64(most)/(1<<20))
	if most > 2<<20 {
		t.Errorf("the stream held %.2f MB at once", float64(most)/(1<<20))
	}
}
