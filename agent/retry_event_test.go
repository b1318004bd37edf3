package agent

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// TestRetryEvents checks that both kinds of retry reach consumers as
// EventRetrying with the attempt about to be made, the limit, the wait, the
// moment it ends and the failure: the provider's, before anything streamed,
// and the agent's own, after a stream broke off.
func TestRetryEvents(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 12, 1, 12, 0, 30, 0, time.UTC)
	limited := &provider.Error{Kind: provider.ErrRateLimited, Status: 429, Message: "slow down", RetryAfter: 30 * time.Second}
	for _, tc := range []struct {
		name    string
		scripts []script
		order   string
		attempt int
		max     int
		wait    time.Duration
		at      time.Time // zero: about now + wait
		kind    provider.ErrorKind
		discard bool
	}{
		{
			name:    "provider retry before the first token",
			scripts: []script{{Retried: []provider.Retrying{{Attempt: 2, MaxAttempts: 4, Wait: 30 * time.Second, At: at, Err: limited}}, Deltas: answer("ok").Deltas}},
			order:   "request retrying text_delta",
			attempt: 2, max: 4, wait: 30 * time.Second, at: at, kind: provider.ErrRateLimited,
		},
		{
			name:    "agent retry after a broken stream",
			scripts: []script{{Deltas: []provider.Delta{text("par")}, Err: &provider.Error{Kind: provider.ErrNetwork, Message: "reset"}}, answer("whole")},
			order:   "request text_delta retrying request text_delta",
			attempt: 2, max: defaultMaxRetries + 1, wait: time.Millisecond, kind: provider.ErrNetwork, discard: true,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, tools.NewRegistry(), nil, tc.scripts...)
			h.metered = true
			before := time.Now()
			evs := h.turn("go", nil)
			if !strings.Contains(kindsString(kinds(evs)), tc.order) {
				t.Fatalf("order: %s, want %s in it", kindsString(kinds(evs)), tc.order)
			}
			rs := eventsOf(evs, EventRetrying)
			if len(rs) != 1 || rs[0].Retry == nil {
				t.Fatalf("%d retry events", len(rs))
			}
			r := rs[0].Retry
			if r.Attempt != tc.attempt || r.MaxAttempts != tc.max || r.Wait != tc.wait || r.DiscardPartial != tc.discard {
				t.Errorf("retry %+v, want attempt %d of %d in %v, discard %v", r, tc.attempt, tc.max, tc.wait, tc.discard)
			}
			want := tc.at
			if want.IsZero() && (r.At.Before(before.Add(tc.wait)) || r.At.After(time.Now().Add(tc.wait))) {
				t.Errorf("retry at %v, want between %v and now + %v", r.At, before.Add(tc.wait), tc.wait)
			}
			if !want.IsZero() && !r.At.Equal(want) {
				t.Errorf("retry at %v, want %v", r.At, want)
			}
			var pe *provider.Error
			if !errors.As(r.Err, &pe) || pe.Kind != tc.kind || r.Reason != pe.Error() {
				t.Errorf("retry error %v (reason %q), want kind %s", r.Err, r.Reason, tc.kind)
			}
			if fin := finishOf(t, evs); fin.Reason != FinishDone {
				t.Errorf("finish %+v", fin)
			}
		})
	}
}
