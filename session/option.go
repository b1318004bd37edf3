package session

import "time"

// DefaultFlushInterval is how long streamed text may wait in memory before it
// is written as an assistant_delta record: the most a crash can lose.
const DefaultFlushInterval = 250 * time.Millisecond

// Option adjusts a Writer.
type Option func(*options)

type options struct {
	flush time.Duration
	now   func() time.Time
	// syncDir is set by Create: see Writer.syncDir.
	syncDir string
}

func buildOptions(opts []Option) options {
	o := options{flush: DefaultFlushInterval, now: time.Now}
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// WithFlushInterval sets how often streamed text is flushed (default
// DefaultFlushInterval); d <= 0 keeps the default.
func WithFlushInterval(d time.Duration) Option {
	return func(o *options) {
		if d > 0 {
			o.flush = d
		}
	}
}

// WithClock sets the clock that stamps records and a header's default
// Created time, for reproducible logs in tests.
func WithClock(now func() time.Time) Option {
	return func(o *options) {
		if now != nil {
			o.now = now
		}
	}
}
