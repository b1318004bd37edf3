package session

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// Recorder turns the agent's events into the records of a session log, so
// that Restore can rebuild the conversation exactly as the agent held it.
// Call Handle with every event, in order (Tap does that on the way to the
// interface). It is safe for concurrent use.
//
// An answer is written as deltas while it streams and as one
// assistant_message when the model request ends. The agent has no event for
// that end; the Recorder takes it from the events that can only follow a
// kept answer: the first approval, tool start or result of one of its calls,
// or the end of the turn. A turn that ends cancelled keeps the partial answer
// marked interrupted; a failed one drops it, as the agent does.
type Recorder struct {
	prefix string // makes stream ids unique across resumes and forks

	mu         sync.Mutex
	w          *Writer
	store      *Store
	turn       int
	nextStream int
	cur        *liveAnswer
	// held are error records that arrived while an answer was streaming;
	// they follow its assistant_message.
	held []Body
	// files are checkpoint and snapshot records from a Checkpointer; they
	// are written with the result of the tool that made the change.
	files []Body
	err   error
	// handled counts the events Tap has recorded, for WaitRecorded.
	handled handledCount
}

// liveAnswer is the assistant message being streamed.
type liveAnswer struct {
	stream          string
	text, reasoning strings.Builder
	calls           []ToolCall
	ready           map[string]bool
}

// NewRecorder returns a Recorder writing to w. For a resumed session, call
// StartAfter with State.LastTurn before the first event.
func NewRecorder(w *Writer) *Recorder {
	var b [4]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return &Recorder{w: w, store: NewStore(w.Path()), prefix: hex.EncodeToString(b[:])}
}

// Switch makes the Recorder write to w from now on, as when /resume or
// /fork moves the running interface to another session: what waits is
// written to the old log first, which is synced (the caller closes it).
// lastTurn is the new session's State.LastTurn. Call it between turns.
func (r *Recorder) Switch(w *Writer, lastTurn int) error {
	r.mu.Lock()
	r.flushFilesLocked()
	r.appendHeldLocked()
	old := r.w
	r.mu.Unlock()
	err := old.Sync()
	r.mu.Lock()
	// A failure of the old log is reported here; the new one starts clean.
	r.w, r.store, r.turn, r.cur, r.err = w, NewStore(w.Path()), lastTurn, nil, nil
	r.mu.Unlock()
	if err != nil {
		return fmt.Errorf("sync the session left behind: %w", err)
	}
	return nil
}

// Store is the checkpoint store of the session being written.
func (r *Recorder) Store() *Store {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.store
}

// StartAfter makes the next turn number turn+1; a resumed session passes
// State.LastTurn so turn numbers never repeat in one log.
func (r *Recorder) StartAfter(turn int) {
	r.mu.Lock()
	r.turn = turn
	r.mu.Unlock()
}

// Turn is the number of the running turn, or of the last one.
func (r *Recorder) Turn() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.turn
}

// Writer is the log the Recorder writes to.
func (r *Recorder) Writer() *Writer {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.w
}

// Err returns the first error writing met, if any; the Writer stops at it.
func (r *Recorder) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// Handle records one event. Turn ends and tool results are synced to disk
// before it returns, so call it from a goroutine that may wait a few
// milliseconds (Tap does), not from the interface's update loop.
func (r *Recorder) Handle(ev agent.Event) {
	if ev.Kind == agent.EventCompactionFinished {
		r.recordCompaction(ev)
		return
	}
	r.mu.Lock()
	sync := r.handleLocked(ev)
	r.mu.Unlock()
	if sync {
		r.sync()
	}
}

// Tap records every event from in and passes it on, in order, on the
// returned channel, which is closed when in is closed or ctx is done. Give
// it agent.Events() and read the result instead.
func (r *Recorder) Tap(ctx context.Context, in <-chan agent.Event) <-chan agent.Event {
	out := make(chan agent.Event, cap(in))
	go func() {
		defer close(out)
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-in:
				if !ok {
					return
				}
				r.Handle(ev)
				r.handled.add()
				select {
				case out <- ev:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out
}

// WaitRecorded returns once Tap has recorded n events (counted from its
// start), tool results synced to disk among them, or with ctx's error when
// it ends first. Give it the agent's count of emitted events before a model
// request (agent.Options.BeforeRequest), so that what the model is sent is
// in the log.
func (r *Recorder) WaitRecorded(ctx context.Context, n uint64) error {
	return r.handled.wait(ctx, n)
}

// Check returns once Tap has recorded n events and the log's writer has
// written them, with the first error writing met: what stops a turn before
// a model request or a tool call when the log cannot take it (a full disk).
// It returns nil, without checking, when ctx ends first: nothing follows.
//
// An answer still held (its calls are ready; the agent checks before it
// runs the first, and the answer is otherwise written when that call
// starts running) is written first: a call must not run unless the answer
// that asked for it is in the log.
func (r *Recorder) Check(ctx context.Context, n uint64) error {
	if r.WaitRecorded(ctx, n) != nil {
		return nil
	}
	r.mu.Lock()
	r.finishAnswerLocked(false)
	r.mu.Unlock()
	if err := r.Writer().Written(); err != nil {
		r.mu.Lock()
		if r.err == nil {
			r.err = err
		}
		r.mu.Unlock()
	}
	return r.Err()
}

// ModelChanged records that later requests use model (call it with
// agent.SetModel).
func (r *Recorder) ModelChanged(model string) {
	r.mu.Lock()
	r.appendLocked(ModelChange{Model: model})
	r.mu.Unlock()
}

// Titled records the session's title: generated after the first answer,
// or given by the user (renamed).
func (r *Recorder) Titled(title string, renamed bool) {
	r.mu.Lock()
	r.appendLocked(Title{Title: title, Renamed: renamed})
	r.mu.Unlock()
}

// PolicyChanged records that later tool calls use policy p (call it with
// agent.SetPolicy).
func (r *Recorder) PolicyChanged(p agent.Policy) {
	r.mu.Lock()
	r.appendLocked(PolicyChange{Policy: p.String()})
	r.mu.Unlock()
}

// PlanChanged records that plan mode was turned on or off (call it with
// agent.EnterPlan and LeavePlan), so a resumed session comes back in it.
func (r *Recorder) PlanChanged(on bool) {
	r.mu.Lock()
	r.appendLocked(PlanMode{On: on})
	r.mu.Unlock()
}

// GrantRevoked records that the user took a grant back, so a resumed
// session does not restore it.
func (r *Recorder) GrantRevoked(scope string) {
	r.mu.Lock()
	r.appendLocked(Grant{Scope: scope, Revoked: true})
	r.mu.Unlock()
}

// Flush writes the records waiting for a tool result or for the end of an
// answer and syncs the log. Call it before closing the Writer.
func (r *Recorder) Flush() error {
	r.mu.Lock()
	r.flushFilesLocked()
	r.appendHeldLocked()
	r.mu.Unlock()
	r.sync()
	return r.Err()
}

// queueFile holds a checkpoint or snapshot record until the tool that made
// the change reports its result; the record then gets that turn's number.
func (r *Recorder) queueFile(b Body) {
	r.mu.Lock()
	r.files = append(r.files, b)
	r.mu.Unlock()
}

// handleLocked records ev and reports whether the log must be synced.
func (r *Recorder) handleLocked(ev agent.Event) bool {
	switch ev.Kind {
	case agent.EventTurnStarted:
		// Records queued now belong to this turn: the last turn's were
		// written at its end, and the agent may already be running this
		// one's tools while its events wait in the channel.
		r.cur, r.held = nil, nil
		r.turn++
		r.appendLocked(UserMessage{Turn: r.turn, Text: ev.Text})
	case agent.EventTextDelta:
		a := r.answerLocked()
		a.text.WriteString(ev.Text)
		r.w.Delta(a.stream, ev.Text)
	case agent.EventReasoningDelta:
		a := r.answerLocked()
		a.reasoning.WriteString(ev.Text)
		r.w.ReasoningDelta(a.stream, ev.Text)
	case agent.EventToolCallStarted:
		r.answerLocked()
	case agent.EventToolCallReady:
		a := r.answerLocked()
		if ev.Call != nil {
			args := string(ev.Call.Args)
			if args == "" {
				args = "{}" // what the agent keeps for arguments it could not repair
			}
			a.calls = append(a.calls, ToolCall{ID: ev.Call.ID, Name: ev.Call.Name, Arguments: args})
			a.ready[ev.Call.ID] = true
		}
	case agent.EventApprovalRequested:
		r.finishAnswerLocked(false)
	case agent.EventApprovalResolved:
		r.finishAnswerLocked(false)
		r.recordApprovalLocked(ev)
	case agent.EventToolRunning:
		r.finishAnswerLocked(false)
	case agent.EventToolOutput:
		// Live output; the result holds what the model saw.
	case agent.EventToolFinished:
		if r.cur != nil && ev.Call != nil && r.cur.ready[ev.Call.ID] {
			r.finishAnswerLocked(false)
		}
		r.flushFilesLocked()
		r.recordResultLocked(ev)
		return true
	case agent.EventUsage:
		rec := Usage{Prompt: ev.Usage.PromptTokens, Completion: ev.Usage.CompletionTokens, Cached: ev.Usage.CachedPromptTokens}
		if rs := ev.Response; rs != nil {
			rec.Estimated = rs.Estimated
			rec.FirstTokenMS, rec.DurationMS = rs.FirstToken.Milliseconds(), rs.Duration.Milliseconds()
		}
		r.appendLocked(rec)
	case agent.EventRequest:
		if q := ev.Request; q != nil {
			r.appendLocked(Request{
				Step: q.Step, Attempt: q.Attempt, Bytes: q.Bytes, Messages: q.Messages,
				ToolResults: q.ToolResults, ToolResultBytes: q.ToolResultBytes, ToolsBytes: q.ToolsBytes,
				PrefixBytes: q.PrefixBytes, Tokens: q.Tokens,
			})
		}
	case agent.EventCompactionStarted, agent.EventCompactionFinished:
		// Handle records a finished compaction; a start changes nothing yet.
	case agent.EventRetrying:
		if ev.Retry != nil && ev.Retry.DiscardPartial && r.cur != nil {
			r.w.DiscardDelta(r.cur.stream)
			r.cur = nil
		}
	case agent.EventTurnFinished:
		r.endTurnLocked(ev)
		return true
	case agent.EventError:
		rec := ErrorRecord{Kind: "warning", Message: ev.Text}
		if ev.Err != nil {
			rec = ErrorRecord{Kind: errorKind(ev.Err), Message: ev.Err.Error()}
		}
		if r.cur != nil {
			r.held = append(r.held, rec)
		} else {
			r.appendLocked(rec)
		}
	}
	return false
}

// endTurnLocked settles the answer in progress as the agent did: kept when
// done, kept marked interrupted when cancelled, dropped when failed.
func (r *Recorder) endTurnLocked(ev agent.Event) {
	fin := ev.Finish
	if fin == nil {
		fin = &agent.Finish{Reason: agent.FinishDone, Err: ev.Err}
	}
	switch fin.Reason {
	case agent.FinishDone:
		r.finishAnswerLocked(false)
	case agent.FinishCancelled:
		r.finishAnswerLocked(true)
	case agent.FinishFailed:
		if r.cur != nil {
			r.w.DiscardDelta(r.cur.stream)
			r.cur = nil
		}
		r.appendHeldLocked()
		err := fin.Err
		if err == nil {
			err = ev.Err
		}
		if err != nil {
			r.appendLocked(ErrorRecord{Kind: errorKind(err), Message: err.Error()})
		}
	case agent.FinishStepLimit:
		r.finishAnswerLocked(false)
		msg := "the turn stopped at the step limit"
		if fin.Err != nil {
			msg = fin.Err.Error()
		}
		r.appendLocked(ErrorRecord{Kind: "step_limit", Message: msg})
	case agent.FinishBudget:
		// Like a cancel: an answer cut off by the time budget is kept
		// interrupted, as the agent keeps it.
		r.finishAnswerLocked(true)
		msg := "the turn stopped at its budget"
		if fin.Err != nil {
			msg = fin.Err.Error()
		}
		r.appendLocked(ErrorRecord{Kind: "budget", Message: msg})
	}
	r.flushFilesLocked()
	r.appendHeldLocked()
}

// answerLocked returns the answer being streamed, starting one.
func (r *Recorder) answerLocked() *liveAnswer {
	if r.cur == nil {
		r.nextStream++
		r.cur = &liveAnswer{stream: fmt.Sprintf("%s-%d", r.prefix, r.nextStream), ready: map[string]bool{}}
	}
	return r.cur
}

// finishAnswerLocked writes the answer in progress, if any. An interrupted
// answer keeps no calls: none of them was complete, and the agent drops
// them.
func (r *Recorder) finishAnswerLocked(interrupted bool) {
	a := r.cur
	if a == nil {
		return
	}
	r.cur = nil
	m := AssistantMessage{Stream: a.stream, Text: a.text.String(), Reasoning: a.reasoning.String(), Interrupted: interrupted}
	if !interrupted {
		m.ToolCalls = a.calls
	}
	r.appendLocked(m)
	r.appendHeldLocked()
}

func (r *Recorder) appendHeldLocked() {
	for _, b := range r.held {
		r.appendLocked(b)
	}
	r.held = nil
}

// flushFilesLocked writes the queued checkpoint and snapshot records under
// the current turn.
func (r *Recorder) flushFilesLocked() {
	for _, b := range r.files {
		switch f := b.(type) {
		case Checkpoint:
			if f.Rewind == 0 {
				f.Turn = r.turn
			}
			b = f
		case Snapshot:
			f.Turn = r.turn
			b = f
		}
		r.appendLocked(b)
	}
	r.files = nil
}

func (r *Recorder) recordApprovalLocked(ev agent.Event) {
	req := ev.Approval
	call := ev.Call
	if call == nil && req != nil {
		call = &req.Call
	}
	rec := Approval{Decision: decisionOf(ev.Decision.Kind), Auto: ev.Decision.Auto, Message: ev.Decision.Message}
	if call != nil {
		rec.CallID, rec.Tool = call.ID, call.Name
	}
	if req != nil {
		rec.RequestID, rec.Scope = req.ID, req.Scope.Key
	}
	r.appendLocked(rec)
	if ev.Decision.Kind == agent.AllowSession && !ev.Decision.Auto && req != nil {
		for _, k := range req.Grants {
			r.appendLocked(Grant{Scope: k, Label: req.Scope.Label})
		}
	}
}

func (r *Recorder) recordResultLocked(ev agent.Event) {
	rec := ToolResult{Status: StatusError}
	if ev.Call != nil {
		rec.CallID, rec.Tool = ev.Call.ID, ev.Call.Name
	}
	if res := ev.Result; res != nil {
		rec.Status = statusOf(res.Status)
		rec.Output, rec.Summary, rec.ExitCode = res.Output, res.Summary, res.ExitCode
		rec.DurationMS = res.Duration.Milliseconds()
	}
	r.appendLocked(rec)
}

func (r *Recorder) appendLocked(b Body) {
	if _, err := r.w.Append(b); err != nil && r.err == nil {
		r.err = err
	}
}

func (r *Recorder) sync() {
	if err := r.Writer().Sync(); err != nil {
		r.mu.Lock()
		if r.err == nil {
			r.err = err
		}
		r.mu.Unlock()
	}
}

// decisionOf names an agent decision as the log does.
func decisionOf(k agent.DecisionKind) Decision {
	switch k {
	case agent.AllowOnce:
		return DecisionAllowOnce
	case agent.AllowSession:
		return DecisionAllowSession
	case agent.Deny:
		return DecisionDenied
	case agent.DenyWithMessage:
		return DecisionDeniedWithMessage
	case agent.Cancelled:
		return DecisionCancelled
	}
	return Decision(k.String())
}

// statusOf names a tool status as the log does.
func statusOf(s tools.Status) Status {
	switch s {
	case tools.StatusOK:
		return StatusOK
	case tools.StatusError:
		return StatusError
	case tools.StatusDenied:
		return StatusDenied
	case tools.StatusCancelled:
		return StatusCancelled
	}
	return StatusError
}

// toolStatus reads a logged status back; ok is false for an unknown one.
func toolStatus(s Status) (tools.Status, bool) {
	switch s {
	case StatusOK:
		return tools.StatusOK, true
	case StatusError:
		return tools.StatusError, true
	case StatusDenied:
		return tools.StatusDenied, true
	case StatusCancelled:
		return tools.StatusCancelled, true
	}
	return tools.StatusError, false
}

// errorKind classifies an error for an error record: the provider's kind
// ("auth", "rate_limited", "network"...) or "error".
func errorKind(err error) string {
	var pe *provider.Error
	if errors.As(err, &pe) {
		return pe.Kind.String()
	}
	return "error"
}
