package headless

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/sanitize"
	"github.com/ternhq/tern/provider"
)

// Agent is what Run needs from an agent; *agent.Agent satisfies it.
type Agent interface {
	Run(ctx context.Context)
	Events() <-chan agent.Event
	Submit(text string) error
	SubmitImages(text string, images []provider.Image) error
	// SubmitAs is SubmitImages answered by model alone ("" is the
	// session's model).
	SubmitAs(model, text string, images []provider.Image) error
	Cancel()
}

// Options configure one headless run.
type Options struct {
	Agent  Agent
	Prompt string
	// Images are attached to the prompt (tern run --image).
	Images []provider.Image
	// Model answers this prompt alone (a custom command's model); "" is
	// the session's.
	Model string
	// JSON selects the JSON Lines protocol on Stdout instead of the final text.
	JSON    bool
	Session Session
	// Policy is the approval policy in force, to explain denials.
	Policy agent.Policy
	Stdout io.Writer
	Stderr io.Writer
	// Progress enables progress lines on Stderr (set when it is a terminal).
	Progress bool
	// Redact scrubs secrets from everything written; nil writes as is.
	Redact func(string) string
}

// ErrAgentStopped means the agent's event stream ended before the turn did.
var ErrAgentStopped = errors.New("the agent stopped before the turn finished")

// Run submits the prompt, serves the turn until it finishes and returns how
// it ended. Cancelling ctx (SIGINT) cancels the turn; Run still waits for
// the agent to wind the turn down and reports everything it emitted, so the
// last line is always turn.completed or turn.failed. Approval requests are
// denied: nobody is there to answer them.
func Run(ctx context.Context, opts Options) (agent.FinishReason, error) {
	redact := opts.Redact
	if redact == nil {
		redact = func(s string) string { return s }
	}
	r := &runner{opts: opts, redact: redact, proj: NewProjector(opts.Session), denied: denials{policy: opts.Policy}}
	if opts.JSON {
		r.enc = json.NewEncoder(&redactWriter{w: invisibleEscaper{w: opts.Stdout}, redact: redact})
		r.enc.SetEscapeHTML(false)
	}

	agentCtx, stopAgent := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		opts.Agent.Run(agentCtx)
	}()
	events := opts.Agent.Events()
	defer func() {
		stopAgent()
		for range events {
		}
		<-done
	}()

	r.emit(r.proj.Start())
	if err := opts.Agent.SubmitAs(opts.Model, opts.Prompt, opts.Images); err != nil {
		return 0, fmt.Errorf("start the turn: %w", err)
	}
	interrupt := ctx.Done()
	for {
		select {
		case <-interrupt:
			interrupt = nil
			r.progressf("^C cancelling the turn…")
			opts.Agent.Cancel()
		case ev, ok := <-events:
			if !ok {
				return agent.FinishFailed, ErrAgentStopped
			}
			r.handle(ev)
			if ev.Kind == agent.EventTurnFinished {
				return r.finish(ev.Finish), r.err
			}
		}
	}
}

type runner struct {
	opts   Options
	redact func(string) string
	proj   *Projector
	enc    *json.Encoder
	// final is the text of the last completed agent_message.
	final string
	err   error
	// denied reports the calls nobody could approve.
	denied denials
}

func (r *runner) handle(ev agent.Event) {
	refused := ""
	if ev.Kind == agent.EventApprovalResolved {
		refused = r.denied.refused(ev)
	}
	switch {
	case ev.Kind == agent.EventApprovalRequested && ev.Approval != nil:
		// The denied line replaces the progress lines of the question and
		// of the answer given for nobody.
		r.stderrf("%s", r.denied.requested(ev.Approval))
	case ev.Kind == agent.EventApprovalResolved && !ev.Decision.Auto:
	case hookWarning(ev) != "":
		r.stderrf("tern run: warning: %s", hookWarning(ev))
	case refused != "":
		r.stderrf("%s", refused)
	case r.opts.Progress:
		if line := progressLine(ev); line != "" {
			r.progressf("%s", line)
		}
	}
	for _, m := range r.proj.Project(ev) {
		if c, ok := m.(ItemCompleted); ok && c.Item.Type == ItemAgentMessage && c.Item.Text != nil {
			r.final = *c.Item.Text
		}
		r.emit(m)
	}
	if ev.Kind == agent.EventApprovalRequested && ev.Approval != nil {
		ev.Approval.Reply(agent.Decision{Kind: agent.DenyWithMessage, Message: denyReason(ev.Approval, r.opts.Policy)})
	}
	// A subagent's question goes unanswered the same way.
	if sub := ev.Sub; ev.Kind == agent.EventSubagent && sub != nil && sub.Kind == agent.EventApprovalRequested && sub.Approval != nil {
		sub.Approval.Reply(agent.Decision{Kind: agent.DenyWithMessage, Message: denyReason(sub.Approval, r.opts.Policy)})
	}
}

func (r *runner) emit(m Message) {
	if r.enc == nil || r.err != nil {
		return
	}
	if err := r.enc.Encode(m); err != nil {
		r.err = fmt.Errorf("write JSON event: %w", err)
		r.opts.Agent.Cancel()
	}
}

// finish prints the final text (text mode) and any failure, and returns the
// reason the turn ended.
func (r *runner) finish(f *agent.Finish) agent.FinishReason {
	if f == nil {
		f = &agent.Finish{Reason: agent.FinishFailed}
	}
	if !r.opts.JSON && r.final != "" {
		text := sanitize.Clean(r.final)
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		if _, err := io.WriteString(r.opts.Stdout, r.redact(text)); err != nil && r.err == nil {
			r.err = fmt.Errorf("write the answer: %w", err)
		}
	}
	switch f.Reason {
	case agent.FinishDone:
	case agent.FinishCancelled:
		r.stderrf("tern run: interrupted")
	case agent.FinishFailed, agent.FinishStepLimit, agent.FinishBudget:
		info := errorInfo(f)
		r.stderrf("tern run: turn failed (%s): %s", info.Kind, info.Message)
	}
	if line := r.denied.total(); line != "" {
		r.stderrf("tern run: %s", line)
	}
	if r.opts.Progress {
		r.stderrf("%s", r.summary(f))
	}
	return f.Reason
}

func (r *runner) progressf(format string, args ...any) {
	if r.opts.Progress {
		r.stderrf(format, args...)
	}
}

// stderrf writes one sanitized, redacted line to stderr. Errors writing
// diagnostics have nowhere to go, so they are dropped.
func (r *runner) stderrf(format string, args ...any) {
	line := sanitize.Clean(fmt.Sprintf(format, args...))
	_, _ = io.WriteString(r.opts.Stderr, r.redact(line)+"\n")
}

// denyReason tells the model (and the reader of approval.resolved) why the
// call did not run and how the user can let it run next time.
func denyReason(req *agent.ApprovalRequest, p agent.Policy) string {
	if req.Keep {
		return "headless run: no one to approve keeping changes to protected files, so they were reverted; only --dangerously-skip-approvals keeps them unasked"
	}
	if req.Always {
		return fmt.Sprintf("headless run: no one to approve; this command always asks (%s), and only --dangerously-skip-approvals runs it unasked", req.Reason)
	}
	hint := "use --approval auto-edit (edits) or --approval full-auto, or an allow rule in config.toml"
	switch p {
	case agent.PolicyAutoEdit:
		hint = "use --approval full-auto, or an allow rule in config.toml such as allow = [\"run_shell:go test *\"]"
	case agent.PolicyAsk, agent.PolicyFullAuto, agent.PolicyReadOnly:
	}
	return "headless run: no one to approve " + req.Call.Name + "; " + hint
}

// redactWriter scrubs secrets from each JSON line before it is written.
type redactWriter struct {
	w      io.Writer
	redact func(string) string
}

func (w *redactWriter) Write(b []byte) (int, error) {
	if _, err := io.WriteString(w.w, w.redact(string(b))); err != nil {
		return 0, err
	}
	return len(b), nil
}

// summary is the run's cost in one line for a person watching stderr;
// figures tern estimated are marked "~".
func (r *runner) summary(f *agent.Finish) string {
	u, est := f.Usage, f.Estimated
	mark := ""
	if est != (provider.Usage{}) {
		mark = "~"
	}
	line := fmt.Sprintf("tern run: %d model requests · %s%s prompt tokens (%s cached) · %s%s completion tokens · %s sent",
		f.Requests, mark, count(u.PromptTokens+est.PromptTokens), count(u.CachedPromptTokens),
		mark, count(u.CompletionTokens+est.CompletionTokens), sizeOf(r.proj.sent))
	if r.opts.Session.Priced {
		line += fmt.Sprintf(" · %s$%.4f", mark, f.Cost)
		if r.opts.Session.ListPrices {
			line += " at list prices"
		}
	}
	if mark != "" {
		line += " (~ estimated: the gateway reported no usage for some requests)"
	}
	return line
}

// count writes a token count compactly: 950, 12.3k, 1.2M.
func count(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 1_000_000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprintf("%.1fM", float64(n)/1e6)
}

// sizeOf writes a byte count in KB or MB.
func sizeOf(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1_000_000:
		return fmt.Sprintf("%.1f KB", float64(n)/1e3)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

// hookWarning is the warning of a hook run that needs one, the session's or
// a subagent's (whose tool calls run the before_tool and after_tool hooks).
func hookWarning(ev agent.Event) string {
	if ev.Kind == agent.EventSubagent && ev.Sub != nil {
		ev = *ev.Sub
	}
	if ev.Kind != agent.EventHook || ev.Hook == nil {
		return ""
	}
	return ev.Hook.Warning()
}
