package openai

import (
	"context"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
)

func TestBackoff(t *testing.T) {
	t.Parallel()
	low := func(int64) int64 { return 0 }
	high := func(n int64) int64 { return n - 1 }
	for _, tc := range []struct {
		attempt    int
		retryAfter time.Duration
		jitter     func(int64) int64
		want       time.Duration
	}{
		{1, 0, low, 50 * time.Millisecond},
		{1, 0, high, 150*time.Millisecond - 1},
		{2, 0, low, 100 * time.Millisecond},
		{3, 0, high, 600*time.Millisecond - 1},
		{20, 0, low, maxBackoff / 2},
		{20, 0, high, 3*maxBackoff/2 - 1},
		{1000, 0, low, maxBackoff / 2},
		{1, 7 * time.Second, high, 7 * time.Second},
		{3, 100 * time.Millisecond, high, 600*time.Millisecond - 1},
	} {
		if got := backoff(100*time.Millisecond, tc.attempt, tc.retryAfter, tc.jitter); got != tc.want {
			t.Errorf("backoff(attempt %d, retryAfter %v) = %v, want %v", tc.attempt, tc.retryAfter, got, tc.want)
		}
	}
}

func TestBackoffJitterVaries(t *testing.T) {
	t.Parallel()
	g := newGateway(t, streamOf(sse(finishChunk("stop"))))
	p, _ := newProvider(t, g)
	seen := map[time.Duration]bool{}
	for range 50 {
		d := backoff(time.Second, 1, 0, p.jitter)
		if d < 500*time.Millisecond || d >= 1500*time.Millisecond {
			t.Fatalf("jittered wait %v outside [0.5s, 1.5s)", d)
		}
		seen[d] = true
	}
	if len(seen) < 10 {
		t.Errorf("only %d distinct waits in 50 draws", len(seen))
	}
}

func TestRetries(t *testing.T) {
	t.Parallel()
	ok := streamOf(sse(delta(`{"content":"ok"}`), finishChunk("stop"), "[DONE]"))
	unavailable := failWith(http.StatusServiceUnavailable, `{"error":{"message":"overloaded"}}`, nil)
	for _, tc := range []struct {
		name        string
		maxAttempts int
		responses   []response
		requests    int
		kind        provider.ErrorKind // 0: success
		text        string
		waits       int
	}{
		{"5xx then success", 0, []response{unavailable, unavailable, ok}, 3, 0, "ok", 2},
		{"attempts exhausted", 3, []response{unavailable}, 3, provider.ErrServer, "", 2},
		{"default is 4 attempts", 0, []response{unavailable}, 4, provider.ErrServer, "", 3},
		{"one attempt", 1, []response{unavailable}, 1, provider.ErrServer, "", 0},
		{"auth is not retried", 0, []response{failWith(401, `{"error":{"message":"bad key"}}`, nil)}, 1, provider.ErrAuth, "", 0},
		{"bad request is not retried", 0, []response{failWith(400, `{"error":{"message":"bad"}}`, nil)}, 1, provider.ErrBadRequest, "", 0},
		{"in-stream error before the first delta", 0, []response{
			streamOf(sse(delta(`{"role":"assistant","content":""}`), `{"error":{"message":"upstream 502","code":502}}`)), ok,
		}, 2, 0, "ok", 1},
		{"stream closed before the first delta", 0, []response{streamOf(sse(delta(`{"role":"assistant"}`))), ok}, 2, 0, "ok", 1},
		{"in-stream error after a delta is not retried", 0, []response{
			streamOf(sse(delta(`{"content":"partial"}`), `{"error":{"message":"upstream 502","code":502}}`)), ok,
		}, 1, provider.ErrServer, "partial", 0},
		{"malformed event is not retried", 0, []response{streamOf(sse(`{"choices":[`)), ok}, 1, provider.ErrProtocol, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := newGateway(t, tc.responses...)
			p, waits := newProvider(t, g, func(c *Config) { c.MaxAttempts = tc.maxAttempts })
			_, acc, err := run(t, p)
			if tc.kind == 0 && err != nil {
				t.Fatalf("err = %v", err)
			}
			if tc.kind != 0 {
				providerError(t, err, tc.kind)
			}
			if n := int(g.count.Load()); n != tc.requests {
				t.Errorf("%d requests, want %d", n, tc.requests)
			}
			if acc.Text() != tc.text {
				t.Errorf("text = %q, want %q", acc.Text(), tc.text)
			}
			if len(*waits) != tc.waits {
				t.Errorf("waited %d times (%v), want %d", len(*waits), *waits, tc.waits)
			}
		})
	}
}

func TestRetryAfterHonoured(t *testing.T) {
	t.Parallel()
	g := newGateway(t,
		failWith(http.StatusTooManyRequests, `{"error":{"message":"slow down"}}`, map[string]string{"Retry-After": "7"}),
		failWith(http.StatusServiceUnavailable, `{"error":{"message":"busy"}}`, map[string]string{"Retry-After": "3"}),
		streamOf(sse(finishChunk("stop"))),
	)
	p, waits := newProvider(t, g)
	if _, _, err := run(t, p); err != nil {
		t.Fatal(err)
	}
	if want := []time.Duration{7 * time.Second, 3 * time.Second}; !reflect.DeepEqual(*waits, want) {
		t.Errorf("waits = %v, want %v", *waits, want)
	}
}

func TestRetryAfterTooLong(t *testing.T) {
	t.Parallel()
	g := newGateway(t, failWith(http.StatusTooManyRequests, `{"error":{"message":"daily limit"}}`, map[string]string{"Retry-After": "3600"}))
	p, waits := newProvider(t, g)
	_, _, err := run(t, p)
	pe := providerError(t, err, provider.ErrRateLimited)
	if pe.RetryAfter != time.Hour || len(*waits) != 0 || g.count.Load() != 1 {
		t.Errorf("RetryAfter %v, waits %v, requests %d: a wait over %v is reported, not slept", pe.RetryAfter, *waits, g.count.Load(), maxRetryAfter)
	}
	mustContain(t, pe.Message, "wait 1h0m0s")
}

func TestBackoffRespectsCancel(t *testing.T) {
	t.Parallel()
	g := newGateway(t, failWith(http.StatusServiceUnavailable, `{"error":{"message":"busy"}}`, nil))
	p, err := New(Config{BaseURL: g.srv.URL + "/v1", Model: "m", BaseBackoff: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	// Cancel once the first request was answered, so the cancel lands in
	// the backoff, not before the request on a loaded machine.
	go func() {
		for g.count.Load() == 0 && ctx.Err() == nil {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(20 * time.Millisecond)
		cancel()
	}()
	start := time.Now()
	_, err = p.Stream(ctx, userRequest("hi"))
	providerError(t, err, provider.ErrCancelled)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("cancelled backoff took %v", d)
	}
	if n := g.count.Load(); n != 1 {
		t.Errorf("%d requests", n)
	}
}
