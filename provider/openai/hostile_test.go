package openai

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
)

// TestHostileGatewaysNeverStallAnAnswer streams from gateways written by
// hand over TCP that do what odd gateways and proxies do, through tern's
// own connections (which hold small segments on Linux, dial.go): every
// byte must arrive in order, and every end or error must be reported
// promptly, never after more bytes or a timeout.
func TestHostileGatewaysNeverStallAnAnswer(t *testing.T) {
	t.Parallel()
	const (
		prompt = 300 * time.Millisecond // a stall is seconds, or the test's limit
		limit  = 10 * time.Second
	)
	ev := func(text string) string { return sse(delta(`{"content":` + quoteJSON(text) + `}`)) }
	done := sse(finishChunk("stop")) + "data: [DONE]\n\n"
	big := strings.Repeat("0123456789abcdef", 1<<16) // a 1 MB event
	cases := []struct {
		name    string
		network string
		serve   func(g *rawGateway, c *net.TCPConn, n int) bool
		edit    func(*Config)
		want    string
		isErr   func(error) bool // nil: no error
		endFrom string           // the gateway's mark the end is timed from
		marked  bool
	}{
		{
			name: "chunked encoding split at every byte",
			serve: func(g *rawGateway, c *net.TCPConn, _ int) bool {
				all := sseHead + chunked(ev("split")) + chunked(ev(" bytes")) + chunked(done) + lastChunk
				g.writeMarked(c, 50*time.Microsecond, bytesOf(all)...)
				return true
			},
			want: "split bytes", endFrom: "last", marked: true,
		},
		{
			name: "a Content-Length body on a kept-alive connection, then silence",
			serve: func(g *rawGateway, c *net.TCPConn, _ int) bool {
				body := ev("a") + ev("b") + sse(finishChunk("stop"))
				_ = writeAll(c, 0, fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: %d\r\n\r\n", len(body)))
				_ = writeAll(c, 20*time.Millisecond, body[:10], body[10:len(body)-3])
				g.writeMarked(c, 20*time.Millisecond, body[len(body)-3:])
				return true
			},
			want: "ab", endFrom: "last", marked: true,
		},
		{
			name: "a last chunk below the mark, then silence without the last chunk",
			serve: func(g *rawGateway, c *net.TCPConn, _ int) bool {
				_ = writeAll(c, 0, sseHead, chunked(ev("x")))
				g.writeMarked(c, 30*time.Millisecond, chunked(done))
				time.Sleep(2 * time.Second)
				return false
			},
			want: "x", endFrom: "last", marked: true,
		},
		{
			name: "half-closed mid-answer, then silence",
			serve: func(g *rawGateway, c *net.TCPConn, _ int) bool {
				_ = writeAll(c, 0, sseHead, chunked(ev("half")))
				time.Sleep(30 * time.Millisecond)
				g.mark("last")
				_ = c.CloseWrite()
				time.Sleep(2 * time.Second)
				return false
			},
			want: "half", isErr: func(err error) bool { return errors.Is(err, io.ErrUnexpectedEOF) }, endFrom: "last", marked: true,
		},
		{
			name: "reset mid-answer",
			serve: func(g *rawGateway, c *net.TCPConn, _ int) bool {
				_ = writeAll(c, 0, sseHead, chunked(ev("re")))
				time.Sleep(30 * time.Millisecond)
				g.mark("last")
				_ = c.SetLinger(0)
				_ = c.Close()
				return false
			},
			want: "re", isErr: isKind(provider.ErrNetwork), endFrom: "last", marked: true,
		},
		{
			name: "headers, then nothing (the first-token watchdog)",
			serve: func(g *rawGateway, c *net.TCPConn, _ int) bool {
				_ = writeAll(c, 0, sseHead)
				g.mark("headers")
				time.Sleep(3 * time.Second)
				return false
			},
			edit: func(cfg *Config) { cfg.FirstTokenTimeout = 300 * time.Millisecond },
			isErr: func(err error) bool {
				return errors.Is(err, context.DeadlineExceeded) && strings.Contains(err.Error(), "first_token_timeout")
			},
		},
		{
			name: "a byte every 20 ms",
			serve: func(g *rawGateway, c *net.TCPConn, _ int) bool {
				_ = writeAll(c, 0, sseHead)
				_ = writeAll(c, 20*time.Millisecond, bytesOf(chunked(`data: {"choices":[{"delta":{"content":"drip"}}]}`+"\n\n"))...)
				g.writeMarked(c, 20*time.Millisecond, chunked(`data: {"choices":[{"delta":{},"finish_reason":"stop"}]}`+"\n\n"), lastChunk)
				return true
			},
			want: "drip", endFrom: "last", marked: true,
		},
		{
			name: "a 1 MB event",
			serve: func(g *rawGateway, c *net.TCPConn, _ int) bool {
				_ = writeAll(c, 0, sseHead, chunked(ev(big)))
				g.writeMarked(c, 0, chunked(done), lastChunk)
				return true
			},
			// Not timed: under -race, decoding the event takes longer
			// than a stall would.
			want: big, marked: true,
		},
		{
			name: "a body delimited by closing the connection (HTTP/1.0)",
			serve: func(g *rawGateway, c *net.TCPConn, _ int) bool {
				_ = writeAll(c, 0, "HTTP/1.0 200 OK\r\nContent-Type: text/event-stream\r\n\r\n", ev("old"))
				_ = writeAll(c, 20*time.Millisecond, sse(finishChunk("stop")))
				time.Sleep(20 * time.Millisecond)
				g.mark("last")
				return false
			},
			want: "old", endFrom: "last", marked: true,
		},
		{
			name: "a gzip-encoded stream",
			serve: func(g *rawGateway, c *net.TCPConn, _ int) bool {
				_ = writeAll(c, 0, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n")
				var buf bytes.Buffer
				zw := gzip.NewWriter(&buf)
				for _, part := range []string{ev("zi"), ev("pped"), done} {
					_, _ = io.WriteString(zw, part)
					_ = zw.Flush()
					g.writeMarked(c, 20*time.Millisecond, chunked(buf.String()))
					buf.Reset()
				}
				_ = zw.Close()
				_ = writeAll(c, 0, chunked(buf.String()), lastChunk)
				return true
			},
			want: "zipped", endFrom: "last", marked: true,
		},
		{
			name: "a temporary redirect to another path",
			serve: func(g *rawGateway, c *net.TCPConn, n int) bool {
				if n == 0 {
					_ = writeAll(c, 0, "HTTP/1.1 307 Temporary Redirect\r\nLocation: /other/v1/chat/completions\r\nContent-Length: 0\r\n\r\n")
					return true
				}
				_ = writeAll(c, 0, sseHead, chunked(ev("moved")))
				g.writeMarked(c, 20*time.Millisecond, chunked(done), lastChunk)
				return true
			},
			want: "moved", endFrom: "last", marked: true,
		},
		{
			name:    "over IPv6",
			network: "tcp6",
			serve: func(g *rawGateway, c *net.TCPConn, _ int) bool {
				_ = writeAll(c, 0, sseHead, chunked(ev("six")))
				g.writeMarked(c, 20*time.Millisecond, chunked(done), lastChunk)
				return true
			},
			want: "six", endFrom: "last", marked: true,
		},
		{
			name: "a gzip-encoded error as JSON with 400, on a kept-alive connection",
			serve: func(g *rawGateway, c *net.TCPConn, _ int) bool {
				var buf bytes.Buffer
				zw := gzip.NewWriter(&buf)
				_, _ = io.WriteString(zw, `{"error":{"message":"bad field","type":"invalid_request_error"}}`)
				_ = zw.Close()
				_ = writeAll(c, 0, fmt.Sprintf("HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n%s", buf.Len(), buf.String()))
				return true
			},
			isErr: func(err error) bool {
				return isKind(provider.ErrBadRequest)(err) && strings.Contains(err.Error(), "bad field")
			},
		},
		{
			name: "a JSON document instead of a stream, on a kept-alive connection",
			serve: func(g *rawGateway, c *net.TCPConn, _ int) bool {
				body := `{"error":{"message":"streaming is off","type":"server_error","code":500}}`
				_ = writeAll(c, 0, fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(body)))
				g.writeMarked(c, 20*time.Millisecond, body[:9], body[9:])
				return true
			},
			isErr: func(err error) bool {
				return isKind(provider.ErrServer)(err) && strings.Contains(err.Error(), "streaming is off")
			},
			endFrom: "last", marked: true,
		},
		{
			name: "an error as JSON with 503",
			serve: func(g *rawGateway, c *net.TCPConn, _ int) bool {
				body := `{"error":{"message":"overloaded","type":"server_error"}}`
				_ = writeAll(c, 0, fmt.Sprintf("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body))
				return true
			},
			isErr: isKind(provider.ErrServer),
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			network := tc.network
			if network == "" {
				network = "tcp4"
			}
			var g *rawGateway
			g = newRawGateway(t, network, func(c *net.TCPConn, _ *http.Request, n int) bool { return tc.serve(g, c, n) })
			p := rawProvider(t, g.url(), tc.edit)
			s := streamOnce(t, p, 0, limit)
			if got := s.text(); got != tc.want {
				t.Errorf("text %q…(%d bytes), want %q…(%d bytes)", trimTo(got, 40), len(got), trimTo(tc.want, 40), len(tc.want))
			}
			switch {
			case tc.isErr == nil && s.err != nil:
				t.Errorf("error %v, want none", s.err)
			case tc.isErr != nil && !tc.isErr(s.err):
				t.Errorf("error %v is not the one expected", s.err)
			}
			if tc.endFrom != "" {
				soon(t, "the end", s.end.Sub(g.when(t, tc.endFrom)), prompt)
			}
			if want := tc.marked && runtime.GOOS == "linux"; s.marked != want && s.err == nil {
				t.Errorf("the connection holds small segments: %v, want %v", s.marked, want)
			}
		})
	}
}

// isKind accepts a *provider.Error of kind.
func isKind(kind provider.ErrorKind) func(error) bool {
	return func(err error) bool {
		var pe *provider.Error
		return errors.As(err, &pe) && pe.Kind == kind
	}
}

// trimTo cuts s to n bytes for a message.
func trimTo(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// TestRetriesOnMarkedConnections retries answers that failed before their
// first delta, on the connection kept alive after an error and on a new
// one after a reset, with a base URL that has a path before /v1: the
// retried answer streams whole.
func TestRetriesOnMarkedConnections(t *testing.T) {
	t.Parallel()
	ev := sse(delta(`{"content":"again"}`)) + sse(finishChunk("stop")) + "data: [DONE]\n\n"
	cases := []struct {
		name  string
		first func(c *net.TCPConn) bool
		conns int32
	}{
		{"after a 503 on the kept-alive connection", func(c *net.TCPConn) bool {
			body := `{"error":{"message":"busy","type":"server_error"}}`
			_ = writeAll(c, 0, fmt.Sprintf("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body))
			return true
		}, 1},
		{"after a reset before the first event", func(c *net.TCPConn) bool {
			_ = writeAll(c, 0, sseHead)
			time.Sleep(20 * time.Millisecond)
			_ = c.SetLinger(0)
			return false
		}, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := newRawGateway(t, "tcp4", func(c *net.TCPConn, req *http.Request, n int) bool {
				if req.URL.Path != "/gw/openai/v1/chat/completions" {
					_ = writeAll(c, 0, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
					return true
				}
				if n == 0 {
					return tc.first(c)
				}
				_ = writeAll(c, 0, sseHead, chunked(ev), lastChunk)
				return true
			})
			base := strings.TrimSuffix(g.url(), "/v1") + "/gw/openai/v1"
			p := rawProvider(t, base, func(c *Config) { c.MaxAttempts, c.BaseBackoff = 2, time.Millisecond })
			s := streamOnce(t, p, 0, 10*time.Second)
			wantText(t, s, "again", nil)
			if got := g.conns.Load(); got != tc.conns {
				t.Errorf("%d connections, want %d", got, tc.conns)
			}
			if want := runtime.GOOS == "linux"; s.marked != want {
				t.Errorf("the retried answer's connection holds small segments: %v, want %v", s.marked, want)
			}
		})
	}
}
