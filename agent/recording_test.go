package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ternhq/tern/tools"
)

// TestRecordingFailureStopsTheTurn checks the hooks the session log uses
// to stop a turn it cannot record: refused before a model request, no
// request is sent; refused before a tool call, neither that call nor the
// next runs, each gets a "not run" result, and no request follows. The
// turn fails with the hook's error.
func TestRecordingFailureStopsTheTurn(t *testing.T) {
	t.Parallel()
	failed := fmt.Errorf("%w: write session: no space left on device", ErrRecording)
	tests := []struct {
		name string
		// failAt is the 1-based hook call that fails (and every one after).
		request, tool int
		requests      int // sent to the provider
		ran           int // tool runs
	}{
		{name: "first request", request: 1, requests: 0, ran: 0},
		{name: "request after a tool result", request: 2, requests: 1, ran: 2},
		{name: "first tool call", tool: 1, requests: 1, ran: 0},
		{name: "second tool call", tool: 2, requests: 1, ran: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			read, _, _ := fakeTools()
			var requests, toolCalls atomic.Int32
			hook := func(n *atomic.Int32, failAt int) func(context.Context, uint64) error {
				return func(context.Context, uint64) error {
					if k := int(n.Add(1)); failAt > 0 && k >= failAt {
						return failed
					}
					return nil
				}
			}
			h := newHarness(t, tools.NewRegistry(read), func(o *Options) {
				o.Policy = PolicyFullAuto
				o.BeforeRequest = hook(&requests, tt.request)
				o.BeforeTool = hook(&toolCalls, tt.tool)
			}, calls("read_file", `{"path":"a.txt"}`, "read_file", `{"path":"b.txt"}`), answer("done"))
			evs := h.turn("read both", nil)
			last := evs[len(evs)-1]
			if last.Finish == nil || last.Finish.Reason != FinishFailed || !errors.Is(last.Err, ErrRecording) {
				t.Fatalf("turn ended %+v (%v), want failed with ErrRecording", last.Finish, last.Err)
			}
			if !strings.Contains(last.Text, "no space left on device") {
				t.Errorf("error %q does not say why", last.Text)
			}
			if n := len(h.prov.Requests()); n != tt.requests {
				t.Errorf("%d requests sent, want %d", n, tt.requests)
			}
			if n := len(read.runs()); n != tt.ran {
				t.Errorf("%d tool runs, want %d", n, tt.ran)
			}
			results := 0
			for _, ev := range evs {
				if ev.Kind == EventToolFinished {
					results++
					if ev.Result == nil {
						t.Fatal("a tool result without a result")
					}
				}
			}
			if tt.requests > 0 && results != 2 {
				t.Errorf("%d tool results, want one for each of the 2 calls", results)
			}
		})
	}
}
