package agent

import (
	"context"
	"errors"
	"fmt"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// ErrPromptRefused is wrapped by the error of a turn whose prompt a prompt
// hook refused (exit 2): nothing was sent.
var ErrPromptRefused = errors.New("a prompt hook refused the prompt; nothing was sent")

// PromptRefusedMark stands for a prompt a prompt hook refused, in the
// turn's EventTurnStarted (and so in the session log) instead of its text.
const PromptRefusedMark = "[a prompt refused by a hook]"

// ErrStepLimit is wrapped by the error of a turn stopped by the step limit.
var ErrStepLimit = errors.New("step limit reached")

// interruptedMark ends assistant text kept from an interrupted answer.
const interruptedMark = "[interrupted by the user]"

// turn is one user message and everything the agent does to answer it.
type turn struct {
	a *Agent
	// ctx is cancelled by Cancel; runCtx is Run's context, which bounds event sends.
	ctx    context.Context
	runCtx context.Context
	n      int
	steps  int
	usage  provider.Usage
	// estimated sums the estimates for requests without reported usage.
	estimated provider.Usage
	// spent is what the turn used of Options.Budget; a subagent's turn
	// shares its parent's.
	spent *spend
	// sink, set for a subagent's turn, receives its events instead of the
	// agent's channel.
	sink func(Event)
	// overflowed is set once a request refused as too long for the window
	// made the turn compact; it does so at most once.
	overflowed bool
	// proposed is set once the model proposed a plan (propose_plan): the
	// turn ends after its calls, for the user to answer.
	proposed bool
	// repeats is the loop guard: it counts the turn's identical calls.
	repeats repeats
}

// runTurn runs one turn to its end on Run's goroutine.
func (a *Agent) runTurn(runCtx context.Context, p *pendingTurn) {
	if p.compact {
		a.runCompact(runCtx, p)
		return
	}
	ctx, cancel := context.WithCancel(runCtx)
	a.mu.Lock()
	a.cancel = cancel
	if p.cancelled {
		cancel()
	}
	a.pending = nil
	a.turns++
	before := a.model
	if p.model != "" {
		a.model = p.model
	}
	t := &turn{a: a, ctx: ctx, runCtx: runCtx, n: a.turns, spent: &spend{budget: a.opts.Budget}, repeats: newRepeats(a.opts.MaxRepeats)}
	a.mu.Unlock()
	if d := t.spent.budget.MaxDuration; d > 0 {
		var stop context.CancelFunc
		t.ctx, stop = context.WithTimeoutCause(ctx, d, durationError(t.spent.budget))
		defer stop()
	}

	// The prompt hooks run first: a prompt one refuses is not sent, nor
	// recorded (the turn's text, which names the session, is a mark).
	text, refused := t.promptHooks(p.text)
	var fin Finish
	if refused != nil {
		t.emit(Event{Kind: EventTurnStarted, Text: PromptRefusedMark})
		// The hook's stderr says why, to the user.
		fin = t.finish(FinishFailed, fmt.Errorf("%w (%s): %s", ErrPromptRefused, refused.Hook.Command, hookReason(*refused)))
	} else {
		t.emit(Event{Kind: EventTurnStarted, Text: p.text, Images: p.images})
		a.refreshExternal(t.ctx)
		t.appendMessage(provider.Message{Role: provider.RoleUser, Content: text, Images: p.images}, Event{})
		fin = t.loop()
		t.turnEndHooks()
	}

	// The turn is over before consumers hear of it, so one that submits the
	// next message on EventTurnFinished is not refused as busy.
	a.mu.Lock()
	cancel()
	a.cancel = nil
	a.busy = false
	if p.model != "" && a.model == p.model {
		a.model = before // SetModel during the turn is the user's choice: it stays
	}
	a.mu.Unlock()
	ev := Event{Kind: EventTurnFinished, Finish: &fin, Err: fin.Err}
	if fin.Err != nil {
		ev.Text = fin.Err.Error()
	}
	t.emit(ev)
}

// emit sends an event of this turn.
func (t *turn) emit(ev Event) {
	ev.Turn = t.n
	if t.sink != nil {
		t.sink(ev)
		return
	}
	if emit(t.runCtx, t.a.events, ev) {
		t.a.emitted.Add(1)
	}
}

// finish describes the end of the turn. A turn cancelled because its time
// budget ran out ends as FinishBudget.
func (t *turn) finish(r FinishReason, err error) Finish {
	if r == FinishCancelled {
		if cause := context.Cause(t.ctx); errors.Is(cause, ErrBudget) {
			r, err = FinishBudget, cause
		}
	}
	requests, cost := t.spent.totals()
	return Finish{
		Reason: r, Err: err, Steps: t.steps, Usage: t.usage,
		Estimated: t.estimated, Requests: requests, Cost: cost,
	}
}

// loop asks the model, runs the calls it makes and feeds back their results
// until it answers without calls, the step limit stops it, it fails, or the
// user cancels.
func (t *turn) loop() Finish {
	maxSteps := t.a.opts.MaxSteps
	for {
		if t.ctx.Err() != nil {
			return t.finish(FinishCancelled, nil)
		}
		if err := t.spent.exceeded(); err != nil {
			return t.finish(FinishBudget, err)
		}
		if t.steps >= maxSteps {
			return t.finish(FinishStepLimit, fmt.Errorf(
				"the turn stopped after %d model requests (the step limit, --max-steps): %w; send a message to let it continue",
				maxSteps, ErrStepLimit))
		}
		t.autoCompact()
		if t.ctx.Err() != nil {
			return t.finish(FinishCancelled, nil)
		}
		t.steps++
		req := t.a.request()
		at, err := t.callModel(req)
		if err == nil {
			u, reported := at.acc.Usage()
			t.a.notePrompt(len(req.Messages), u, reported)
		}
		switch {
		case errors.Is(err, errCancelled):
			t.keepInterrupted(at)
			return t.finish(FinishCancelled, nil)
		case errors.Is(err, ErrBudget):
			t.abandonCalls(at, tools.StatusError, "Not run: the turn's budget ran out before the model's answer was complete.")
			return t.finish(FinishBudget, err)
		case err != nil:
			if (at == nil || !at.streamed) && t.compactOnOverflow(err) {
				continue // the conversation shrank: send it again
			}
			t.abandonCalls(at, tools.StatusError, "Not run: the model's answer failed before this call was complete.")
			return t.finish(FinishFailed, err)
		}
		calls := t.prepareCalls(at)
		t.settleUsage(at, true)
		switch at.acc.Finish() {
		case provider.FinishLength:
			t.emit(Event{Kind: EventError, Text: NoteAnswerCutOff})
		case provider.FinishContentFilter:
			t.emit(Event{Kind: EventError, Text: NoteAnswerFiltered})
		case provider.FinishStop, provider.FinishToolCalls, provider.FinishOther:
		}
		t.keepAnswer(at, calls)
		if len(calls) == 0 {
			return t.finish(FinishDone, nil)
		}
		if err := t.runCalls(calls); err != nil {
			return t.finish(FinishFailed, err)
		}
		if t.proposed {
			return t.finish(FinishDone, nil)
		}
		if t.ctx.Err() != nil {
			return t.finish(FinishCancelled, nil)
		}
	}
}

// keepAnswer appends a finished assistant answer to the conversation.
func (t *turn) keepAnswer(at *attempt, calls []*preparedCall) {
	text := at.acc.Text()
	if text == "" && len(calls) == 0 {
		// Nothing to keep; an empty assistant message is refused by some gateways.
		return
	}
	m := provider.Message{Role: provider.RoleAssistant, Content: text, Reasoning: at.acc.Reasoning()}
	for _, c := range calls {
		args := "{}"
		if c.argErr == nil {
			args = string(c.args)
		}
		m.ToolCalls = append(m.ToolCalls, provider.ToolCall{ID: c.call.ID, Name: c.call.Name, Arguments: args})
	}
	t.a.commitIDs(at.ids)
	t.appendMessage(m, Event{})
}

// keepInterrupted keeps the partial answer of a cancelled stream, marked
// interrupted, and closes the calls it had started.
func (t *turn) keepInterrupted(at *attempt) {
	t.abandonCalls(at, tools.StatusCancelled, "Cancelled by the user before the call was complete.")
	if !at.streamed {
		return
	}
	text := at.acc.Text()
	t.appendMessage(InterruptedMessage(text, at.acc.Reasoning()), Event{Interrupted: true, Text: text})
}

// appendMessage adds m to the conversation and reports it with
// EventMessageAppended; ev carries the rest of the event (the call and
// result of a tool message, the mark of an interrupted answer).
func (t *turn) appendMessage(m provider.Message, ev Event) {
	t.a.appendMessages(m)
	m = cloneMessages([]provider.Message{m})[0] // the event's copy shares nothing with the history
	ev.Kind, ev.Message = EventMessageAppended, &m
	t.emit(ev)
}

// abandonCalls finishes the calls an unfinished answer announced; they never
// became part of the conversation, so they get no tool message.
func (t *turn) abandonCalls(at *attempt, status tools.Status, why string) {
	if at == nil {
		return
	}
	for _, c := range at.started {
		if c != nil {
			t.emit(Event{Kind: EventToolFinished, Call: c, Result: &ToolResult{Status: status, Output: why, Summary: status.String()}})
		}
	}
}
