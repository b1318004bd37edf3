package mock

import (
	"context"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
)

// scriptedDuration is how long the stream of a request takes with opts,
// from the pauses the stream itself schedules: the virtual clock, not the
// wall clock, so the test is exact and instant.
func scriptedDuration(t *testing.T, opts Options, req provider.Request) (time.Duration, int) {
	t.Helper()
	p := New(opts)
	st, err := p.Stream(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*stream)
	var total time.Duration
	chunks := 0
	for i, d := range s.deltas {
		s.pos = i
		total += s.pause(d)
		if d.Kind == provider.DeltaText {
			chunks++
		}
	}
	return total, chunks
}

// TestStreamingPace keeps the interactive pace readable: the welcome answer
// within 3 s and the long scene within 8 s, yet slow and chunked enough
// that streaming is visible.
func TestStreamingPace(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		msg      string
		min, max time.Duration
	}{
		{"welcome", "hello", time.Second, 3 * time.Second},
		{"long", "long", 2 * time.Second, 8 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, chunks := scriptedDuration(t, DefaultOptions(), request(user(tc.msg)))
			t.Logf("%s: %v in %d text chunks", tc.name, d, chunks)
			if d < tc.min || d > tc.max {
				t.Errorf("the %s answer streams in %v, want %v to %v", tc.name, d, tc.min, tc.max)
			}
			if chunks < 100 {
				t.Errorf("the %s answer comes in %d chunks: too few to see it stream", tc.name, chunks)
			}
		})
	}
}
