package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestTmuxInterruptPausesQueue streams an answer slowly from a gateway,
// queues a message, and interrupts: the gateway gets no request for the
// queued message until enter on the empty input sends it.
func TestTmuxInterruptPausesQueue(t *testing.T) {
	t.Parallel()
	g := newSSEGateway(t, func(s *sse, req chatRequest, r *http.Request) {
		if req.lastUser() != "think slowly" {
			s.text("answer to: "+req.lastUser(), 16, 0)
			s.finish("stop")
			return
		}
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for i := 0; ; i++ {
			select {
			case <-r.Context().Done():
				return
			case <-tick.C:
				s.delta(map[string]any{"content": fmt.Sprintf("word%d ", i)})
			}
		}
	})
	s, _ := startTern(t, g, nil)
	s.typeText("think slowly")
	s.keys("Enter")
	s.waitText(tmuxTimeout, "word3 ")
	s.typeText("queued prompt")
	s.keys("Enter")
	s.waitText(tmuxTimeout, "queued: queued prompt")
	s.keys("Escape")
	s.waitText(tmuxTimeout, "interrupted", "paused: enter sends, ↑ edits", "queued: queued prompt")
	// Long enough for a queued message that was sent to reach the gateway.
	time.Sleep(time.Second)
	if n := len(g.requests()); n != 1 {
		t.Fatalf("the gateway saw %d requests after the interrupt, want 1 (the queue is paused):\n%s", n, s.screen())
	}
	s.keys("Enter")
	scr := s.waitText(tmuxTimeout, "answer to: queued prompt")
	if strings.Contains(scr, "paused") {
		t.Errorf("the queue still shows paused after enter sent it:\n%s", scr)
	}
}
