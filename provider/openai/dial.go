package openai

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/http/httptrace"
	"sync/atomic"
)

// Waking for every segment. A gateway writes each token as its own event,
// a thousand small TCP segments a second for a fast model, and Go's poller
// is woken by every one of them even while nothing reads the socket: the
// pacedBody reads it at most once per readGap (pace.go). On Linux the
// connections tern dials itself therefore raise the socket's receive low
// mark (SO_RCVLOWAT) while an answer streams, so the kernel holds small
// segments without waking anyone; the goroutine that reads the connection
// (the body's over HTTP/1, net/http's over HTTP/2) takes them on readGap's
// clock with reads that never park, and lowers the mark to one byte before
// it parks, so a pause, the end of the answer, a FIN or an error wake it at
// once (mark_linux.go). Other systems and clients a caller supplies read
// as before.

// connReadBuffer is the transport's read buffer (newHTTPClient).
const connReadBuffer = 64 << 10

// newHTTPClient returns the client requests go through when the
// configuration names none: http.DefaultTransport's settings (proxies from
// the environment, TLS, HTTP/2, keep-alive and its timeouts) on a transport
// of the provider's own, whose TCP connections can hold small segments.
func newHTTPClient() *http.Client {
	def, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return &http.Client{} // replaced by a program that knows better
	}
	tr := def.Clone()
	// net/http reads an HTTP/1 body through a buffer of this size: at its
	// default 4 KB a fast answer took a system call per 4 KB, and the
	// chunked reader stops at its end (a gateway's write per token is a
	// chunk per token).
	tr.ReadBufferSize = connReadBuffer
	dial := tr.DialContext
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return markable(c), nil
	}
	return &http.Client{Transport: tr}
}

// streamMarker is a connection that can hold small segments while an
// answer streams: stream(true) lets it raise the mark between reads,
// stream(false) ends that (the next read lowers it). The calls come in
// pairs, one pair per answer, and the pairs of two answers on a reused
// connection may overlap.
type streamMarker interface {
	stream(on bool)
}

// markerOf returns the marker under c (a TLS connection's too), or nil.
func markerOf(c net.Conn) streamMarker {
	if tc, ok := c.(*tls.Conn); ok {
		c = tc.NetConn()
	}
	m, _ := c.(streamMarker)
	return m
}

// connTrace returns ctx with a trace that records the connection its
// request goes out on in got.
func connTrace(ctx context.Context, got *atomic.Pointer[net.Conn]) context.Context {
	return httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) {
			c := info.Conn
			got.Store(&c)
		},
	})
}
