package openai

import (
	"context"
	"errors"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
)

// holdOpen is a handler that sends what head writes, then only keep-alive
// comments every tick (none when tick is 0), until the client leaves.
func holdOpen(head func(w http.ResponseWriter), tick time.Duration) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if head != nil {
			head(w)
			w.(http.Flusher).Flush()
		}
		if tick == 0 {
			<-r.Context().Done()
			return
		}
		t := time.NewTicker(tick)
		defer t.Stop()
		for {
			select {
			case <-r.Context().Done():
				return
			case <-t.C:
				if _, err := io.WriteString(w, ": ping\n\n"); err != nil {
					return
				}
				w.(http.Flusher).Flush()
			}
		}
	}
}

// TestStreamWaitsAreBounded covers gateways that leave tern waiting: one
// that never sends headers, one that sends headers and then only keep-alive
// comments, one that sends part of an answer and stalls (with and without
// comments). Each attempt ends at its limit as a retryable network error
// naming the setting; the provider retries while nothing was delivered, and
// the final failure reaches the caller.
func TestStreamWaitsAreBounded(t *testing.T) {
	t.Parallel()
	sseHead := func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
	}
	someData := func(w http.ResponseWriter) {
		sseHead(w)
		_, _ = io.WriteString(w, sse(delta(`{"role":"assistant","content":"Hel"}`), delta(`{"content":"lo"}`)))
	}
	tests := []struct {
		name    string
		handler http.HandlerFunc
		setting string
		// attempts is how many requests the gateway sees: the provider
		// retries only while no delta reached the caller.
		attempts int
		text     string // delivered before the failure
	}{
		{"no headers", holdOpen(nil, 0), "first_token_timeout", 3, ""},
		{"headers then only comments", holdOpen(sseHead, 5*time.Millisecond), "first_token_timeout", 3, ""},
		{"headers then silence", holdOpen(sseHead, 0), "first_token_timeout", 3, ""},
		{"some data then comments", holdOpen(someData, 5*time.Millisecond), "stream_idle_timeout", 1, "Hello"},
		{"some data then silence", holdOpen(someData, 0), "stream_idle_timeout", 1, "Hello"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			g := newGateway(t, response{handler: tt.handler})
			t.Cleanup(g.srv.CloseClientConnections)
			p, waits := newProvider(t, g, func(c *Config) {
				c.MaxAttempts = 3
				c.FirstTokenTimeout = 150 * time.Millisecond
				c.StreamIdleTimeout = 100 * time.Millisecond
			})
			start := time.Now()
			// The deadline only keeps a broken watchdog from hanging the
			// test; its error names no setting.
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			acc := &provider.Accumulator{}
			s, err := p.Stream(ctx, userRequest("hi"))
			if err == nil {
				_, acc, err = drain(t, s)
			}
			took := time.Since(start)
			pe := providerError(t, err, provider.ErrNetwork)
			mustContain(t, pe.Message, tt.setting)
			if !provider.IsRetryable(err) {
				t.Errorf("error %v is not retryable", err)
			}
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("error %v does not wrap context.DeadlineExceeded", err)
			}
			if got := int(g.count.Load()); got != tt.attempts {
				t.Errorf("gateway saw %d attempts, want %d", got, tt.attempts)
			}
			if len(*waits) != tt.attempts-1 {
				t.Errorf("waited %d times between attempts, want %d", len(*waits), tt.attempts-1)
			}
			if acc.Text() != tt.text {
				t.Errorf("text = %q, want %q", acc.Text(), tt.text)
			}
			if took > 5*time.Second {
				t.Errorf("the stream took %v to fail", took)
			}
		})
	}
}

// TestStreamIdleCountsOnlyWaiting checks that the idle limit measures the
// gaps between data events, not the stream's length: an answer whose
// events come every 40 ms for far longer than the 100 ms limit completes,
// and a consumer slower than the limit between two Next calls does not
// trip it either.
func TestStreamIdleCountsOnlyWaiting(t *testing.T) {
	t.Parallel()
	slow := func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		for range 10 {
			_, _ = io.WriteString(w, ": ping\n\n"+sse(delta(`{"content":"x"}`)))
			w.(http.Flusher).Flush()
			time.Sleep(40 * time.Millisecond)
		}
		_, _ = io.WriteString(w, sse(finishChunk("stop"))+"data: [DONE]\n\n")
	}
	g := newGateway(t, response{handler: slow})
	p, _ := newProvider(t, g, func(c *Config) {
		c.FirstTokenTimeout = 100 * time.Millisecond
		c.StreamIdleTimeout = 100 * time.Millisecond
	})
	s, err := p.Stream(context.Background(), userRequest("hi"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	var text string
	for s.Next() {
		if d := s.Delta(); d.Kind == provider.DeltaText {
			text += d.Text
			if len(text) == 3 {
				time.Sleep(250 * time.Millisecond) // a consumer busy for longer than the limit
			}
		}
	}
	if err := s.Err(); err != nil {
		t.Fatalf("stream failed: %v", err)
	}
	if text != "xxxxxxxxxx" {
		t.Errorf("text = %q", text)
	}
}

// TestStreamWaitsEitherLimitOff checks each limit alone: with the first
// limit off a slow first event is waited for and a later stall still ends
// the attempt; with the idle limit off, the reverse.
func TestStreamWaitsEitherLimitOff(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name        string
		first, idle time.Duration
		setting     string
	}{
		{"first off", -1, 100 * time.Millisecond, "stream_idle_timeout"},
		{"idle off", 100 * time.Millisecond, -1, "first_token_timeout"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			slowThenStall := func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				w.Header().Set("Content-Type", "text/event-stream")
				w.WriteHeader(http.StatusOK)
				w.(http.Flusher).Flush()
				if tt.first < 0 {
					time.Sleep(250 * time.Millisecond) // longer than the other limit
				} else {
					<-r.Context().Done()
					return
				}
				_, _ = io.WriteString(w, sse(delta(`{"content":"late"}`)))
				w.(http.Flusher).Flush()
				<-r.Context().Done()
			}
			g := newGateway(t, response{handler: slowThenStall})
			t.Cleanup(g.srv.CloseClientConnections)
			p, _ := newProvider(t, g, func(c *Config) {
				c.MaxAttempts = 1
				c.FirstTokenTimeout, c.StreamIdleTimeout = tt.first, tt.idle
			})
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			acc := &provider.Accumulator{}
			s, err := p.Stream(ctx, userRequest("hi"))
			if err == nil {
				_, acc, err = drain(t, s)
			}
			pe := providerError(t, err, provider.ErrNetwork)
			mustContain(t, pe.Message, tt.setting)
			if tt.first < 0 && acc.Text() != "late" {
				t.Errorf("text %q: the slow first event was not waited for", acc.Text())
			}
		})
	}
}
