package openai

import (
	"context"
	"time"
)

const (
	// maxBackoff caps the exponential part of a wait.
	maxBackoff = 30 * time.Second
	// maxRetryAfter is the longest Retry-After tern waits out on its own; a
	// gateway asking for more gets its error reported instead of a screen
	// that looks frozen.
	maxRetryAfter = time.Minute
)

// backoff returns the wait before the attempt after attempt (1-based):
// base doubled per attempt, capped, with jitter in [d/2, 3d/2) so clients
// that failed together do not retry together, and never shorter than the
// gateway's Retry-After. jitter(n) returns a value in [0, n).
func backoff(base time.Duration, attempt int, retryAfter time.Duration, jitter func(n int64) int64) time.Duration {
	d := base
	for i := 1; i < attempt && d < maxBackoff; i++ {
		d *= 2
	}
	d = min(d, maxBackoff)
	if d > 0 {
		d = d/2 + time.Duration(jitter(int64(d)))
	}
	return max(d, retryAfter)
}

// sleep waits for d or until ctx is done, whichever comes first.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
