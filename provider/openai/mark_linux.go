package openai

import (
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/ternhq/tern/internal/rawio"
)

// Bounds of the raised mark. It is a quarter of the socket's receive
// buffer, so that raising it never grows the buffer nor clamps the window
// (tcp_set_rcvlowat does both for a mark the buffer cannot hold twice).
// Reaching it only wakes the poller, as every segment did before.
const (
	minMark = 4 << 10
	maxMark = 64 << 10
)

// markConn is a TCP connection whose receive low mark is raised between
// the reads of a streaming answer (dial.go says why). Its reads are
// sequential, as net.Conn's users make them; stream and Close may be called
// from any goroutine.
type markConn struct {
	net.Conn
	raw syscall.RawConn
	// closed is closed by Close: it ends a nap.
	closed    chan struct{}
	closeOnce sync.Once
	// ended holds a signal once streaming ends: it ends a nap, which may be
	// net/http's own read for the next response, begun as the body's end
	// handed the connection back while the answer still streamed.
	ended chan struct{}
	nap   *time.Timer // Read's
	// naps counts Read's naps in the answer streaming (nextGap); fresh
	// says a new answer began, and the count starts again.
	naps  int
	fresh atomic.Bool
	// streams counts the answers streaming over the connection: HTTP/2
	// carries several, and the next one on a reused HTTP/1 connection can
	// begin before the earlier one's reading goroutine has ended its own.
	// raised says the socket's mark is high. Only Read changes the
	// socket's mark.
	streams atomic.Int32
	raised  atomic.Bool
	// broken stops raising the mark after setsockopt failed once.
	broken atomic.Bool
	high   int // the raised mark, chosen at the first raise; Read's only
}

// markable wraps a TCP connection in a markConn; other connections are
// returned as they are.
func markable(c net.Conn) net.Conn {
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return c
	}
	raw, err := tc.SyscallConn()
	if err != nil {
		return c
	}
	return &markConn{Conn: c, raw: raw, closed: make(chan struct{}), ended: make(chan struct{}, 1)}
}

func (c *markConn) stream(on bool) {
	if on {
		c.streams.Add(1)
		c.fresh.Store(true)
		select { // a signal left by an earlier answer
		case <-c.ended:
		default:
		}
		return
	}
	if c.streams.Add(-1) > 0 {
		return
	}
	select {
	case c.ended <- struct{}{}:
	default:
	}
}

// streaming says an answer streams over the connection.
func (c *markConn) streaming() bool { return c.streams.Load() > 0 }

// Close closes the connection and ends a read's nap.
func (c *markConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return c.Conn.Close()
}

// Read returns what the socket holds. While an answer streams it reads
// without parking, whatever the mark; when the socket holds nothing it
// naps (1 ms at first, then longer up to readGap: nextGap) with the mark
// raised, so the segments arriving
// meanwhile wake no one, and looks again: reading on this clock, rather
// than once per read of the body, is what paces a body read through TLS,
// which hands on one record per read. When the socket still holds nothing
// (a pause), and always when no answer streams, it lowers the mark to one
// byte before the ordinary read that parks, so any byte, the end or an
// error wakes it at once.
func (c *markConn) Read(b []byte) (int, error) {
	if len(b) > 0 && c.streaming() {
		got, n, err := c.readNow(b)
		if got == socketEmpty {
			c.raise()
			if c.sleep() {
				got, n, err = c.readNow(b)
			}
		}
		if got == socketRead {
			if err == nil {
				c.raise()
			}
			return n, err
		}
	}
	c.lower()
	n, err := c.Conn.Read(b)
	if err == nil && c.streaming() {
		c.raise()
	}
	return n, err
}

// What a read that does not wait found.
type nowRead int

const (
	socketRead  nowRead = iota // bytes, the end or the socket's error
	socketEmpty                // nothing yet
	// readUsual: the connection is closed or past its deadline, or the
	// read was interrupted; the ordinary read reports it as usual.
	readUsual
)

// readNow reads what the socket holds without waiting.
func (c *markConn) readNow(b []byte) (nowRead, int, error) {
	var n int
	var errno error
	if rerr := c.raw.Read(func(fd uintptr) bool {
		n, errno = rawio.Read(int(fd), b)
		return true
	}); rerr != nil {
		return readUsual, 0, nil
	}
	switch {
	case errno == syscall.EAGAIN:
		return socketEmpty, 0, nil
	case errno == syscall.EINTR:
		return readUsual, 0, nil
	case errno != nil:
		// As net.Conn's Read reports it; the socket's error is consumed.
		return socketRead, 0, &net.OpError{Op: "read", Net: c.LocalAddr().Network(), Source: c.LocalAddr(), Addr: c.RemoteAddr(),
			Err: os.NewSyscallError("read", errno)}
	case n == 0:
		return socketRead, 0, io.EOF
	}
	return socketRead, n, nil
}

// sleep waits the answer's next gap (nextGap), or until streaming ends;
// it is false when the connection closed meanwhile.
func (c *markConn) sleep() bool {
	if c.fresh.Swap(false) {
		c.naps = 0
	}
	d := nextGap(&c.naps)
	if c.nap == nil {
		c.nap = time.NewTimer(d)
	} else {
		c.nap.Reset(d)
	}
	select {
	case <-c.nap.C:
		return true
	case <-c.ended:
		c.nap.Stop()
		return true
	case <-c.closed:
		c.nap.Stop()
		return false
	}
}

// raise sets the socket's mark high unless it is.
func (c *markConn) raise() {
	if c.raised.Load() || c.broken.Load() {
		return
	}
	if c.high == 0 {
		c.high = minMark
		_ = c.raw.Control(func(fd uintptr) {
			if buf, err := syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF); err == nil {
				c.high = min(max(buf/4, minMark), maxMark)
			}
		})
	}
	if c.setMark(c.high) {
		c.raised.Store(true)
	}
}

// lower sets the socket's mark back to one byte if it was raised. Setting
// it makes the socket readable at once if anything waits (the kernel
// checks), and the read after it tries the socket before it parks anyway.
func (c *markConn) lower() {
	if !c.raised.Load() {
		return
	}
	if c.setMark(1) {
		c.raised.Store(false)
	}
}

// setMark sets the socket's SO_RCVLOWAT; after a failure the mark is no
// longer raised.
func (c *markConn) setMark(v int) bool {
	var serr error
	if err := c.raw.Control(func(fd uintptr) {
		serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVLOWAT, v)
	}); err != nil || serr != nil {
		c.broken.Store(true)
		return false
	}
	return true
}
