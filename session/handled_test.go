package session

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
)

// TestWaitRecorded checks that WaitRecorded returns once Tap has recorded
// the given number of events, and gives up when its context ends.
func TestWaitRecorded(t *testing.T) {
	t.Parallel()
	w, err := Create(t.TempDir(), Header{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Close() })
	rec := NewRecorder(w)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in := make(chan agent.Event, 4)
	out := rec.Tap(ctx, in)

	in <- agent.Event{Kind: agent.EventTurnStarted, Turn: 1}
	in <- agent.Event{Kind: agent.EventTextDelta, Turn: 1, Text: "hi"}
	waitCtx, waitCancel := context.WithTimeout(ctx, 5*time.Second)
	defer waitCancel()
	if err := rec.WaitRecorded(waitCtx, 2); err != nil {
		t.Fatalf("WaitRecorded(2) after two events: %v", err)
	}
	for range 2 {
		<-out
	}

	short, shortCancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer shortCancel()
	if err := rec.WaitRecorded(short, 3); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("WaitRecorded(3) with two events recorded = %v, want the deadline", err)
	}

	done := make(chan error, 1)
	go func() { done <- rec.WaitRecorded(waitCtx, 3) }()
	in <- agent.Event{Kind: agent.EventTextDelta, Turn: 1, Text: " there"}
	<-out
	if err := <-done; err != nil {
		t.Fatalf("WaitRecorded(3) after the third event: %v", err)
	}
}
