package openai

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
)

// TestEndlessHeadersAreBounded covers a slowloris gateway: it sends a
// status line, then one header line every few milliseconds and never the
// blank line that ends them. The wait for the first data event covers the
// header wait too, so the attempt ends at first_token_timeout.
func TestEndlessHeadersAreBounded(t *testing.T) {
	t.Parallel()
	handler := func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		defer func() { _ = conn.Close() }()
		_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n")
		_ = buf.Flush()
		for range 2000 { // at most 20 s, far past the limit
			time.Sleep(10 * time.Millisecond)
			if _, err := buf.WriteString("X-Pad: a\r\n"); err != nil {
				return
			}
			if buf.Flush() != nil {
				return
			}
		}
	}
	g := newGateway(t, response{handler: handler})
	t.Cleanup(g.srv.CloseClientConnections)
	p, _ := newProvider(t, g, func(c *Config) {
		c.MaxAttempts = 1
		c.FirstTokenTimeout = 200 * time.Millisecond
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	start := time.Now()
	s, err := p.Stream(ctx, userRequest("hi"))
	if err == nil {
		_, _, err = drain(t, s)
	}
	pe := providerError(t, err, provider.ErrNetwork)
	mustContain(t, pe.Message, "first_token_timeout")
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("the header wait took %v", took)
	}
}
