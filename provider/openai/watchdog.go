package openai

import (
	"context"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ternhq/tern/provider"
)

// Defaults for the stream's bounded waits (Config.FirstTokenTimeout and
// Config.StreamIdleTimeout).
const (
	// DefaultFirstTokenTimeout bounds the wait from sending a request to
	// the first data event: long enough for a large prompt on a slow
	// local model, short enough that a gateway that accepts and never
	// answers does not hang a headless run for good.
	DefaultFirstTokenTimeout = 300 * time.Second
	// DefaultStreamIdleTimeout bounds the gap between two data events once
	// the answer has started; keep-alive comments do not count as data.
	DefaultStreamIdleTimeout = 120 * time.Second
)

// watchdog bounds one attempt's waits for data. It cancels the attempt's
// context, which aborts the blocked dial, header wait or body read, when no
// data event arrives within first of the request, or within idle of the
// moment tern began waiting for the next one. Time the consumer spends
// between two Next calls does not count: only waiting for the network does.
//
// Its cost per event is two atomic increments: seq is odd while fill waits
// for an event and even once one arrived. The timer does the rest: before
// the first event it fires once, at first; after it, it ticks every
// idle/idleTicks and ends the attempt when the same wait has been seen
// running for idleTicks ticks (so after at least idle, at most idle plus one
// tick). A 120 s limit costs a wake-up every 15 s.
type watchdog struct {
	first, idle time.Duration
	cancel      context.CancelCauseFunc
	// expired builds the error the attempt fails with.
	expired func(setting string, limit time.Duration) *provider.Error

	seq  atomic.Uint64 // odd while waiting for an event
	seen bool          // the first data event arrived; fill's goroutine only

	mu      sync.Mutex
	timer   *time.Timer
	stopped bool
	data    bool   // the idle limit applies (guarded by mu)
	last    uint64 // seq at the previous tick
	ticks   int    // consecutive ticks that saw the same wait
}

// idleTicks is how many timer ticks the idle limit is split into.
const idleTicks = 8

// trailerWait bounds the wait for what follows a finish reason: the usage
// chunk and [DONE] come at once from OpenAI's own streams, and a gateway
// that sends neither and keeps the body open would otherwise hold a
// finished answer for the whole idle limit.
const trailerWait = 2 * time.Second

// startWatchdog returns ctx bounded by a watchdog whose wait for the first
// data event starts now. A zero or negative limit is no limit; with none,
// it returns ctx itself and a nil watchdog, whose methods do nothing.
func startWatchdog(ctx context.Context, first, idle time.Duration,
	expired func(setting string, limit time.Duration) *provider.Error,
) (context.Context, *watchdog) {
	if first <= 0 && idle <= 0 {
		return ctx, nil
	}
	wctx, cancel := context.WithCancelCause(ctx)
	w := &watchdog{first: first, idle: idle, cancel: cancel, expired: expired}
	d := first
	if d <= 0 {
		d = math.MaxInt64 // no limit before the first event
	}
	w.mu.Lock()
	w.timer = time.AfterFunc(d, w.check)
	w.mu.Unlock()
	return wctx, w
}

// waiting marks the start of a wait for the next data event. A wait that
// is already running (the last event brought nothing) goes on.
func (w *watchdog) waiting() {
	if w == nil || !w.seen {
		return // before the first event the wait runs from the request
	}
	if w.seq.Load()%2 == 0 { // only fill's goroutine writes seq
		w.seq.Add(1)
	}
}

// gotData marks the arrival of a data event that brings the answer
// forward: the wait is over, and from now on the idle limit applies.
func (w *watchdog) gotData() {
	if w == nil {
		return
	}
	if w.seen {
		if w.seq.Load()%2 == 1 {
			w.seq.Add(1)
		}
		return
	}
	// Once per attempt: the timer, armed for the first-token limit, ticks
	// for the idle one from now on.
	w.seen = true
	w.mu.Lock()
	w.data = true
	if !w.stopped {
		w.timer.Stop()
		if w.idle > 0 {
			w.timer.Reset(w.tick())
		}
	}
	w.mu.Unlock()
}

// finished shortens the idle limit to limit once the answer's finish
// reason came, unless it is shorter already; the stream takes the end of
// that wait for the end of the answer.
func (w *watchdog) finished(limit time.Duration) {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped || !w.data || (w.idle > 0 && w.idle <= limit) {
		return
	}
	w.idle, w.ticks = limit, 0
	w.timer.Reset(w.tick())
}

// tick is the period of the idle checks.
func (w *watchdog) tick() time.Duration {
	return max(w.idle/idleTicks, time.Millisecond)
}

// check runs when the timer fires: before the first event the attempt has
// waited first; after it, it counts the ticks one wait has lasted.
func (w *watchdog) check() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	if !w.data {
		w.stopped = true
		w.cancel(w.expired("first_token_timeout", w.first))
		return
	}
	s := w.seq.Load()
	switch {
	case s%2 == 0:
		w.ticks = 0 // not waiting: the consumer has the event
	case s != w.last:
		w.ticks = 0 // a wait that began since the last tick
	default:
		w.ticks++
	}
	w.last = s
	if w.ticks >= idleTicks {
		w.stopped = true
		w.cancel(w.expired("stream_idle_timeout", w.idle))
		return
	}
	w.timer.Reset(w.tick())
}

// timedOut returns the error of an attempt the watchdog ended, or nil.
func (w *watchdog) timedOut(ctx context.Context) *provider.Error {
	if w == nil {
		return nil
	}
	if pe, ok := context.Cause(ctx).(*provider.Error); ok {
		return pe
	}
	return nil
}

// stop ends the watchdog and releases its context.
func (w *watchdog) stop() {
	if w == nil {
		return
	}
	w.mu.Lock()
	w.stopped = true
	w.timer.Stop()
	w.mu.Unlock()
	w.cancel(nil)
}

// timeoutError is the error of an attempt that waited too long for data:
// retryable, as a network failure, and naming the setting to raise.
func (p *Provider) timeoutError(setting string, limit time.Duration) *provider.Error {
	var msg string
	switch setting {
	case "first_token_timeout":
		msg = fmt.Sprintf("no data from the gateway at %s within %s of the request (first_token_timeout); "+
			"it accepted the request but sent no answer: try again, or raise first_token_timeout in config.toml for a slow model",
			p.cfg.BaseURL, seconds(limit))
	default:
		msg = fmt.Sprintf("no data from the gateway at %s for %s (stream_idle_timeout); "+
			"the answer stalled (keep-alive comments do not count): try again, or raise stream_idle_timeout in config.toml",
			p.cfg.BaseURL, seconds(limit))
	}
	return &provider.Error{Kind: provider.ErrNetwork, Message: msg, Err: context.DeadlineExceeded}
}

// seconds writes a limit as people set it: "120 s", or "250ms" below a second.
func seconds(d time.Duration) string {
	if d >= time.Second && d%time.Second == 0 {
		return fmt.Sprintf("%d s", d/time.Second)
	}
	return d.String()
}
