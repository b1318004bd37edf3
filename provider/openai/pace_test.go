package openai

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// timed is a body whose pieces arrive at given offsets from its first
// read, as a gateway writes them; Read blocks until the next one is due.
type timed struct {
	start  time.Time
	at     []time.Duration
	parts  []string
	closed chan struct{}
}

func newTimed(at []time.Duration, parts []string) *timed {
	return &timed{at: at, parts: parts, closed: make(chan struct{})}
}

func (p *timed) Read(b []byte) (int, error) {
	if p.start.IsZero() {
		p.start = time.Now()
	}
	if len(p.parts) == 0 {
		return 0, io.EOF
	}
	select {
	case <-time.After(time.Until(p.start.Add(p.at[0]))):
	case <-p.closed:
		return 0, errors.New("closed")
	}
	n := copy(b, p.parts[0])
	p.parts, p.at = p.parts[1:], p.at[1:]
	return n, nil
}

// readAll reads r to its end and returns each piece Read returned with when.
func readAll(t *testing.T, r io.Reader) (got []string, when []time.Time) {
	t.Helper()
	buf := make([]byte, 64<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			got, when = append(got, string(buf[:n])), append(when, time.Now())
		}
		if errors.Is(err, io.EOF) {
			return got, when
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestPacedBodySpacesSmallReads(t *testing.T) {
	t.Parallel()
	// A piece every 5 ms for 200 ms, then a pause: handed on at most every
	// paceInterval, and all of it.
	var at []time.Duration
	var parts []string
	for i := range 40 {
		at, parts = append(at, time.Duration(i)*5*time.Millisecond), append(parts, "x")
	}
	r := newPacedBody(context.Background(), newTimed(at, parts))
	defer r.close()
	start := time.Now()
	got, _ := readAll(t, r)
	took := time.Since(start)
	if joined := strings.Join(got, ""); joined != strings.Repeat("x", 40) {
		t.Fatalf("read %q", joined)
	}
	// Counted rather than timed one by one: a loaded machine may stall the
	// test between a Read and its clock reading. Unpaced, about 40.
	if most := int(took/paceInterval) + 2; len(got) > most {
		t.Errorf("%d pieces handed on in %v, want at most %d: not paced", len(got), took, most)
	}
}

func TestPacedBodyHandsOnTheEndAtOnce(t *testing.T) {
	t.Parallel()
	const text = `data: {"choices":[{"delta":{"content":"a"},"finish_reason":null}]}` + "\n\n"
	for _, tc := range []struct {
		name string
		last string
	}{
		{"finish reason", `data: {"choices":[{"delta":{},"finish_reason": "stop"}]}` + "\n\n"},
		{"done", "data: [DONE]\n\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// A loaded machine (CI runs the race detector on every package
			// at once) can delay any attempt; it never makes pacing faster,
			// which takes 2*paceInterval every time. So the end must come
			// early in one of three attempts.
			var took []time.Duration
			for range 3 {
				d := endTook(t, text, tc.last)
				if d < endAt+paceInterval/2 {
					return
				}
				took = append(took, d)
			}
			t.Errorf("the end was handed on after %v, want about %v", took, endAt)
		})
	}
}

// endAt is when endTook's source sends the end: the second piece is held
// until paceInterval, the end arrives 5 ms after that, and pacing would
// hold it 45 ms more.
const endAt = paceInterval + 5*time.Millisecond

// endTook reads a paced body whose source sends text at once, text again
// 20 ms later and last at endAt, and returns how long it took to read last.
func endTook(t *testing.T, text, last string) time.Duration {
	t.Helper()
	src := newTimed([]time.Duration{0, 20 * time.Millisecond, endAt, time.Hour}, []string{text, text, last, text})
	r := newPacedBody(context.Background(), src)
	defer func() { r.close(); close(src.closed) }()
	buf := make([]byte, 4096)
	var got strings.Builder
	start := time.Now()
	for !strings.Contains(got.String(), last) {
		n, err := r.Read(buf)
		if err != nil {
			t.Fatal(err)
		}
		got.Write(buf[:n])
	}
	return time.Since(start)
}

func TestPacedBodyKeepsUpWithLargeReads(t *testing.T) {
	t.Parallel()
	// net/http hands a body on at most 4 KB a read: a gateway writing
	// faster than it is read must be drained without a gap between reads.
	const parts, size = 200, 4 << 10
	big := strings.Repeat("x", size)
	var at []time.Duration
	var pieces []string
	for range parts {
		at, pieces = append(at, 0), append(pieces, big)
	}
	r := newPacedBody(context.Background(), newTimed(at, pieces))
	defer r.close()
	start := time.Now()
	got, _ := readAll(t, r)
	// With a readGap after each read this takes 199 gaps, 2 s at least;
	// drained at once, well under 0.1 s, but a loaded machine (the race
	// detector on every package) can stall the reading goroutine while the
	// consumer waits out its interval, hence the wide margin.
	if took := time.Since(start); took >= time.Second {
		t.Errorf("%d reads of %d bytes took %v: data arriving fast must not be paced", parts, size, took)
	}
	if n := len(strings.Join(got, "")); n != parts*size {
		t.Errorf("read %d bytes, want %d", n, parts*size)
	}
}

func TestPacedBodyWaitEndsOnCancel(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	src := newTimed([]time.Duration{0, time.Millisecond, time.Hour}, []string{"a", "b", "c"})
	r := newPacedBody(ctx, src)
	defer func() { r.close(); close(src.closed) }()
	buf := make([]byte, 8)
	if _, err := r.Read(buf); err != nil {
		t.Fatal(err)
	}
	cancel()
	if _, err := r.Read(buf); !errors.Is(err, context.Canceled) {
		t.Errorf("read after cancel: %v, want context.Canceled", err)
	}
}

func TestEndSeen(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{`"finish_reason":null}`, false},
		{`"finish_reason":"stop"}`, true},
		{`"finish_reason" : "length"`, true},
		{`"finish_reason":`, false},
		{`"finish_reason":null},{"finish_reason":"tool_calls"`, true},
		{"data: [DONE]\n", true},
		{`{"content":"hello"}`, false},
	} {
		if got := endSeen([]byte(tc.in)); got != tc.want {
			t.Errorf("endSeen(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestEventBuffered(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		body string
		want bool
	}{
		{"a whole data line", "data: {}\n", true},
		{"after a separator and a comment", "\n: keep-alive\n\ndata: [DONE]\n", true},
		{"a data line not yet complete", "data: {\"choices\":", false},
		{"only separators and comments", "\n: PROCESSING\n\n", false},
		{"an empty data field", "data: \n", false},
		{"nothing", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newSSEReader(strings.NewReader(tc.body))
			_, _ = s.r.Peek(len(tc.body)) // fill the buffer as a read from the network would
			if got := s.eventBuffered(); got != tc.want {
				t.Errorf("eventBuffered = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestPacedBodyLendsItsBuffer: answers one after another reuse one buffer,
// which goes back only once the consumer closed the body and its reading
// goroutine ended.
func TestPacedBodyLendsItsBuffer(t *testing.T) {
	t.Parallel()
	pool := &bufferPool{}
	pooled := func() int {
		pool.mu.Lock()
		defer pool.mu.Unlock()
		return len(pool.free)
	}
	waitPooled := func(want int) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); pooled() != want; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%d buffers pooled, want %d", pooled(), want)
			}
		}
	}
	body := sse(content("a"), finishChunk("stop")) + "data: [DONE]\n\n"
	for range 3 {
		r := newPacedBody(context.Background(), strings.NewReader(body))
		r.pool = pool
		if got, err := io.ReadAll(r); err != nil || string(got) != body {
			t.Fatalf("read %q, %v", got, err)
		}
		r.close()
		waitPooled(1)
	}

	// Closed while its reading goroutine still waits for the network: the
	// buffer stays lent until the read returns.
	pr, pw := io.Pipe()
	r := newPacedBody(context.Background(), pr)
	r.pool = pool
	go func() { _, _ = pw.Write([]byte(body)) }()
	b := make([]byte, 1)
	if _, err := r.Read(b); err != nil {
		t.Fatal(err)
	}
	r.close()
	time.Sleep(20 * time.Millisecond)
	if n := pooled(); n != 0 {
		t.Fatalf("%d buffers pooled while the reading goroutine runs", n)
	}
	_ = pw.CloseWithError(io.ErrClosedPipe)
	waitPooled(1)
}

// TestNextGap: an answer's small reads wait 1, 2, 4 and 8 ms, then readGap
// each, so a short answer is not held a whole readGap for its last bytes.
func TestNextGap(t *testing.T) {
	t.Parallel()
	want := []time.Duration{time.Millisecond, 2 * time.Millisecond, 4 * time.Millisecond, 8 * time.Millisecond, readGap, readGap}
	n := 0
	for i, w := range want {
		if got := nextGap(&n); got != w {
			t.Errorf("gap %d: %v, want %v", i, got, w)
		}
	}
	n = 1 << 20 // a very long answer: no overflow into a zero or negative gap
	if got := nextGap(&n); got != readGap {
		t.Errorf("after many gaps: %v, want %v", got, readGap)
	}
}
