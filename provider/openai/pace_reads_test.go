package openai

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// arriving is a body that behaves like a socket: pieces arrive on their own
// clock, and a read returns all that arrived since the last one, waiting
// only when nothing did. It counts the reads.
type arriving struct {
	mu    sync.Mutex
	buf   []byte
	done  bool
	more  chan struct{} // a signal that something arrived
	reads int
}

// feed writes piece every every, n times, then ends the body.
func (a *arriving) feed(piece string, every time.Duration, n int) {
	start := time.Now()
	for i := range n {
		time.Sleep(time.Until(start.Add(time.Duration(i) * every)))
		a.mu.Lock()
		a.buf = append(a.buf, piece...)
		a.mu.Unlock()
		signal(a.more)
	}
	a.mu.Lock()
	a.done = true
	a.mu.Unlock()
	signal(a.more)
}

func (a *arriving) Read(b []byte) (int, error) {
	for {
		a.mu.Lock()
		if len(a.buf) > 0 || a.done {
			a.reads++
			n := copy(b, a.buf)
			a.buf = a.buf[n:]
			done := a.done && len(a.buf) == 0
			a.mu.Unlock()
			if done {
				return n, io.EOF
			}
			return n, nil
		}
		a.mu.Unlock()
		<-a.more
	}
}

// TestPacedBodyReadsAtMostEveryGap guards the streaming CPU: each read of
// the body and each piece handed on is a wake-up (of the reading goroutine;
// of the agent, the session recorder, the title watcher and the interface),
// and those wake-ups made a 4 KB/s stream 2-3 times dearer (docs/speed.md).
// A gateway writing a token every millisecond, each in 100 bytes of JSON
// as on the wire, must be read about once per readGap and handed on about
// once per paceInterval, not once per read or per piece. A loaded machine
// makes hand-ons rarer; a late gap can add one read at once after it (the
// read was large), hence twice the reads allowed.
func TestPacedBodyReadsAtMostEveryGap(t *testing.T) {
	t.Parallel()
	const pieces = 400
	piece := "data: " + strings.Repeat("x", 92) + "\n\n" // 100 bytes
	a := &arriving{more: make(chan struct{}, 1)}
	go a.feed(piece, time.Millisecond, pieces)
	r := newPacedBody(context.Background(), a)
	defer r.close()
	start := time.Now()
	got, _ := readAll(t, r)
	took := time.Since(start)
	if joined := strings.Join(got, ""); joined != strings.Repeat(piece, pieces) {
		t.Fatalf("read %d bytes, want %d", len(joined), pieces*len(piece))
	}
	a.mu.Lock()
	reads := a.reads
	a.mu.Unlock()
	if most := 2*int(took/readGap) + 3; reads > most {
		t.Errorf("the body was read %d times in %v, want at most %d (about one read per %v)", reads, took, most, readGap)
	}
	if most := int(took/paceInterval) + 3; len(got) > most {
		t.Errorf("%d pieces handed on in %v, want at most %d (one per %v): 100 KB/s of small pieces is not fast", len(got), took, most, paceInterval)
	}
}
