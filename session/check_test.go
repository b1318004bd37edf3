package session

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
)

// TestCheckReportsAFailedWrite checks what stops a turn on a full disk:
// Recorder.Check waits for the events Tap recorded, has them written (without
// an fsync) and returns the write's error; before the failure it returns nil.
func TestCheckReportsAFailedWrite(t *testing.T) {
	t.Parallel()
	sink := &memSink{}
	w := newWriter(sink, "mem", Header{}, 0, options{flush: time.Hour, now: time.Now})
	defer func() { _ = w.Close() }()
	rec := NewRecorder(w)
	ctx := context.Background()
	in := make(chan agent.Event, 4)
	out := rec.Tap(ctx, in)
	send := func(ev agent.Event) {
		in <- ev
		<-out
	}

	send(agent.Event{Kind: agent.EventTurnStarted, Turn: 1, Text: "first"})
	if err := rec.Check(ctx, 1); err != nil {
		t.Fatalf("Check before any failure: %v", err)
	}
	sink.mu.Lock()
	written, syncs := sink.buf.Len(), sink.syncs
	sink.fail = syscall.ENOSPC
	sink.mu.Unlock()
	if written == 0 {
		t.Error("Check returned before the user message was written")
	}
	if syncs != 0 {
		t.Errorf("Check synced the file %d times; it only needs the write", syncs)
	}

	send(agent.Event{Kind: agent.EventTextDelta, Turn: 1, Text: "partial"})
	send(agent.Event{Kind: agent.EventToolCallStarted, Turn: 1, Call: &agent.Call{ID: "c1", Name: "read_file"}})
	send(agent.Event{Kind: agent.EventMessageAppended, Turn: 1, Message: &provider.Message{
		Role: provider.RoleAssistant, Content: "partial", ToolCalls: []provider.ToolCall{{ID: "c1", Name: "read_file", Arguments: "{}"}},
	}})
	send(agent.Event{Kind: agent.EventToolRunning, Turn: 1, Call: &agent.Call{ID: "c1", Name: "read_file"}})
	err := rec.Check(ctx, 5)
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Check after a failed write = %v, want ENOSPC", err)
	}
	if err := rec.Check(ctx, 5); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("a second Check forgot the failure: %v", err)
	}

	// A cancelled wait checks nothing: no request or call follows it.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := rec.Check(cctx, 99); err != nil {
		t.Errorf("Check with a cancelled context = %v, want nil", err)
	}
}
