package agent

import (
	"errors"
	"fmt"
	"time"

	"github.com/ternhq/tern/provider"
)

// defaultMaxRetries is how many times a failed model call is tried again.
const defaultMaxRetries = 3

// maxRetryWait caps the wait before a retry, even when the gateway asks for more.
const maxRetryWait = time.Minute

// errCancelled marks a model call stopped by Cancel.
var errCancelled = errors.New("cancelled by the user")

// defaultBackoff waits 1 s, 2 s, 4 s ... between attempts, or what the
// gateway asked for (Retry-After), capped at a minute.
func defaultBackoff(attempt int, err error) time.Duration {
	var pe *provider.Error
	if errors.As(err, &pe) && pe.RetryAfter > 0 {
		return min(pe.RetryAfter, maxRetryWait)
	}
	return min(time.Second<<(attempt-1), maxRetryWait)
}

// attempt is one streamed model answer, whole or partial.
type attempt struct {
	acc provider.Accumulator
	// started holds, by call position, the calls announced with
	// EventToolCallStarted (nil for positions without a name yet).
	started []*Call
	// ids are the call ids this attempt assigned.
	ids map[string]bool
	// streamed is true once any text, reasoning or call reached consumers.
	streamed bool
	// received is true once the provider delivered any delta at all.
	received bool
	err      error
	// sent and first are when the request went out and when its first
	// text, reasoning or tool call arrived (zero if none), for the meter.
	sent, first time.Time
	// info measures the request, for the usage estimate.
	info RequestInfo
}

// callModel makes one model request, retrying retryable failures with
// backoff. It returns errCancelled when the turn was cancelled, the
// provider's error when the call failed for good, and the attempt that
// streamed the answer (or was interrupted).
func (t *turn) callModel(req provider.Request) (*attempt, error) {
	for try := 1; ; try++ {
		if err := t.beforeRequest(); err != nil {
			if try == 1 {
				t.steps-- // the request the loop counted was never sent
			}
			if t.ctx.Err() != nil {
				return &attempt{}, errCancelled
			}
			return &attempt{}, err
		}
		info := t.sendRequest(req, try)
		at := t.streamOnce(req)
		at.info = info
		if at.err == nil {
			return at, nil // its usage is reported once its calls are ready
		}
		t.settleUsage(at, false)
		if t.ctx.Err() != nil {
			return at, errCancelled
		}
		// Failures before the first delta were already retried by the
		// provider (that is its contract); retrying them here too would
		// multiply the attempts. The agent retries only mid-stream failures.
		if !at.received || !provider.IsRetryable(at.err) || try > t.a.maxRetries {
			return at, at.err
		}
		if err := t.spent.exceeded(); err != nil {
			return at, err
		}
		wait := t.a.backoff(try, at.err)
		t.emit(Event{Kind: EventRetrying, Retry: &Retry{
			Attempt: try + 1, MaxAttempts: t.a.maxRetries + 1, Wait: wait, At: time.Now().Add(wait),
			Err: at.err, Reason: at.err.Error(), DiscardPartial: at.streamed,
		}})
		timer := time.NewTimer(wait)
		select {
		case <-t.ctx.Done():
			timer.Stop()
			return &attempt{}, errCancelled
		case <-timer.C:
		}
	}
}

// streamOnce streams one attempt, emitting text, reasoning and call starts as
// they arrive.
func (t *turn) streamOnce(req provider.Request) *attempt {
	at := &attempt{sent: time.Now()}
	s, err := t.a.opts.Provider.Stream(provider.WithTrace(t.ctx, t.trace()), req)
	if err != nil {
		at.err = err
		return at
	}
	buffered, _ := s.(bufferedStream) // before any wrapper hides the method
	s = &timedStream{Stream: s, first: &at.first}
	defer func() { _ = s.Close() }() // the answer is complete or abandoned; a close error changes nothing
	var hold textHold
	size := newAnswerCap(t.a.opts.MaxAnswerBytes)
	var tooLarge error
	for s.Next() {
		if t.ctx.Err() != nil {
			break
		}
		d, fits := size.admit(s.Delta())
		at.received = true
		if !fits {
			// Keep what fits, for the log's record of what came, and stop
			// reading: nothing past the cap is held or recorded.
			tooLarge = size.err()
			if d.Text == "" {
				break
			}
		}
		calls := at.acc.Calls()
		pos := at.acc.Add(d)
		if at.acc.Calls() > calls && !size.addCall() && tooLarge == nil {
			// A new call costs far more than its bytes: a flood of tiny
			// calls ends here, before it is announced or run.
			tooLarge = size.err()
			break
		}
		switch d.Kind {
		case provider.DeltaText:
			if d.Text != "" {
				at.streamed = true
				hold.add(t, EventTextDelta, d.Text)
			}
		case provider.DeltaReasoning:
			if d.Text != "" {
				at.streamed = true
				hold.add(t, EventReasoningDelta, d.Text)
			}
		case provider.DeltaToolCall:
			if pos >= 0 {
				hold.flush(t)
				t.noteCall(at, pos)
			}
		case provider.DeltaUsage, provider.DeltaFinish:
		}
		if tooLarge != nil {
			break
		}
		if buffered == nil || !buffered.Buffered() {
			hold.flush(t)
		}
	}
	hold.flush(t)
	if err := t.ctx.Err(); err != nil {
		at.err = fmt.Errorf("model stream: %w", err)
		return at
	}
	if tooLarge != nil {
		at.err = tooLarge
		return at
	}
	at.err = s.Err()
	if at.err == nil && at.acc.Finish() == 0 {
		// The contract says Err reports a truncated stream; never take one
		// for a finished answer even if a provider forgets.
		at.err = &provider.Error{Kind: provider.ErrNetwork, Message: "the answer stream ended before the model finished"}
	}
	return at
}

// noteCall announces a call as soon as its name is known, once, giving it an
// id unique within the session.
func (t *turn) noteCall(at *attempt, pos int) {
	for len(at.started) <= pos {
		at.started = append(at.started, nil)
	}
	if at.started[pos] != nil {
		return
	}
	name := at.acc.CallName(pos)
	if name == "" {
		return
	}
	if at.ids == nil {
		at.ids = make(map[string]bool)
	}
	c := &Call{ID: t.a.callID(at.acc.CallID(pos), at.ids), Name: name}
	at.started[pos] = c
	at.streamed = true
	t.emit(Event{Kind: EventToolCallStarted, Call: c})
}

// callID returns the gateway's id when it is unique in the session (and in
// the attempt's own ids), else a fresh "call_<n>".
func (a *Agent) callID(id string, local map[string]bool) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if id != "" && !a.ids[id] && !local[id] {
		local[id] = true
		return id
	}
	for {
		a.nextID++
		c := fmt.Sprintf("call_%d", a.nextID)
		if !a.ids[c] && !local[c] {
			local[c] = true
			return c
		}
	}
}

// commitIDs records an attempt's ids as used once its answer is kept.
func (a *Agent) commitIDs(local map[string]bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for id := range local {
		a.ids[id] = true
	}
}

// trace turns the provider's retries, made before anything streamed, into
// EventRetrying, so a wait the gateway asked for is shown, not a spinner.
func (t *turn) trace() *provider.Trace {
	return &provider.Trace{Retrying: func(r provider.Retrying) {
		var err error
		reason := ""
		if r.Err != nil {
			err, reason = r.Err, r.Err.Error()
		}
		t.emit(Event{Kind: EventRetrying, Retry: &Retry{
			Attempt: r.Attempt, MaxAttempts: r.MaxAttempts, Wait: r.Wait, At: r.At, Err: err, Reason: reason,
		}})
	}}
}
