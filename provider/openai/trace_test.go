package openai

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
)

// TestTraceRetrying checks that every wait between attempts is announced
// through the context's trace, with the attempt about to be made, the
// limit, the wait, its deadline and the failure that caused it.
func TestTraceRetrying(t *testing.T) {
	t.Parallel()
	ok := streamOf(sse(delta(`{"content":"ok"}`), finishChunk("stop"), "[DONE]"))
	limited := failWith(http.StatusTooManyRequests, `{"error":{"message":"slow down"}}`, map[string]string{"Retry-After": "7"})
	unavailable := failWith(http.StatusServiceUnavailable, `{"error":{"message":"busy"}}`, map[string]string{"Retry-After": "3"})
	type want struct {
		attempt int
		wait    time.Duration
		kind    provider.ErrorKind
		status  int
	}
	for _, tc := range []struct {
		name      string
		responses []response
		want      []want
	}{
		{"429 then 503 then success", []response{limited, unavailable, ok}, []want{
			{2, 7 * time.Second, provider.ErrRateLimited, 429}, {3, 3 * time.Second, provider.ErrServer, 503},
		}},
		{"success at once", []response{ok}, nil},
		{"not retryable", []response{failWith(401, `{"error":{"message":"bad key"}}`, nil)}, nil},
		{"attempts exhausted: no notice for an attempt never made", []response{unavailable}, []want{
			{2, 3 * time.Second, provider.ErrServer, 503}, {3, 3 * time.Second, provider.ErrServer, 503}, {4, 3 * time.Second, provider.ErrServer, 503},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := newGateway(t, tc.responses...)
			p, waits := newProvider(t, g)
			var got []provider.Retrying
			ctx := provider.WithTrace(context.Background(), &provider.Trace{Retrying: func(r provider.Retrying) { got = append(got, r) }})
			before := time.Now()
			if s, err := p.Stream(ctx, userRequest("hi")); err == nil {
				_, _, _ = drain(t, s)
			}
			if len(got) != len(tc.want) || len(*waits) != len(tc.want) {
				t.Fatalf("%d notices, %d waits, want %d: %+v", len(got), len(*waits), len(tc.want), got)
			}
			for i, w := range tc.want {
				r := got[i]
				if r.Attempt != w.attempt || r.MaxAttempts != 4 || r.Wait != w.wait || (*waits)[i] != w.wait {
					t.Errorf("notice %d: attempt %d of %d, wait %v (slept %v); want attempt %d of 4, wait %v", i, r.Attempt, r.MaxAttempts, r.Wait, (*waits)[i], w.attempt, w.wait)
				}
				if r.Err == nil || r.Err.Kind != w.kind || r.Err.Status != w.status {
					t.Errorf("notice %d: error %v, want %s %d", i, r.Err, w.kind, w.status)
				}
				if d := r.At.Sub(before); d < w.wait || d > w.wait+5*time.Second {
					t.Errorf("notice %d: deadline %v after the start, want about %v", i, d, w.wait)
				}
			}
		})
	}
}
