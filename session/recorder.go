package session

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
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
// assistant_message when the agent appends it to the conversation
// (agent.EventMessageAppended, sent before any of its calls runs), from the
// message itself: an answer cut short comes marked interrupted, and a tool
// result is written when the agent appends it too. An answer the agent
// streamed but did not keep settles with the turn: a done turn writes it
// (the agent drops an answer of only reasoning, which the transcript still
// shows), any other turn discards its deltas.
type Recorder struct {
	prefix string // makes stream ids unique across resumes and forks

	mu         sync.Mutex
	w          *Writer
	store      *Store
	turn       int
	nextStream int
	cur        *liveAnswer
	// results are the calls whose result an appended tool message wrote,
	// so their EventToolFinished adds nothing; a call that finishes
	// without one was abandoned with its answer, and its result only shows.
	results map[string]bool
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
	stream string
	// text and reasoning are joined only for an answer the agent did not
	// keep (settleUnkeptLocked); a kept one's message carries its text.
	text, reasoning provider.Pieces
}

// NewRecorder returns a Recorder writing to w. For a resumed session, call
// StartAfter with State.LastTurn before the first event.
func NewRecorder(w *Writer) *Recorder {
	var b [4]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return &Recorder{w: w, store: NewStore(w.Path()), prefix: hex.EncodeToString(b[:]), results: map[string]bool{}}
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
	clear(r.results)
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
// A call never runs unless the answer that asked for it is in the log: the
// agent appends the answer, and so emits its EventMessageAppended, before
// it checks for the first call, so the n events recorded include it.
func (r *Recorder) Check(ctx context.Context, n uint64) error {
	if r.WaitRecorded(ctx, n) != nil {
		return nil
	}
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

// EffortChanged records that later requests use model with the reasoning
// effort effort ("" for the model's default), as a model_change.
func (r *Recorder) EffortChanged(model, effort string) {
	r.mu.Lock()
	r.appendLocked(ModelChange{Model: model, Effort: &effort})
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
		clear(r.results)
		r.turn++
		r.appendLocked(UserMessage{Turn: r.turn, Text: ev.Text, Images: r.saveImagesLocked(ev.Images)})
	case agent.EventTextDelta:
		a := r.answerLocked()
		a.text.WriteString(ev.Text)
		r.w.Delta(a.stream, ev.Text)
	case agent.EventReasoningDelta:
		a := r.answerLocked()
		a.reasoning.WriteString(ev.Text)
		r.w.ReasoningDelta(a.stream, ev.Text)
	case agent.EventToolCallStarted, agent.EventToolCallReady:
		// The calls are written with the answer that holds them; errors
		// from here on follow it.
		r.answerLocked()
	case agent.EventMessageAppended:
		return r.appendedLocked(ev)
	case agent.EventSubagent:
		return r.subagentLocked(ev)
	case agent.EventApprovalResolved:
		r.recordApprovalLocked(ev)
	case agent.EventApprovalRequested, agent.EventToolRunning, agent.EventToolOutput, agent.EventHook:
		// Live progress; the result holds what the model saw (a hook's
		// denial and notes are in the messages).
	case agent.EventToolFinished:
		if ev.Call != nil && r.results[ev.Call.ID] {
			delete(r.results, ev.Call.ID) // written when the agent appended it
			return false
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

// appendedLocked records a message the agent appended to the conversation
// and reports whether the log must be synced (after a tool result).
func (r *Recorder) appendedLocked(ev agent.Event) bool {
	m := ev.Message
	if m == nil {
		return false
	}
	switch m.Role {
	case provider.RoleUser:
		// Written at EventTurnStarted, which carries the same text and
		// opens the turn's records.
	case provider.RoleAssistant:
		rec := AssistantMessage{Text: m.Content, Reasoning: m.Reasoning, Interrupted: ev.Interrupted}
		if ev.Interrupted {
			rec.Text = ev.Text // the mark is the agent's; Restore adds it back
		}
		for _, c := range m.ToolCalls {
			rec.ToolCalls = append(rec.ToolCalls, ToolCall(c))
		}
		if r.cur != nil {
			rec.Stream = r.cur.stream
			r.cur = nil
		}
		r.appendLocked(rec)
		r.appendHeldLocked()
	case provider.RoleTool:
		r.flushFilesLocked()
		r.recordResultLocked(ev)
		if ev.Call != nil {
			r.results[ev.Call.ID] = true
		}
		return true
	case provider.RoleSystem:
		// The system prompt is in the header, never appended.
	}
	return false
}

// endTurnLocked settles an answer streamed but not kept (see Recorder)
// and writes why the turn ended when it did not end well.
func (r *Recorder) endTurnLocked(ev agent.Event) {
	fin := ev.Finish
	if fin == nil {
		fin = &agent.Finish{Reason: agent.FinishDone, Err: ev.Err}
	}
	switch fin.Reason {
	case agent.FinishDone:
		r.settleUnkeptLocked(true)
	case agent.FinishCancelled:
		r.settleUnkeptLocked(false)
	case agent.FinishFailed:
		r.settleUnkeptLocked(false)
		r.appendHeldLocked()
		err := fin.Err
		if err == nil {
			err = ev.Err
		}
		if err != nil {
			r.appendLocked(ErrorRecord{Kind: errorKind(err), Message: err.Error()})
		}
	case agent.FinishStepLimit:
		r.settleUnkeptLocked(true)
		msg := "the turn stopped at the step limit"
		if fin.Err != nil {
			msg = fin.Err.Error()
		}
		r.appendLocked(ErrorRecord{Kind: "step_limit", Message: msg})
	case agent.FinishBudget:
		// An answer the time budget cut short was appended interrupted;
		// one the spending budget stopped between retries was dropped.
		r.settleUnkeptLocked(false)
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
		r.cur = &liveAnswer{stream: fmt.Sprintf("%s-%d", r.prefix, r.nextStream)}
	}
	return r.cur
}

// settleUnkeptLocked ends the answer still streaming at the end of a turn,
// which the agent did not append: write writes what streamed (without
// calls: the agent kept none of them), else its deltas are discarded.
func (r *Recorder) settleUnkeptLocked(write bool) {
	a := r.cur
	if a == nil {
		return
	}
	r.cur = nil
	if !write {
		r.w.DiscardDelta(a.stream)
		return
	}
	r.appendLocked(AssistantMessage{Stream: a.stream, Text: a.text.String(), Reasoning: a.reasoning.String()})
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
		rec.Images = r.saveImagesLocked(res.Images)
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

// saveImagesLocked puts the pictures of a prompt in the blob store and
// returns their references; one that cannot be saved is noted as the
// log's error, as a failed write is, and left out.
func (r *Recorder) saveImagesLocked(images []provider.Image) []ImageRef {
	var refs []ImageRef
	for _, img := range images {
		hash, err := r.store.Save(img.Data)
		if err != nil {
			if r.err == nil {
				r.err = fmt.Errorf("save image %s: %w", img.Name, err)
			}
			continue
		}
		refs = append(refs, ImageRef{Hash: hash, MediaType: img.MediaType, Name: img.Name})
	}
	return refs
}
