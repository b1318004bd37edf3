package tui

import (
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/sanitize"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tui/markdown"
)

// onEvents applies a batch of agent events and waits for more.
func (m *model) onEvents(msg eventsMsg) tea.Cmd {
	var cmds []tea.Cmd
	for _, ev := range msg.events {
		cmds = append(cmds, m.onEvent(ev))
	}
	if !msg.closed {
		cmds = append(cmds, m.listen())
	} else if m.busy && m.shell == nil {
		m.busy = false
		m.tr.add(&errorBlock{title: "The agent stopped", body: "Its event stream closed while a turn was running.", hint: "Restart tern; the session log keeps what happened."})
	}
	return tea.Batch(cmds...)
}

// onEvent applies one agent event.
func (m *model) onEvent(ev agent.Event) tea.Cmd {
	m.onWaitEvent(ev)
	switch ev.Kind {
	case agent.EventTurnStarted:
		m.busy, m.stopping, m.planProposed = true, false, false
		m.turnStart = m.rc.now
		if !m.awaiting { // a turn we did not start: show what it asks
			m.tr.add(promptBlock(ev.Text))
		}
		m.awaiting = false
		return m.scheduleFrame(spinnerEvery)
	case agent.EventTextDelta:
		m.endThinking()
		if m.answer == nil {
			m.answer = newAssistantBlock()
			m.tr.add(m.answer)
		}
		m.answer.append(ev.Text)
		return m.markStreamed(m.answer)
	case agent.EventReasoningDelta:
		var end tea.Cmd
		if m.thinking == nil {
			end = m.endAnswer()
			m.thinking = &reasoningBlock{src: &strings.Builder{}, start: m.rc.now}
			m.tr.add(m.thinking)
			m.latest = m.thinking
		}
		m.thinking.append(ev.Text)
		return tea.Batch(end, m.markStreamed(m.thinking))
	case agent.EventToolCallStarted:
		m.endThinking()
		end := m.endAnswer()
		c := m.card(ev.Call)
		c.state = cardStreaming
		return tea.Batch(end, m.scheduleFrame(spinnerEvery))
	case agent.EventToolCallReady:
		c := m.card(ev.Call)
		c.setArgs(ev.Call.Args)
		if c.state == cardStreaming {
			c.state = cardReady
		}
		m.tr.changed(c)
	case agent.EventApprovalRequested:
		if ev.Approval == nil {
			return nil
		}
		c := m.card(&ev.Approval.Call)
		if c.args == nil && len(ev.Approval.Call.Args) > 0 {
			c.setArgs(ev.Approval.Call.Args)
		}
		c.setPreview(ev.Approval.Preview)
		c.state = cardAwaiting
		m.tr.changed(c)
		m.pending = append(m.pending, ev.Approval)
		return m.nextDialog()
	case agent.EventApprovalResolved:
		return m.onResolved(ev)
	case agent.EventToolRunning:
		c := m.card(ev.Call)
		c.state, c.start = cardRunning, m.rc.now
		m.tr.changed(c)
		return m.scheduleFrame(spinnerEvery)
	case agent.EventToolOutput:
		c := m.card(ev.Call)
		c.addOutput(ev.Text, ev.Stderr)
		return m.markStreamed(c)
	case agent.EventToolFinished:
		m.filesStale = true // the tool may have made or removed files
		c := m.card(ev.Call)
		if ev.Result != nil {
			c.finish(ev.Result)
			if c.name == agent.ProposePlanTool && ev.Result.Status == tools.StatusOK {
				m.planProposed = true
			}
			if c.name == tools.TodoWriteName && ev.Result.Status == tools.StatusOK {
				args := c.raw
				if ev.Call != nil && len(ev.Call.Args) > 0 {
					args = ev.Call.Args
				}
				m.setTodo(args)
			}
		}
		m.tr.changed(c)
	case agent.EventSubagent:
		return m.onSubagent(ev)
	case agent.EventUsage:
		m.usage = m.usage.Add(ev.Usage)
		m.meter.add(m.be.Model(), ev.Usage, ev.Response, m.prices())
		if ev.Usage.PromptTokens > 0 {
			m.lastIn, m.lastInCompacted = ev.Usage.PromptTokens+ev.Usage.CompletionTokens, false
		}
		return m.lookupWindow()
	case agent.EventRequest:
		m.meter.request(ev.Request)
	case agent.EventRetrying:
		m.onRetry(ev.Retry)
	case agent.EventTurnFinished:
		return m.onTurnFinished(ev)
	case agent.EventError:
		m.addError(ev.Err, ev.Text)
	case agent.EventCompactionStarted:
		return m.onCompactionStarted(ev)
	case agent.EventCompactionFinished:
		return m.onCompactionFinished(ev)
	case agent.EventMessageAppended:
		// The conversation's own record: the transcript shows the events
		// that made the message.
	case agent.EventHook:
		m.onHook(ev.Hook)
	}
	return nil
}

// card returns the card of a call, adding it on first sight.
func (m *model) card(call *agent.Call) *toolCard {
	if call == nil {
		call = &agent.Call{}
	}
	if c, ok := m.cards[call.ID]; ok {
		return c
	}
	c := &toolCard{id: call.ID, name: sanitize.Clean(call.Name), state: cardStreaming}
	if len(call.Args) > 0 {
		c.setArgs(call.Args)
	}
	m.cards[call.ID] = c
	m.tr.add(c)
	m.latest = c
	return c
}

// onResolved updates the card and drops the request if it is still queued
// (answered by a policy, or cancelled).
func (m *model) onResolved(ev agent.Event) tea.Cmd {
	var call *agent.Call
	if ev.Approval != nil {
		call = &ev.Approval.Call
	} else {
		call = ev.Call
	}
	c := m.card(call)
	if ev.Approval != nil {
		c.setPreview(ev.Approval.Preview)
	}
	if ev.Approval != nil && ev.Approval.Keep {
		keepCardState(c, ev.Decision)
		m.tr.changed(c)
		return m.dropRequest(ev.Approval)
	}
	switch ev.Decision.Kind {
	case agent.AllowOnce, agent.AllowSession:
		if c.state == cardAwaiting {
			c.state = cardReady
		}
		if ev.Decision.Auto && ev.Decision.Message != "" {
			c.note = sanitize.Clean(ev.Decision.Message)
		}
	case agent.Deny, agent.DenyWithMessage:
		c.state = cardDenied
		if ev.Decision.Auto || c.note == "" {
			c.note = sanitize.Clean(ev.Decision.Message)
		}
	case agent.Cancelled:
		c.state = cardCancelled
	}
	m.tr.changed(c)
	if ev.Approval != nil {
		return m.dropRequest(ev.Approval)
	}
	return nil
}

// onRetry shows the retry and, when asked, drops the failed attempt's output.
func (m *model) onRetry(r *agent.Retry) {
	if r == nil {
		return
	}
	if r.DiscardPartial {
		if m.answer != nil {
			m.tr.remove(m.answer)
			delete(m.streamed, m.answer)
			m.answer = nil
		}
		if m.thinking != nil {
			m.tr.remove(m.thinking)
			delete(m.streamed, m.thinking)
			m.thinking = nil
		}
		for id, c := range m.cards {
			if c.state == cardStreaming || c.state == cardReady {
				m.tr.remove(c)
				delete(m.cards, id)
			}
		}
	}
	if !r.DiscardPartial {
		return
	}
	m.tr.add(&noticeBlock{lines: []string{m.rc.th.warn.Render(retryNotice(r))}})
}

// retryNotice says, for the transcript, that an answer broke off midway,
// that what it had streamed is dropped, and when the next attempt starts.
// A retry with nothing to drop gets no notice: the status line counts it
// down, and the transcript has nothing to correct.
func retryNotice(r *agent.Retry) string {
	cause := retryCause(r)
	var pe *provider.Error
	if errors.As(r.Err, &pe) && pe.Message != "" {
		cause += ": " + sanitize.Clean(firstLine(pe.Message))
	}
	msg := "↻ The answer broke off (" + cause + ") and what it had streamed is dropped; "
	next := fmt.Sprintf("attempt %d", r.Attempt)
	if r.MaxAttempts > 0 {
		next += fmt.Sprintf(" of %d", r.MaxAttempts)
	}
	if r.Wait > 0 {
		return msg + next + " starts in " + fmtDuration(r.Wait) + "."
	}
	return msg + next + " starts now."
}

// onTurnFinished closes the turn and sends a queued message, if any.
func (m *model) onTurnFinished(ev agent.Event) tea.Cmd {
	m.endThinking()
	reason := agent.FinishDone
	var err error
	steps := 0
	if ev.Finish != nil {
		reason, err, steps = ev.Finish.Reason, ev.Finish.Err, ev.Finish.Steps
	}
	switch reason {
	case agent.FinishDone:
	case agent.FinishCancelled:
		if m.answer != nil {
			m.answer.interrupted = true
		} else {
			m.tr.add(&noticeBlock{lines: []string{"  " + m.rc.th.warn.Render("⏸ interrupted")}})
		}
	case agent.FinishFailed:
		if err == nil {
			err = ev.Err
		}
		m.addError(err, "")
	case agent.FinishStepLimit:
		m.tr.add(&errorBlock{
			title: "Stopped after " + fmt.Sprint(steps) + " model requests",
			body:  "The turn reached its step limit before the model finished.",
			hint:  "Send “continue” to let it go on, or narrow the request.",
		})
	case agent.FinishBudget:
		if m.answer != nil {
			m.answer.interrupted = true
		}
		body := "The turn reached a limit of its budget."
		if err != nil {
			body = sanitize.Clean(err.Error())
		}
		m.tr.add(&errorBlock{title: "Stopped: budget reached", body: body, hint: "Send “continue” to let it go on."})
	}
	end := m.endAnswer()
	for id, c := range m.cards {
		if c.live() || c.state == cardReady || c.state == cardAwaiting {
			c.state = cardCancelled
			m.tr.changed(c)
		}
		delete(m.cards, id)
	}
	m.pending, m.dlg = nil, nil
	m.busy, m.stopping, m.awaiting = false, false, false
	m.offerPlan(reason)
	return tea.Batch(end, m.sendQueued())
}

// endAnswer closes the streaming answer. The incremental render shows the
// same text as a render of the whole document, except where reference links
// are defined after their use: only then does a full render run, in the
// background, replacing the incremental one when done.
func (m *model) endAnswer() tea.Cmd {
	b := m.answer
	if b == nil {
		return nil
	}
	b.finish()
	delete(m.streamed, b)
	m.tr.changed(b)
	m.answer = nil
	if !markdown.HasRefDefinitions(b.text()) {
		return nil
	}
	render := fullRender(b, m.rc.th.md, m.rc.width, m.rc.gen)
	return func() tea.Msg { return render() }
}

// onFullRender installs a background render if it still fits the screen.
func (m *model) onFullRender(msg fullRenderMsg) {
	if msg.b == nil || msg.width != m.rc.width || msg.gen != m.rc.gen {
		return
	}
	msg.b.full, msg.b.fullWidth, msg.b.fullGen = msg.lines, msg.width, msg.gen
	msg.b.invalidate()
}

// endThinking closes the reasoning block.
func (m *model) endThinking() {
	if m.thinking == nil {
		return
	}
	m.thinking.finish(m.rc.now)
	delete(m.streamed, m.thinking)
	m.tr.changed(m.thinking)
	m.thinking = nil
}

// addError shows err as a card that says what to do about it.
func (m *model) addError(err error, text string) {
	title, body, hint := explain(err)
	if text != "" && err == nil {
		body = sanitize.Clean(text)
	}
	m.tr.add(&errorBlock{title: title, body: body, hint: hint})
}

// explain turns an error into a title, a body and what to do.
func explain(err error) (title, body, hint string) {
	if err == nil {
		return "Something went wrong", "", ""
	}
	body = sanitize.Clean(err.Error())
	switch {
	case errors.Is(err, agent.ErrRecording):
		return "Recording the session failed", body,
			"Nothing more runs while it cannot be recorded. Type /unrecorded to go on without recording, or quit, fix the cause (free space in TERN_HOME) and resume."
	case errors.Is(err, agent.ErrAnswerTooLarge):
		return "The answer was too large", body, "Ask for a shorter answer or smaller steps, or raise max_answer_bytes in config.toml."
	}
	var pe *provider.Error
	if !errors.As(err, &pe) {
		return "Error", body, ""
	}
	if pe.Message != "" {
		body = sanitize.Clean(pe.Message)
	}
	status := ""
	if pe.Status != 0 {
		status = fmt.Sprintf("%d from the gateway: ", pe.Status)
	}
	switch pe.Kind {
	case provider.ErrAuth:
		return status + "not authorised", body, "Check LLM_API_KEY (and LLM_BASE_URL); run `tern doctor`."
	case provider.ErrRateLimited:
		h := "Wait a moment and send the message again."
		if pe.RetryAfter > 0 {
			h = "The gateway asks to wait " + fmtDuration(pe.RetryAfter) + "; then send the message again."
		}
		return status + "rate limited", body, h
	case provider.ErrServer:
		return status + "the gateway failed", body, "It is usually temporary: send the message again in a minute."
	case provider.ErrContextTooLong:
		return status + "the conversation is too long for the model", body, "Summarize it with /compact, start a new conversation with /clear, or switch to a model with a larger window (/model)."
	case provider.ErrBadRequest:
		return status + "the gateway rejected the request", body, "Check the model id (/model) and the gateway settings; `tern doctor` tests them."
	case provider.ErrModelNotFound:
		return status + "unknown model", body, "Pick another model with /model."
	case provider.ErrNetwork:
		return "cannot reach the gateway", body, "Check your network and LLM_BASE_URL; `tern doctor` tests the connection."
	case provider.ErrProtocol:
		return "the gateway sent something tern cannot read", body, "Send the message again; if it persists, the gateway may not be OpenAI-compatible."
	case provider.ErrCancelled:
		return "cancelled", body, ""
	}
	return "Error", body, ""
}
