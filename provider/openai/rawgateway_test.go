package openai

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// rawGateway is a gateway written by hand over TCP, for what httptest's
// server never does: splitting chunked encoding at every byte, half-closing,
// going quiet without ending the body, answering through a proxy's
// absolute-form request. serve answers one request on c and says whether
// the connection is kept for the next one.
type rawGateway struct {
	ln    net.Listener
	serve func(c *net.TCPConn, req *http.Request, n int) (keep bool) // req.Body is read already, and can be read again

	requests atomic.Int32 // requests seen
	conns    atomic.Int32 // connections accepted

	mu   sync.Mutex
	open map[net.Conn]bool
	at   map[string]time.Time
	wg   sync.WaitGroup
}

// newRawGateway listens on network's loopback ("tcp4" or "tcp6") and
// serves until the test ends.
func newRawGateway(t *testing.T, network string, serve func(c *net.TCPConn, req *http.Request, n int) bool) *rawGateway {
	t.Helper()
	addr := "127.0.0.1:0"
	if network == "tcp6" {
		addr = "[::1]:0"
	}
	ln, err := net.Listen(network, addr)
	if err != nil {
		t.Skipf("no %s loopback: %v", network, err)
	}
	g := &rawGateway{ln: ln, serve: serve, open: map[net.Conn]bool{}, at: map[string]time.Time{}}
	g.wg.Add(1)
	go g.accept()
	t.Cleanup(g.close)
	return g
}

// url is the gateway's base URL.
func (g *rawGateway) url() string { return "http://" + g.ln.Addr().String() + "/v1" }

func (g *rawGateway) accept() {
	defer g.wg.Done()
	for {
		c, err := g.ln.Accept()
		if err != nil {
			return
		}
		g.conns.Add(1)
		g.mu.Lock()
		g.open[c] = true
		g.mu.Unlock()
		g.wg.Add(1)
		go func() {
			defer g.wg.Done()
			defer func() {
				g.mu.Lock()
				delete(g.open, c)
				g.mu.Unlock()
				_ = c.Close()
			}()
			br := bufio.NewReader(c)
			for {
				req, err := http.ReadRequest(br)
				if err != nil {
					return
				}
				body, _ := io.ReadAll(req.Body)
				req.Body = io.NopCloser(bytes.NewReader(body))
				n := int(g.requests.Add(1)) - 1
				if !g.serve(c.(*net.TCPConn), req, n) {
					return
				}
			}
		}()
	}
}

// mark records now under name.
func (g *rawGateway) mark(name string) {
	g.mu.Lock()
	g.at[name] = time.Now()
	g.mu.Unlock()
}

// when is the time recorded under name.
func (g *rawGateway) when(t *testing.T, name string) time.Time {
	t.Helper()
	g.mu.Lock()
	defer g.mu.Unlock()
	w, ok := g.at[name]
	if !ok {
		t.Fatalf("the gateway recorded no %q", name)
	}
	return w
}

func (g *rawGateway) close() {
	_ = g.ln.Close()
	g.mu.Lock()
	for c := range g.open {
		_ = c.Close()
	}
	g.mu.Unlock()
	g.wg.Wait()
}

// sseHead is the head of a chunked event stream.
const sseHead = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"

// chunked frames s as one chunk.
func chunked(s string) string { return fmt.Sprintf("%x\r\n%s\r\n", len(s), s) }

// lastChunk ends a chunked body.
const lastChunk = "0\r\n\r\n"

// writeAll writes each part after pause, stopping at the first error.
func writeAll(c net.Conn, pause time.Duration, parts ...string) error {
	for _, p := range parts {
		if pause > 0 {
			time.Sleep(pause)
		}
		if _, err := io.WriteString(c, p); err != nil {
			return err
		}
	}
	return nil
}

// writeMarked is writeAll that records the time of each write under
// "last": the stream may end before the last parts (a finish reason ends
// it), and the end is timed from the write that held it.
func (g *rawGateway) writeMarked(c net.Conn, pause time.Duration, parts ...string) {
	for _, p := range parts {
		if pause > 0 {
			time.Sleep(pause)
		}
		g.mark("last")
		if _, err := io.WriteString(c, p); err != nil {
			return
		}
	}
}

// bytesOf splits s into one-byte parts.
func bytesOf(s string) []string {
	parts := make([]string, len(s))
	for i := range len(s) {
		parts[i] = s[i : i+1]
	}
	return parts
}

// rawProvider is a provider with tern's own client for g.
func rawProvider(t *testing.T, baseURL string, edit func(*Config)) *Provider {
	t.Helper()
	cfg := Config{BaseURL: baseURL, Model: "m", MaxAttempts: 1, HTTPClient: newHTTPClient()}
	if edit != nil {
		edit(&cfg)
	}
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cfg.HTTPClient.CloseIdleConnections)
	return p
}
