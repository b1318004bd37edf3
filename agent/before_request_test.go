package agent

import (
	"context"
	"sync"
	"testing"

	"github.com/ternhq/tern/tools"
)

// TestBeforeRequestCountsTheEventsSoFar checks the hook the session log
// waits in: it runs before each model request with how many events were
// emitted until then, so the second request's count covers the tool result
// that request carries. The harness counts every event, the meter's too.
func TestBeforeRequestCountsTheEventsSoFar(t *testing.T) {
	t.Parallel()
	read, _, _ := fakeTools()
	var mu sync.Mutex
	var counts []uint64
	h := newHarness(t, tools.NewRegistry(read), func(o *Options) {
		o.BeforeRequest = func(_ context.Context, emitted uint64) error {
			mu.Lock()
			counts = append(counts, emitted)
			mu.Unlock()
			return nil
		}
	}, calls("read_file", `{"path":"a.txt"}`), answer("done"))
	h.metered, h.appends = true, true // count what the agent emits, all of it
	evs := h.turn("read it", nil)

	mu.Lock()
	defer mu.Unlock()
	if len(counts) != 2 {
		t.Fatalf("BeforeRequest ran %d times, want once per request (2)", len(counts))
	}
	result := -1
	for i, ev := range evs {
		if ev.Kind == EventToolFinished {
			result = i
		}
	}
	if result < 0 {
		t.Fatalf("no tool result among %v", kinds(evs))
	}
	if counts[1] < uint64(result+1) || counts[1] > uint64(len(evs)) {
		t.Errorf("before the second request %d events were counted; the tool result is event %d of %d", counts[1], result+1, len(evs))
	}
	if counts[0] >= counts[1] {
		t.Errorf("counts %v do not grow between the requests", counts)
	}
}
