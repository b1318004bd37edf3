package openai

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
)

// TestEndlessEventLineIsBounded covers a gateway that sends one data line
// that never ends (no newline): tern stops at the 32 MiB line limit with a
// protocol error, not when memory or first_token_timeout runs out.
func TestEndlessEventLineIsBounded(t *testing.T) {
	t.Parallel()
	var wrote atomic.Int64
	handler := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		block := "data: " + strings.Repeat("x", 1<<20)
		for range 96 { // at most 96 MiB, then hold the connection open
			n, err := w.Write([]byte(block))
			wrote.Add(int64(n))
			if err != nil {
				return
			}
		}
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}
	g := newGateway(t, response{handler: handler})
	t.Cleanup(g.srv.CloseClientConnections)
	p, _ := newProvider(t, g, func(c *Config) { c.MaxAttempts = 1 })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second) // 32 MiB under the race detector on a loaded machine
	defer cancel()
	s, err := p.Stream(ctx, userRequest("hi"))
	if err == nil {
		_, _, err = drain(t, s)
	}
	pe := providerError(t, err, provider.ErrProtocol)
	mustContain(t, pe.Message, "32 MiB")
	if n := wrote.Load(); n > 64<<20 {
		t.Errorf("tern read %d MiB of one line", n>>20)
	}
}
