package openai

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// loopback returns a markConn dialled to a fresh listener and the server's
// end of it.
func loopback(t *testing.T) (*markConn, *net.TCPConn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ln.Close() }()
	d, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	s, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	c, ok := markable(d).(*markConn)
	if !ok {
		t.Fatalf("markable(%T) is not a *markConn", d)
	}
	t.Cleanup(func() { _ = c.Close(); _ = s.Close() })
	return c, s.(*net.TCPConn)
}

// markNow is the socket's SO_RCVLOWAT.
func markNow(t *testing.T, c *markConn) int {
	t.Helper()
	var v int
	var gerr error
	if err := c.raw.Control(func(fd uintptr) {
		v, gerr = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVLOWAT)
	}); err != nil || gerr != nil {
		t.Fatalf("getsockopt: %v %v", err, gerr)
	}
	return v
}

type readResult struct {
	s   string
	err error
	at  time.Time
}

// startRead reads c once in a goroutine.
func startRead(c net.Conn) <-chan readResult {
	ch := make(chan readResult, 1)
	go func() {
		b := make([]byte, 64)
		n, err := c.Read(b)
		ch <- readResult{string(b[:n]), err, time.Now()}
	}()
	return ch
}

// within waits at most d for a read's result.
func within(t *testing.T, ch <-chan readResult, d time.Duration) readResult {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(d):
		t.Fatalf("the read did not return within %v", d)
		return readResult{}
	}
}

// raised starts streaming on c and reads a first byte, which raises the
// mark.
func raised(t *testing.T, c *markConn, s net.Conn) {
	t.Helper()
	c.stream(true)
	if _, err := s.Write([]byte("a")); err != nil {
		t.Fatal(err)
	}
	if r := within(t, startRead(c), time.Second); r.s != "a" || r.err != nil {
		t.Fatalf("first read = %q, %v", r.s, r.err)
	}
	if m := markNow(t, c); m <= 1 || m != c.high {
		t.Fatalf("mark after a streaming read = %d, want the raised %d", m, c.high)
	}
}

// parked waits until a read has had time to park, and checks the mark is
// one byte then.
func parked(t *testing.T, c *markConn) {
	t.Helper()
	time.Sleep(30 * time.Millisecond)
	if m := markNow(t, c); m != 1 {
		t.Errorf("mark while a read is parked = %d, want 1: a small piece would not wake it", m)
	}
}

// TestMarkConnNeverStalls drives a markConn through what a streaming
// answer's connection meets: each case ends with a read that must return
// its bytes, the end or the error at once.
func TestMarkConnNeverStalls(t *testing.T) {
	t.Parallel()
	const soon = 2 * time.Second // a stall waits forever; a loaded machine with -race takes a while
	cases := []struct {
		name string
		run  func(t *testing.T, c *markConn, s *net.TCPConn)
	}{
		{"data below the raised mark is read without waiting for more", func(t *testing.T, c *markConn, s *net.TCPConn) {
			raised(t, c, s)
			_, _ = s.Write([]byte("bc"))
			time.Sleep(20 * time.Millisecond)
			if r := within(t, startRead(c), soon); r.s != "bc" || r.err != nil {
				t.Fatalf("read = %q, %v, want bc", r.s, r.err)
			}
		}},
		{"a read that finds nothing parks at a mark of one and wakes for a byte", func(t *testing.T, c *markConn, s *net.TCPConn) {
			raised(t, c, s)
			ch := startRead(c)
			parked(t, c)
			sent := time.Now()
			_, _ = s.Write([]byte("z"))
			r := within(t, ch, soon)
			if r.s != "z" || r.err != nil {
				t.Fatalf("read = %q, %v, want z", r.s, r.err)
			}
			if d := r.at.Sub(sent); d > time.Second {
				t.Errorf("a byte after a pause was read %v after it was sent", d)
			}
			if m := markNow(t, c); m != c.high {
				t.Errorf("mark after the parked read = %d, want %d again", m, c.high)
			}
		}},
		{"a FIN wakes a parked read", func(t *testing.T, c *markConn, s *net.TCPConn) {
			raised(t, c, s)
			ch := startRead(c)
			parked(t, c)
			_ = s.Close()
			if r := within(t, ch, soon); r.err != io.EOF {
				t.Fatalf("read = %q, %v, want io.EOF", r.s, r.err)
			}
		}},
		{"a last piece below the mark and a FIN are read in order", func(t *testing.T, c *markConn, s *net.TCPConn) {
			raised(t, c, s)
			_, _ = s.Write([]byte("tail"))
			_ = s.Close()
			time.Sleep(20 * time.Millisecond)
			if r := within(t, startRead(c), soon); r.s != "tail" || r.err != nil {
				t.Fatalf("read = %q, %v, want tail", r.s, r.err)
			}
			if r := within(t, startRead(c), soon); r.err != io.EOF {
				t.Fatalf("read after the tail = %q, %v, want io.EOF", r.s, r.err)
			}
		}},
		{"a reset wakes a parked read with ECONNRESET", func(t *testing.T, c *markConn, s *net.TCPConn) {
			raised(t, c, s)
			ch := startRead(c)
			parked(t, c)
			_ = s.SetLinger(0)
			_ = s.Close()
			if r := within(t, ch, soon); !errors.Is(r.err, syscall.ECONNRESET) {
				t.Fatalf("read = %q, %v, want ECONNRESET", r.s, r.err)
			}
		}},
		{"a reset between reads is reported by the read that does not park", func(t *testing.T, c *markConn, s *net.TCPConn) {
			raised(t, c, s)
			_ = s.SetLinger(0)
			_ = s.Close()
			time.Sleep(20 * time.Millisecond)
			r := within(t, startRead(c), soon)
			var op *net.OpError
			if !errors.Is(r.err, syscall.ECONNRESET) || !errors.As(r.err, &op) || op.Op != "read" {
				t.Fatalf("read = %q, %v, want a read *net.OpError for ECONNRESET", r.s, r.err)
			}
		}},
		{"a read deadline ends a parked read", func(t *testing.T, c *markConn, s *net.TCPConn) {
			raised(t, c, s)
			_ = c.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
			if r := within(t, startRead(c), soon); !errors.Is(r.err, os.ErrDeadlineExceeded) {
				t.Fatalf("read = %q, %v, want the deadline", r.s, r.err)
			}
		}},
		{"closing the connection ends a parked read", func(t *testing.T, c *markConn, s *net.TCPConn) {
			raised(t, c, s)
			ch := startRead(c)
			parked(t, c)
			_ = c.Close()
			if r := within(t, ch, soon); !errors.Is(r.err, net.ErrClosed) {
				t.Fatalf("read = %q, %v, want net.ErrClosed", r.s, r.err)
			}
		}},
		{"the end of streaming lowers the mark at the next read", func(t *testing.T, c *markConn, s *net.TCPConn) {
			raised(t, c, s)
			c.stream(false)
			ch := startRead(c)
			parked(t, c)
			_, _ = s.Write([]byte("next"))
			if r := within(t, ch, soon); r.s != "next" || r.err != nil {
				t.Fatalf("read = %q, %v, want next", r.s, r.err)
			}
			if m := markNow(t, c); m != 1 {
				t.Errorf("mark after streaming = %d, want 1", m)
			}
		}},
		{"a connection that does not stream keeps a mark of one", func(t *testing.T, c *markConn, s *net.TCPConn) {
			_, _ = s.Write([]byte("x"))
			if r := within(t, startRead(c), soon); r.s != "x" || r.err != nil {
				t.Fatalf("read = %q, %v, want x", r.s, r.err)
			}
			if m := markNow(t, c); m != 1 {
				t.Errorf("mark = %d, want 1", m)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, s := loopback(t)
			tc.run(t, c, s)
		})
	}
}

// readSyscalls is how many read system calls the process has made.
func readSyscalls(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		t.Skipf("no /proc/self/io: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "syscr: "); ok {
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Skip("no syscr in /proc/self/io")
	return 0
}

// TestMarkedConnReadsAtMostEveryGap guards what the mark is for: a
// gateway writing a token every millisecond is read about once per
// readGap, not once per token, and the socket is never read in a busy loop
// by a read that does not park. Not parallel: it counts the process's
// read system calls.
func TestMarkedConnReadsAtMostEveryGap(t *testing.T) {
	const tokens = 400
	ev := sse(delta(`{"content":"tok."}`))
	g := &scripted{steps: manyTokens(tokens, time.Millisecond, func(string) string { return ev }, sse(finishChunk("stop"))+"data: [DONE]\n\n")}
	p := scriptedProvider(t, g, overHTTP, nil)
	before := readSyscalls(t)
	start := time.Now()
	s := streamOnce(t, p, 0, 10*time.Second)
	took := time.Since(start)
	reads := readSyscalls(t) - before
	wantText(t, s, strings.Repeat("tok.", tokens), nil)
	if !s.marked {
		t.Fatal("the connection did not hold small segments")
	}
	// The count is the process's: besides a read that finds data and one
	// that finds none before each nap, the runtime reads its poller's
	// wake-up descriptor, and the server reads the request. A read per
	// token would add one a millisecond, a busy loop thousands.
	if most := 6*int(took/readGap) + 40; reads > most {
		t.Errorf("%d read system calls in %v, want at most %d (a few per %v)", reads, took.Round(time.Millisecond), most, readGap)
	}
	t.Logf("%d read system calls in %v", reads, took.Round(time.Millisecond))
}

// TestHTTP2AnswersShareTheMark streams two answers at once over one
// HTTP/2 connection, the second starting while the first pauses, then a
// third on the connection left idle: each arrives whole and on time, and
// the connection stops holding segments once none streams.
func TestHTTP2AnswersShareTheMark(t *testing.T) {
	t.Parallel()
	ev := func(text string) string { return sse(delta(`{"content":` + quoteJSON(text) + `}`)) }
	g := &scripted{steps: []step{{write: ev("a")}, {wait: 300 * time.Millisecond, write: ev("b")},
		{wait: 20 * time.Millisecond, write: sse(finishChunk("stop")) + "data: [DONE]\n\n"}}}
	p := scriptedProvider(t, g, overH2, nil)
	var mu sync.Mutex
	conns := map[net.Conn]bool{}
	stream := func() (streamed, time.Duration) {
		ctx := httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) {
			mu.Lock()
			conns[info.Conn] = true
			mu.Unlock()
		}})
		start := time.Now()
		s, err := p.Stream(ctx, userRequest("hi"))
		if err != nil {
			return streamed{err: err}, 0
		}
		var got streamed
		for s.Next() {
			got.deltas = append(got.deltas, timedDelta{s.Delta(), time.Now()})
		}
		got.err = s.Err()
		_ = s.Close()
		return got, time.Since(start)
	}
	const most = 320*time.Millisecond + time.Second // the script; a stall is forever
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			time.Sleep(time.Duration(i) * 100 * time.Millisecond)
			s, took := stream()
			wantText(t, s, "ab", nil)
			if took > most {
				t.Errorf("answer %d took %v, want at most %v", i+1, took, most)
			}
		})
	}
	wg.Wait()
	mu.Lock()
	var c net.Conn
	for k := range conns {
		c = k
	}
	n := len(conns)
	mu.Unlock()
	if n != 1 {
		t.Fatalf("the answers went over %d connections, want one", n)
	}
	mc, ok := markerOf(c).(*markConn)
	if !ok {
		t.Fatalf("the connection is a %T, not tern's own", c)
	}
	deadline := time.Now().Add(time.Second)
	for mc.streams.Load() != 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if k := mc.streams.Load(); k != 0 {
		t.Errorf("%d answers still stream after both ended", k)
	}
	s, took := stream()
	wantText(t, s, "ab", nil)
	if took > most {
		t.Errorf("the answer on the idle connection took %v, want at most %v", took, most)
	}
}

// TestMarkConnOutlivesAnEarlierAnswersEnd: the body's end hands the
// connection back to net/http before the answer's reading goroutine
// returns and ends its streaming, so the next answer on that connection
// can begin streaming first. The earlier answer's late end must not end
// the later one's: its reads would park at a mark of one for every
// segment, and its reading goroutine, which leaves the pace to the
// connection, would read each token as it came.
func TestMarkConnOutlivesAnEarlierAnswersEnd(t *testing.T) {
	t.Parallel()
	c, s := loopback(t)
	c.stream(true) // the earlier answer
	c.stream(true) // the next one, on the connection handed back
	c.stream(false)
	if _, err := s.Write([]byte("a")); err != nil {
		t.Fatal(err)
	}
	if r := within(t, startRead(c), time.Second); r.s != "a" || r.err != nil {
		t.Fatalf("read = %q, %v", r.s, r.err)
	}
	if m := markNow(t, c); m != c.high || m <= 1 {
		t.Errorf("mark while the later answer streams = %d, want it raised (%d)", m, c.high)
	}
	c.stream(false)
	ch := startRead(c)
	parked(t, c)
	_, _ = s.Write([]byte("b"))
	if r := within(t, ch, time.Second); r.s != "b" || r.err != nil {
		t.Fatalf("read after both ended = %q, %v", r.s, r.err)
	}
	if m := markNow(t, c); m != 1 {
		t.Errorf("mark once both answers ended = %d, want 1", m)
	}
}

// TestMarkConnNapEndsWithTheStreaming: when a body's end hands the
// connection back, net/http's own goroutine reads it for the next
// response while the answer's reading goroutine still streams, and that
// read naps. The end of streaming must end the nap: the next response,
// arriving meanwhile, would wait out the rest of readGap. A nap is never
// shorter than readGap, so the quickest of a few tries tells the two apart
// on a loaded machine; a try that misses the nap (the mark is high only
// while it lasts) is not counted.
func TestMarkConnNapEndsWithTheStreaming(t *testing.T) {
	t.Parallel()
	quickest, tries := time.Hour, 0
	for range 40 {
		if tries == 10 {
			break
		}
		c, s := loopback(t)
		c.stream(true)
		ch := startRead(c)
		// The read found nothing and naps once it raised the mark.
		napping := false
		for deadline := time.Now().Add(readGap / 2); !napping && time.Now().Before(deadline); {
			napping = markNow(t, c) > 1
			if !napping {
				time.Sleep(50 * time.Microsecond)
			}
		}
		ended := time.Now()
		c.stream(false)
		_, _ = s.Write([]byte("next"))
		r := within(t, ch, time.Second)
		if r.s != "next" || r.err != nil {
			t.Fatalf("read = %q, %v, want next", r.s, r.err)
		}
		if napping {
			tries++
			quickest = min(quickest, r.at.Sub(ended))
		}
	}
	if tries < 3 {
		t.Skipf("saw the read nap %d times in 40: the machine is too busy to tell", tries)
	}
	if quickest >= readGap/2 {
		t.Errorf("a response arriving as the streaming ended was read %v later at best, want at once: the nap went on", quickest)
	}
}

// TestIdleConnectionParksAtAMarkOfOne streams an answer whose body ends
// with its last event, so its connection goes back to the pool, and
// checks that the idle connection, read by net/http for whatever comes
// next, settles at a mark of one: a raised mark there would hold the next
// response's first bytes.
func TestIdleConnectionParksAtAMarkOfOne(t *testing.T) {
	t.Parallel()
	g := newRawGateway(t, "tcp4", func(c *net.TCPConn, _ *http.Request, _ int) bool {
		_ = writeAll(c, 0, sseHead+chunked(sse(delta(`{"content":"hi"}`), finishChunk("stop"))+"data: [DONE]\n\n")+lastChunk)
		return true
	})
	p := rawProvider(t, g.url(), nil)
	for range 5 {
		s, err := p.Stream(context.Background(), userRequest("hi"))
		if err != nil {
			t.Fatal(err)
		}
		mc, ok := s.(*stream).paced.mark.(*markConn)
		if !ok {
			t.Fatal("the answer's connection is not marked")
		}
		if _, _, err := drain(t, s); err != nil {
			t.Fatal(err)
		}
		m := markNow(t, mc)
		for deadline := time.Now().Add(time.Second); m != 1 && time.Now().Before(deadline); m = markNow(t, mc) {
			time.Sleep(time.Millisecond)
		}
		if m != 1 {
			t.Fatalf("the idle connection's mark is %d, want 1", m)
		}
	}
	if n := g.conns.Load(); n != 1 {
		t.Errorf("%d connections for 5 answers: the test needs one kept alive", n)
	}
}
