package tui

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/sanitize"
	"github.com/ternhq/tern/provider"
)

// waitPhase is what a running turn waits for between tools and dialogs:
// each has its own name on the status line, because "working" for all of
// them hides a rate limit behind a spinner.
type waitPhase int

const (
	// waitWorking: between steps (a tool just ended, the next request is
	// being prepared).
	waitWorking waitPhase = iota
	// waitSending: the request is written and nothing came back yet.
	waitSending
	// waitAnswering: the first text, reasoning or tool call arrived.
	waitAnswering
	// waitRetrying: an attempt failed and the next starts at retry.At.
	waitRetrying
)

// waitState is the turn's current wait and when it began.
type waitState struct {
	phase waitPhase
	since time.Time
	retry *agent.Retry
	// compacting is when a compaction began, zero when none runs.
	compacting time.Time
}

// enter starts a new phase at now.
func (w *waitState) enter(p waitPhase, now time.Time) {
	w.phase, w.since, w.retry = p, now, nil
}

// onWaitEvent moves the wait on for the events that change it.
func (m *model) onWaitEvent(ev agent.Event) {
	now := m.rc.now
	switch ev.Kind {
	case agent.EventTurnStarted, agent.EventToolFinished:
		m.wait.enter(waitWorking, now)
	case agent.EventRequest:
		m.wait.enter(waitSending, now)
	case agent.EventTextDelta, agent.EventReasoningDelta, agent.EventToolCallStarted:
		if m.wait.phase != waitAnswering {
			m.wait.enter(waitAnswering, now)
		}
	case agent.EventRetrying:
		if ev.Retry != nil {
			m.wait.enter(waitRetrying, now)
			m.wait.retry = ev.Retry
		}
	case agent.EventCompactionStarted:
		m.wait.compacting = now
	case agent.EventCompactionFinished, agent.EventTurnFinished:
		// A turn that ends mid-compaction leaves no compaction behind.
		m.wait.compacting = time.Time{}
		m.wait.enter(waitWorking, now)
	case agent.EventToolCallReady, agent.EventApprovalRequested, agent.EventApprovalResolved,
		agent.EventToolRunning, agent.EventToolOutput, agent.EventUsage, agent.EventError, agent.EventHook,
		agent.EventMessageAppended, agent.EventSubagent:
		// The dialog and running tools (a task's subagent among them) are
		// read from their own state.
	}
}

// waitText names what the turn waits for and for how long, for the status
// line: the dialog, a running tool, a compaction, then the model request.
// short, when not empty, is a shorter form for a narrow screen, so the
// state never pushes the token counts off the line.
func (m *model) waitText() (text, short string) {
	now := m.rc.now
	since := func(t time.Time) string { return now.Sub(t).Truncate(time.Second).String() }
	switch {
	case m.stopping:
		return "stopping", ""
	case m.dlg != nil:
		return "waiting for you " + since(m.dlg.shown), ""
	}
	if c := m.runningCard(); c != nil {
		return "running " + c.name + " " + since(c.start), ""
	}
	if !m.wait.compacting.IsZero() {
		return "compacting " + since(m.wait.compacting), ""
	}
	phase, start := m.wait.phase, m.wait.since
	if start.Before(m.turnStart) {
		// Left from an earlier turn (or the interface started this one, as
		// `!` and /compact do, before any event came).
		phase, start = waitWorking, m.turnStart
	}
	switch phase {
	case waitWorking:
		return "working " + since(start), ""
	case waitSending:
		return "sending… " + since(start), ""
	case waitAnswering:
		return "answering " + since(start), ""
	case waitRetrying:
		r := m.wait.retry
		of, ofShort := fmt.Sprintf("(attempt %d of %d)", r.Attempt, r.MaxAttempts), fmt.Sprintf("(%d/%d)", r.Attempt, r.MaxAttempts)
		if r.MaxAttempts == 0 { // a limit nobody told
			of, ofShort = fmt.Sprintf("(attempt %d)", r.Attempt), fmt.Sprintf("(%d)", r.Attempt)
		}
		if left := r.At.Sub(now); left > 0 {
			secs := (left + time.Second - 1) / time.Second
			in := fmt.Sprintf("retrying in %ds", secs)
			return in + ": " + retryCause(r) + " " + of, in + " " + ofShort
		}
		// The wait is over: the attempt is out, nothing back yet.
		return "sending… " + since(r.At) + " " + of, "sending… " + since(r.At)
	}
	return "working", ""
}

// runningCard is the tool that started running last, or nil.
func (m *model) runningCard() *toolCard {
	var run []*toolCard
	for _, c := range m.cards {
		if c.state == cardRunning {
			run = append(run, c)
		}
	}
	if len(run) == 0 {
		return nil
	}
	return slices.MaxFunc(run, func(a, b *toolCard) int {
		if d := a.start.Compare(b.start); d != 0 {
			return d
		}
		return strings.Compare(b.id, a.id)
	})
}

// retryCause says in a few words why an attempt failed: "429 rate
// limited", "network error".
func retryCause(r *agent.Retry) string {
	var pe *provider.Error
	if !errors.As(r.Err, &pe) {
		return sanitize.Clean(firstLine(r.Reason))
	}
	what := ""
	switch pe.Kind {
	case provider.ErrAuth:
		what = "not authorised"
	case provider.ErrRateLimited:
		what = "rate limited"
	case provider.ErrServer:
		what = "gateway error"
	case provider.ErrContextTooLong:
		what = "context too long"
	case provider.ErrBadRequest:
		what = "bad request"
	case provider.ErrModelNotFound:
		what = "unknown model"
	case provider.ErrNetwork:
		what = "network error"
	case provider.ErrProtocol:
		what = "unreadable answer"
	case provider.ErrCancelled:
		what = "cancelled"
	}
	if what == "" {
		what = sanitize.Clean(firstLine(pe.Message))
	}
	if pe.Status != 0 {
		return fmt.Sprintf("%d %s", pe.Status, what)
	}
	return what
}
