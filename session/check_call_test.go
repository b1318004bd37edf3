package session

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
)

// TestCheckBeforeACallWritesItsAnswer follows the agent's order: the
// answer streams, its calls are ready, then the agent checks the log
// before the first call runs (EventToolRunning comes after). The answer
// that holds the call must be written by then, so that a full disk stops
// the call instead of letting it run unrecorded.
func TestCheckBeforeACallWritesItsAnswer(t *testing.T) {
	t.Parallel()
	for _, full := range []bool{false, true} {
		sink := &memSink{}
		w := newWriter(sink, "mem", Header{}, 0, options{flush: time.Hour, now: time.Now})
		rec := NewRecorder(w)
		ctx := context.Background()
		in := make(chan agent.Event, 8)
		out := rec.Tap(ctx, in)
		send := func(ev agent.Event) {
			in <- ev
			<-out
		}
		send(agent.Event{Kind: agent.EventTurnStarted, Turn: 1, Text: "go"})
		if err := rec.Check(ctx, 1); err != nil {
			t.Fatalf("Check before any failure: %v", err)
		}
		if full {
			sink.mu.Lock()
			sink.fail = syscall.ENOSPC
			sink.mu.Unlock()
		}
		call := &agent.Call{ID: "c1", Name: "run_shell", Args: json.RawMessage(`{"command":"touch ran"}`)}
		send(agent.Event{Kind: agent.EventTextDelta, Turn: 1, Text: "I will run it"})
		send(agent.Event{Kind: agent.EventToolCallStarted, Turn: 1, Call: call})
		send(agent.Event{Kind: agent.EventToolCallReady, Turn: 1, Call: call})
		err := rec.Check(ctx, 4)
		switch {
		case full && !errors.Is(err, syscall.ENOSPC):
			t.Errorf("Check before the call on a full disk = %v, want ENOSPC: the call would run unrecorded", err)
		case !full && err != nil:
			t.Errorf("Check before the call = %v", err)
		case !full:
			sink.mu.Lock()
			got := sink.buf.String()
			sink.mu.Unlock()
			if !strings.Contains(got, `touch ran`) || !strings.Contains(got, "I will run it") {
				t.Errorf("the answer with the call was not written before the check:\n%s", got)
			}
		}
		_ = w.Close()
	}
}
