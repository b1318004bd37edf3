package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/hooks"
)

// Hooks runs the hooks configured for an event (*hooks.Runner, which the
// session service wraps to add the session id).
type Hooks interface {
	Run(ctx context.Context, in hooks.Input) []hooks.Run
	// Hooks lists the configured hooks, for /permissions.
	Hooks() []hooks.Hook
}

// toolHooks are the hooks a subagent runs: the tool events, so that a
// before_tool hook's denial holds for its calls too. The prompt, turn_end
// and session_start hooks belong to the session, that is the parent.
type toolHooks struct{ session Hooks }

// Run runs the hooks of the tool events only.
func (h toolHooks) Run(ctx context.Context, in hooks.Input) []hooks.Run {
	switch in.Event {
	case hooks.BeforeTool, hooks.AfterTool:
		return h.session.Run(ctx, in)
	case hooks.Prompt, hooks.TurnEnd, hooks.SessionStart:
	}
	return nil
}

// Hooks lists the session's hooks.
func (h toolHooks) Hooks() []hooks.Hook { return h.session.Hooks() }

// runHooks runs the hooks of in.Event and reports each run as EventHook.
func (t *turn) runHooks(in hooks.Input) []hooks.Run {
	if t.a.opts.Hooks == nil {
		return nil
	}
	runs := t.a.opts.Hooks.Run(t.ctx, in)
	for i := range runs {
		r := runs[i]
		t.emit(Event{Kind: EventHook, Hook: &r})
	}
	return runs
}

// hookBlocked returns the run that blocked, if any.
func hookBlocked(runs []hooks.Run) (hooks.Run, bool) {
	for _, r := range runs {
		if r.Blocked() {
			return r, true
		}
	}
	return hooks.Run{}, false
}

// hookNotes are the stdout of the runs that went on, for the model.
func hookNotes(runs []hooks.Run) []string {
	var out []string
	for _, r := range runs {
		if r.OK() && strings.TrimSpace(r.Stdout) != "" {
			out = append(out, fmt.Sprintf("<hook-note event=%q>\n%s\n</hook-note>", r.Event, tools.Redact(strings.TrimSpace(r.Stdout))))
		}
	}
	return out
}

// promptHooks runs session_start (before the agent's first prompt) and
// prompt hooks; it returns the message to send, notes added, or the run
// that refused the prompt.
func (t *turn) promptHooks(text string) (string, *hooks.Run) {
	if t.a.opts.Hooks == nil {
		return text, nil
	}
	var notes []string
	if !t.a.hooksStarted.Swap(true) {
		notes = append(notes, hookNotes(t.runHooks(hooks.Input{Event: hooks.SessionStart}))...)
	}
	runs := t.runHooks(hooks.Input{Event: hooks.Prompt, Prompt: text})
	if r, ok := hookBlocked(runs); ok {
		return text, &r
	}
	notes = append(notes, hookNotes(runs)...)
	if len(notes) == 0 {
		return text, nil
	}
	return text + "\n\n" + strings.Join(notes, "\n"), nil
}

// beforeToolHooks runs the before_tool hooks of a call; a denial is the
// result the model gets, the hook's stderr as the reason.
func (t *turn) beforeToolHooks(pc *preparedCall) *ToolResult {
	if t.a.opts.Hooks == nil {
		return nil
	}
	r, ok := hookBlocked(t.runHooks(hooks.Input{Event: hooks.BeforeTool, Tool: &hooks.Tool{Name: pc.call.Name, Arguments: pc.args}}))
	if !ok {
		return nil
	}
	reason := hookReason(r)
	return &ToolResult{
		Status:  tools.StatusDenied,
		Output:  fmt.Sprintf("Denied by the user's before_tool hook (%s): %s\nThe call was not run.", r.Hook.Command, reason),
		Summary: "denied by a hook",
	}
}

// afterToolHooks runs the after_tool hooks of a call that ran.
func (t *turn) afterToolHooks(pc *preparedCall, res ToolResult) {
	if t.a.opts.Hooks == nil {
		return
	}
	t.runHooks(hooks.Input{
		Event:  hooks.AfterTool,
		Tool:   &hooks.Tool{Name: pc.call.Name, Arguments: pc.args},
		Result: &hooks.Result{Status: res.Status.String(), Output: res.Output},
	})
}

// turnEndHooks runs the turn_end hooks with the turn's last answer.
func (t *turn) turnEndHooks() {
	if t.a.opts.Hooks == nil {
		return
	}
	answer := ""
	msgs := t.a.Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == provider.RoleAssistant && msgs[i].Content != "" {
			answer = msgs[i].Content
			break
		}
		if msgs[i].Role == provider.RoleUser {
			break
		}
	}
	// The turn's own context may be cancelled already: the hook still
	// runs, bounded by its timeout and by Run's context.
	saved := t.ctx
	t.ctx = t.runCtx
	t.runHooks(hooks.Input{Event: hooks.TurnEnd, Answer: answer})
	t.ctx = saved
}

// hookReason is a blocking hook's stderr, or a word saying it gave none.
func hookReason(r hooks.Run) string {
	if reason := strings.TrimSpace(r.Stderr); reason != "" {
		return reason
	}
	return "no reason given"
}
