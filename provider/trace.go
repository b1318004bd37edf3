package provider

import (
	"context"
	"time"
)

// Retrying describes a failed attempt of a request that the provider is
// about to try again, so a caller can say why nothing streams yet.
type Retrying struct {
	// Attempt numbers the attempt about to be made, from 2; MaxAttempts is
	// the last one the provider will make.
	Attempt, MaxAttempts int
	// Wait is the time before the next attempt; At is when it will start.
	Wait time.Duration
	At   time.Time
	// Err is the failure of the previous attempt.
	Err *Error
}

// Trace receives what happens inside Stream while it blocks: the waits
// between attempts. Like net/http/httptrace it travels in the context, so
// a provider that knows nothing of it still works and a caller that does not
// care passes nothing. Its functions are called on Stream's goroutine.
type Trace struct {
	// Retrying is called just before the provider waits to try again.
	Retrying func(Retrying)
}

type traceKey struct{}

// WithTrace returns a context that carries t to the providers it reaches.
func WithTrace(ctx context.Context, t *Trace) context.Context {
	return context.WithValue(ctx, traceKey{}, t)
}

// TraceFrom returns the trace ctx carries, or nil.
func TraceFrom(ctx context.Context) *Trace {
	t, _ := ctx.Value(traceKey{}).(*Trace)
	return t
}
