package openai

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
)

// TestStreamEmptyEventsAreNotProgress covers a gateway that keeps the
// stream alive with data events that carry nothing toward an answer: no
// choices, a role alone, empty content, empty tool-call fragments, usage
// alone. Like keep-alive comments they do not hold the attempt open:
// before any text it ends at first_token_timeout, after some text at
// stream_idle_timeout, after a finish reason at stream_idle_timeout too,
// but as a complete answer.
func TestStreamEmptyEventsAreNotProgress(t *testing.T) {
	t.Parallel()
	empty := []string{
		`{"id":"c","object":"chat.completion.chunk","choices":[]}`,
		delta(`{"role":"assistant"}`),
		delta(`{"content":""}`),
		delta(`{"tool_calls":[{"index":0,"function":{"arguments":""}}]}`),
		`{"id":"c","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`,
	}
	for _, tt := range []struct {
		name    string
		head    string
		filler  []string
		setting string
		text    string
	}{
		{"before any text", "", empty, "first_token_timeout", ""},
		{"after some text", sse(delta(`{"role":"assistant","content":"Hi"}`)), empty, "stream_idle_timeout", "Hi"},
		// A finish reason ends the answer once; sent again and again it
		// brings nothing more: the idle limit ends the wait for the rest,
		// and the answer, complete, is not a failure (setting "").
		{"finish again and again", sse(delta(`{"role":"assistant","content":"Hi"}`)),
			[]string{finishChunk("stop")}, "", "Hi"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			handler := func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				w.Header().Set("Content-Type", "text/event-stream")
				_, _ = io.WriteString(w, tt.head)
				w.(http.Flusher).Flush()
				tick := time.NewTicker(5 * time.Millisecond)
				defer tick.Stop()
				for i := 0; ; i++ {
					select {
					case <-r.Context().Done():
						return
					case <-tick.C:
					}
					if _, err := io.WriteString(w, sse(tt.filler[i%len(tt.filler)])); err != nil {
						return
					}
					w.(http.Flusher).Flush()
				}
			}
			g := newGateway(t, response{handler: handler})
			t.Cleanup(g.srv.CloseClientConnections)
			p, _ := newProvider(t, g, func(c *Config) {
				c.MaxAttempts = 1
				c.FirstTokenTimeout = 150 * time.Millisecond
				c.StreamIdleTimeout = 100 * time.Millisecond
			})
			// The deadline only keeps a broken watchdog from hanging the test.
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			acc := &provider.Accumulator{}
			s, err := p.Stream(ctx, userRequest("hi"))
			if err == nil {
				_, acc, err = drain(t, s)
			}
			switch {
			case tt.setting == "" && err != nil:
				t.Errorf("a finished answer failed: %v", err)
			case tt.setting != "":
				pe := providerError(t, err, provider.ErrNetwork)
				mustContain(t, pe.Message, tt.setting)
			}
			if acc.Text() != tt.text {
				t.Errorf("text = %q, want %q", acc.Text(), tt.text)
			}
		})
	}
}
