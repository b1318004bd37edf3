package openai

import (
	"bytes"
	"context"
	"io"
	"slices"
	"sync"
	"time"
)

// Reading pace. A gateway flushes every token as its own small write, so a
// reader that hands on each piece as it arrives wakes the agent, the session
// recorder and the interface once per token: a thousand times a second for
// a fast model. While the answer arrives in small pieces, what arrived is
// therefore handed on at most once per paceInterval. When paceBytes or more
// wait, the data comes faster than it is taken, and it is handed on at
// once, so pacing never limits throughput; the first piece after a pause in
// the stream is never delayed either.
//
// Small pieces are small in text, not on the wire: each token travels in a
// chunk of 100-400 bytes of JSON, so a model streaming 4 KB of text a
// second sends 100-150 KB. paceBytes is therefore what one read asks for,
// not a few KB: at 2 KB, a read that gathered 10-20 ms of such a stream
// counted as "faster than it is taken", so the stream was handed on after
// every read, 60-90 times a second, and each hand-on woke the agent, the
// session recorder, the title watcher and the interface (found by
// bisecting 8a7f74b..main and a runtime trace, docs/speed.md).
//
// The end of the stream is not paced: a finish reason, "data: [DONE]", the
// end of the body or an error are handed on as soon as they arrive, and so
// is everything after them. Telling the end needs the bytes, so a goroutine
// reads the body at most once per readGap while the reads are small:
// the end reaches the agent within readGap of the gateway's last byte
// instead of up to paceInterval later (the end of an answer was on screen
// 41-46 ms after the last byte before, 8-10 ms after,
// cmd/tern/e2e_bench_test.go). Wake-ups are what costs CPU: reading each
// piece as it arrives doubled a 4 KB/s stream's CPU. A 20 ms pace without
// the goroutine was no better on either count.
//
// Reading less often was not enough: every segment that arrives wakes Go's
// poller all the same (sockets are registered edge-triggered with epoll),
// 1000 times a second for a token per event, whether or not anything
// reads. A connection tern dials itself on Linux therefore holds small
// segments in the kernel while an answer streams (SO_RCVLOWAT) and reads
// on readGap's clock itself, without parking, so fill reads it without a
// gap of its own (dial.go, mark_linux.go). That halved the interface's
// context switches at 4 KB/s (1900 to 1000 a second) and took tern run
// from 0.06-0.07 to 0.035-0.04 CPU s a second (cmd/tern's
// TestE2EStreamCPUCompare on a loaded 2-CPU machine). Over HTTP/2 and TLS,
// as hosted gateways answer, net/http's goroutine read every frame as it
// came: tern run of a 1000-token-a-second answer went from 3200 context
// switches and 0.09-0.12 CPU s a second to 850 and 0.05-0.06. It also lets fill
// drain a TLS connection, whose reads hand on one record each: with a gap
// after each small read, an HTTP/1 answer over TLS was held to one event
// per readGap (TestOwnConnectionsNeverStallAnAnswer). Where the connection
// is not marked (other systems, a client a caller supplies), a small read
// from such a body that returned at once, from the records TLS holds, is
// followed by another at once for the same reason.
//
// The interval is longer than a 30 fps frame: a slowly streamed answer costs
// less CPU that way (the end-to-end benchmark's 4 KB/s stream), and the
// interface redraws streaming text no more often anyway, as its frames
// adapt to what they cost.
const (
	paceInterval = 50 * time.Millisecond
	paceBytes    = readChunk
	readGap      = 10 * time.Millisecond
	// firstGap is the first gap of an answer's reads; each gap after is
	// twice the one before, up to readGap. A short answer arrives whole
	// within a few milliseconds, and waited a whole readGap for its last
	// bytes after the first ones were read: tern run of a 360-byte answer
	// in 4-byte chunks took 48.5 ms against 39.1 for the same answer in
	// one chunk. A long one reads four more times in its first 15 ms.
	firstGap = time.Millisecond
	// readChunk is what one read of the body asks for; maxAhead bounds what
	// is read ahead of the consumer: as much as its line buffer takes at
	// once (readBufferSize). A fast answer keeps it full, so every byte of
	// the buffer is touched; at 256 KB that was 72 of a fresh process's
	// ~895 page faults in its first 62 KB answer, and reading further
	// ahead than the consumer takes in one read did not hand it more at a
	// time (BenchmarkStream15k the same).
	readChunk = 32 << 10
	// fastRead is a read large enough that the reading goroutine reads
	// again at once: net/http hands on at most its 4 KB buffer a read, so
	// a gateway writing faster than that is drained without gaps.
	fastRead = 2 << 10
	// quickRead is how soon a read returns when what it hands on was
	// already buffered above the socket rather than waited for.
	quickRead = 200 * time.Microsecond
	maxAhead  = 64 << 10
)

// pacedBody reads a response body at the pace described above. Its reading
// goroutine stops at the end of the body, at a read error, when ctx ends and
// at close; the stream closes the body as well, which ends a read that
// waits. The wait in Read ends at once when ctx is cancelled.
type pacedBody struct {
	ctx  context.Context
	r    io.Reader
	once sync.Once
	stop chan struct{} // closed by close
	// wake tells Read that what it waits for arrived; room tells the reading
	// goroutine that Read took data. Both hold one signal at most.
	wake chan struct{}
	room chan struct{}

	mu      sync.Mutex
	buf     []byte    // buf[head:] was read and not yet taken
	head    int       // what Read took of buf
	err     error     // the read error that ended the body, after buf
	end     bool      // the end was seen: nothing is paced any more
	scanned int       // buf[:scanned] was searched for the end
	waiting bool      // Read waits; wake it when due says so
	due     time.Time // from when Read takes any data, however small

	timer *time.Timer // Read's, for its waits
	// mark, when set, holds small segments in the kernel between fill's
	// reads (dial.go); nil reads the body as it is.
	mark streamMarker
	// records says the body comes through TLS over HTTP/1 without a mark:
	// each read hands on one TLS record, however many wait, so a small
	// read that returned at once is followed by another at once.
	records bool

	// pool lends buf (nil: buf is allocated); buf goes back once both the
	// reading goroutine (if it started) and the consumer (close) are done
	// with it. Guarded by mu.
	pool             *bufferPool
	started, filled  bool // the reading goroutine started; it ended
	closed, borrowed bool // close was called; buf came from pool
}

func newPacedBody(ctx context.Context, r io.Reader) *pacedBody {
	return &pacedBody{
		ctx:  ctx,
		r:    r,
		stop: make(chan struct{}),
		wake: make(chan struct{}, 1),
		room: make(chan struct{}, 1),
	}
}

// close stops the reading goroutine once its read returns; it is safe to
// call more than once.
func (p *pacedBody) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.stop:
	default:
		close(p.stop)
	}
	p.closed = true
	p.giveBackLocked()
}

// giveBackLocked returns buf to the pool once nobody uses it any more: the
// consumer closed the body and the reading goroutine never started or ended.
func (p *pacedBody) giveBackLocked() {
	if !p.borrowed || !p.closed || (p.started && !p.filled) {
		return
	}
	p.pool.put(p.buf)
	p.buf, p.head, p.scanned, p.borrowed = nil, 0, 0, false
}

// Read returns what arrived once it is due: at once after a large read, at
// the end of the stream or after a pause; otherwise paceInterval after the
// previous small one.
func (p *pacedBody) Read(b []byte) (int, error) {
	p.once.Do(func() {
		p.mu.Lock()
		p.started = true
		p.mu.Unlock()
		go p.fill()
	})
	for {
		if err := p.ctx.Err(); err != nil {
			return 0, err
		}
		p.mu.Lock()
		now := time.Now()
		if k := p.pending(); k > 0 && (p.end || k >= paceBytes || !now.Before(p.due)) {
			n := copy(b, p.buf[p.head:])
			p.head += n
			if p.head == len(p.buf) {
				p.buf, p.head, p.scanned = p.buf[:0], 0, 0
			}
			if n < paceBytes {
				p.due = now.Add(paceInterval)
			} else {
				p.due = now
			}
			p.mu.Unlock()
			signal(p.room)
			return n, nil
		}
		if p.pending() == 0 && p.err != nil {
			err := p.err
			p.mu.Unlock()
			return 0, err
		}
		// Wait for the reading goroutine, and until due: data that arrives
		// before then is taken then.
		p.waiting = true
		wait := p.due.Sub(now)
		p.mu.Unlock()
		err := p.sleep(wait)
		p.mu.Lock()
		p.waiting = false
		p.mu.Unlock()
		if err != nil {
			return 0, err
		}
	}
}

// sleep waits for a wake signal, for d when d > 0, or until ctx ends.
func (p *pacedBody) sleep(d time.Duration) error {
	var tc <-chan time.Time
	if d > 0 {
		if p.timer == nil {
			p.timer = time.NewTimer(d)
		} else {
			p.timer.Reset(d)
		}
		tc = p.timer.C
		defer p.timer.Stop()
	}
	select {
	case <-p.ctx.Done():
		return p.ctx.Err()
	case <-p.wake:
	case <-tc:
	}
	return nil
}

// fill is the reading goroutine: it appends what arrives to buf, marks the
// end when it sees it, and wakes Read when what it waits for is there.
func (p *pacedBody) fill() {
	if p.mark != nil {
		p.mark.stream(true)
		defer p.mark.stream(false)
	}
	defer func() {
		p.mu.Lock()
		p.filled = true
		p.giveBackLocked()
		p.mu.Unlock()
	}()
	var gap *time.Timer
	gaps := 0
	defer func() {
		if gap != nil {
			gap.Stop()
		}
	}()
	for {
		if !p.roomAhead() {
			return
		}
		p.mu.Lock()
		room, at := p.roomLocked()
		p.mu.Unlock()
		began := time.Now()
		n, err := p.r.Read(room)
		p.mu.Lock()
		p.landLocked(at, n)
		if err != nil {
			p.err, p.end = err, true
		}
		if !p.end && endSeen(p.buf[max(p.head, p.scanned-endOverlap, len(p.buf)-endWindow):]) {
			p.end = true
		}
		p.scanned = len(p.buf)
		k := p.pending()
		due := p.waiting && k > 0 && (p.end || k >= paceBytes || !time.Now().Before(p.due))
		end := p.end
		p.mu.Unlock()
		if due || err != nil {
			signal(p.wake)
		}
		if err != nil {
			return
		}
		if end || n >= fastRead || p.mark != nil || (p.records && time.Since(began) < quickRead) {
			continue // a large read, or a record of many: more is likely waiting; a marked connection paces its reads itself
		}
		// Small pieces: let more arrive before the next read.
		if gap == nil {
			gap = time.NewTimer(nextGap(&gaps))
		} else {
			gap.Reset(nextGap(&gaps))
		}
		select {
		case <-gap.C:
		case <-p.stop:
			return
		case <-p.ctx.Done():
			return
		}
	}
}

// pending is how many bytes wait for Read.
func (p *pacedBody) pending() int { return len(p.buf) - p.head }

// roomLocked returns the room the next read fills, at the end of buf
// (from at), first moving what waits to the front when Read took at least
// half of buf or when a read would not fit: growing buf instead kept what
// Read had taken, so a fast answer's buf grew towards the whole body (1.5
// MB allocated for a 1.2 MB answer, 45% of what a stream allocated,
// BenchmarkStream15k's memory profile). A buffer from the provider's pool
// holds maxAhead and one read more, so it never grows: fill reads only
// while less than maxAhead waits. The body is read straight into buf, not
// into a buffer of its own and copied: that buffer's 32 KB were fresh pages
// in a process's first answer, and the copy was every byte of every
// answer once more.
//
// Only the reading goroutine adds to buf, and Read only takes from it, so
// the room past len(buf) is the reading goroutine's while it reads without
// the lock; Read may empty buf meanwhile (landLocked).
func (p *pacedBody) roomLocked() (room []byte, at int) {
	if p.buf == nil {
		p.buf, p.borrowed = p.pool.get(), p.pool != nil
	}
	if p.head > 0 && (p.head >= len(p.buf)/2 || len(p.buf)+readChunk > cap(p.buf)) {
		n := copy(p.buf, p.buf[p.head:])
		p.buf, p.scanned, p.head = p.buf[:n], max(0, p.scanned-p.head), 0
	}
	p.buf = slices.Grow(p.buf, readChunk) // a pooled buffer has the room
	at = len(p.buf)
	return p.buf[at : at+readChunk], at
}

// landLocked adds the n bytes a read put at buf[at:] to what waits. Read
// may have taken everything meanwhile and emptied buf; then they move to
// its start.
func (p *pacedBody) landLocked(at, n int) {
	if n <= 0 {
		return
	}
	end := len(p.buf)
	if end != at {
		copy(p.buf[end:end+n], p.buf[at:at+n])
	}
	p.buf = p.buf[:end+n]
}

// roomAhead waits while maxAhead bytes wait for Read; it is false when the
// body is closed or ctx ends meanwhile.
func (p *pacedBody) roomAhead() bool {
	for {
		p.mu.Lock()
		full := p.pending() >= maxAhead
		p.mu.Unlock()
		if !full {
			select {
			case <-p.stop:
				return false
			default:
				return true
			}
		}
		select {
		case <-p.room:
		case <-p.stop:
			return false
		case <-p.ctx.Done():
			return false
		}
	}
}

// signal leaves a signal in c unless one waits there already.
func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// The end is searched for in what arrived, from endOverlap before it (a
// marker split between two reads is found), and only in its last
// endWindow bytes: the end comes last, with a usage chunk and [DONE] at
// most after it. Searching every chunk's "finish_reason":null cost a fast
// stream 0.2 µs an event.
const (
	endOverlap = 32
	endWindow  = 2 << 10
)

var finishKey = []byte(`"finish_reason"`)

// endSeen reports whether b holds the end of an answer: a finish reason
// with a value (not null) or a [DONE] data line. A false alarm (the words
// in the answer's text) only stops pacing early.
func endSeen(b []byte) bool {
	if bytes.Contains(b, doneMarker) {
		return true
	}
	for {
		i := bytes.Index(b, finishKey)
		if i < 0 {
			return false
		}
		b = b[i+len(finishKey):]
		j := 0
		for j < len(b) && (b[j] == ' ' || b[j] == ':' || b[j] == '\t') {
			j++
		}
		if j < len(b) && b[j] == '"' {
			return true
		}
	}
}

// nextGap is the gap before an answer's next small read, the *n-th: from
// firstGap, doubling up to readGap.
func nextGap(n *int) time.Duration {
	d := readGap
	if *n < 8 {
		d = min(readGap, firstGap<<*n)
	}
	*n++
	return d
}
