package agent

import (
	"errors"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// TestAnswerCapCountsEachCall streams an answer of a flood of tiny tool
// calls (a one-letter name each, no arguments): each costs the agent far
// more than its few bytes (a call record, an announcement, a result, a
// message in the next request). The cap charges every call a fixed share,
// so the flood ends the turn with ErrAnswerTooLarge quickly, without
// announcing or running the calls past the cap.
func TestAnswerCapCountsEachCall(t *testing.T) {
	t.Parallel()
	const calls = 40000
	flood := script{}
	for i := range calls {
		flood.Deltas = append(flood.Deltas, callFrag(i, "", "x", ""))
	}
	flood.Deltas = append(flood.Deltas, finish(provider.FinishToolCalls))
	read, _, _ := fakeTools()
	h := newHarness(t, tools.NewRegistry(read), func(o *Options) {
		o.MaxAnswerBytes = 1 << 20
		o.Policy = PolicyFullAuto
	}, flood, answer("a second request must not be sent"))
	start := time.Now()
	evs := h.turn("call a lot", nil)
	took := time.Since(start)
	started := 0
	for _, ev := range evs {
		if ev.Kind == EventToolCallStarted {
			started++
		}
	}
	if max := (1 << 20) / callCost; started > max {
		t.Errorf("%d calls announced, want at most %d", started, max)
	}
	last := evs[len(evs)-1]
	if last.Finish == nil || last.Finish.Reason != FinishFailed || !errors.Is(last.Err, ErrAnswerTooLarge) {
		t.Fatalf("turn ended %+v, want failed with ErrAnswerTooLarge", last.Finish)
	}
	if took > 10*time.Second {
		t.Errorf("the turn took %v", took)
	}
}
