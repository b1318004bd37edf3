package openai

import (
	"net"
	"net/http"
	"testing"
	"time"
)

// TestAFinishedAnswerThenSilenceIsNotAFailure: a gateway sends the
// finish reason and then neither usage, [DONE] nor the end of the body,
// and keeps the connection open. The answer is complete; when the idle
// limit ends the wait for the rest, the stream must end normally, not
// fail with stream_idle_timeout, which the agent retries: the finished
// answer would be asked for, and paid for, again.
func TestAFinishedAnswerThenSilenceIsNotAFailure(t *testing.T) {
	t.Parallel()
	g := newRawGateway(t, "tcp4", func(c *net.TCPConn, req *http.Request, _ int) bool {
		_ = writeAll(c, 0, sseHead, chunked(sse(delta(`{"content":"all of it"}`))), chunked(sse(finishChunk("stop"))))
		time.Sleep(3 * time.Second)
		return false
	})
	p := rawProvider(t, g.url(), func(c *Config) { c.StreamIdleTimeout = 300 * time.Millisecond })
	s := streamOnce(t, p, 0, 10*time.Second)
	wantText(t, s, "all of it", nil)
	var finished bool
	for _, d := range s.deltas {
		finished = finished || d.d.Finish != 0
	}
	if !finished {
		t.Error("no finish reason was delivered")
	}
}

// TestAFinishedAnswerEndsSoonWithoutItsTrailer: after the finish reason,
// the wait for usage and [DONE] is bounded by trailerWait, not by the
// idle limit, so an answer whose gateway goes silent after finishing ends
// in seconds, not minutes, with the default limits.
func TestAFinishedAnswerEndsSoonWithoutItsTrailer(t *testing.T) {
	t.Parallel()
	quiet := make(chan struct{}) // the gateway is silent until the test ends
	g := newRawGateway(t, "tcp4", func(c *net.TCPConn, req *http.Request, _ int) bool {
		_ = writeAll(c, 0, sseHead, chunked(sse(delta(`{"content":"all of it"}`))), chunked(sse(finishChunk("stop"))))
		<-quiet
		return false
	})
	t.Cleanup(func() { close(quiet) }) // before the gateway's own cleanup
	p := rawProvider(t, g.url(), nil)  // the default limits
	start := time.Now()
	s := streamOnce(t, p, 0, 30*time.Second)
	wantText(t, s, "all of it", nil)
	// A loaded machine adds seconds; the idle limit it replaces is 120 s.
	if took := time.Since(start); took < trailerWait || took > trailerWait+10*time.Second {
		t.Errorf("the finished answer ended after %v, want about trailerWait (%v)", took, trailerWait)
	}
}
