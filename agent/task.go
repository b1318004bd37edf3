package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// perform runs one call that passed the loop guard: a task call starts its
// subagent, any other call is checked, approved and run (execute).
//
// The user's before_tool hooks may deny any call (execute runs them for
// the others) and after_tool hooks see each call that was not denied.
func (t *turn) perform(pc *preparedCall) callOutcome {
	var o callOutcome
	if pc.call.Name == TaskTool && t.a.task != nil && pc.argErr == nil && tools.Validate(t.a.task.spec.Parameters, pc.args) == nil {
		if denied := t.beforeToolHooks(pc); denied != nil {
			return callOutcome{res: *denied}
		}
		o = t.runTask(pc)
	} else {
		o = callOutcome{res: t.execute(pc)}
	}
	if o.res.Status != tools.StatusDenied {
		t.afterToolHooks(pc, o.res)
	}
	return o
}

// runTask runs a task call: a child agent with its own conversation and
// the read tools carries out the prompt; its final answer, capped like any
// result, is the call's result. Its events reach the parent's consumers
// wrapped in EventSubagent; its requests count against the turn's budget.
func (t *turn) runTask(pc *preparedCall) callOutcome {
	args, err := parseTaskArgs(pc.args)
	if err != nil {
		return callOutcome{res: errorResult("invalid arguments", err.Error())}
	}
	def, err := t.a.opts.Subagents.findSubagent(args.Agent)
	if err != nil {
		return callOutcome{res: errorResult("unknown subagent", err.Error())}
	}
	if t.ctx.Err() != nil {
		return callOutcome{res: t.notRunCancelled()}
	}
	child, err := t.a.newChild(def)
	if err != nil {
		return callOutcome{res: errorResult("error", fmt.Sprintf("The subagent could not start: %v.", err))}
	}
	child.label = "subagent " + def.Name
	if def.Name == "" {
		child.label = "subagent: " + args.Description
	}
	t.emit(Event{Kind: EventToolRunning, Call: pc.call})
	start := time.Now()
	sink := func(ev Event) {
		t.emit(Event{Kind: EventSubagent, Call: pc.call, Agent: def.Name, Sub: &ev})
	}
	fin := child.runSubturn(t.ctx, t.runCtx, args.Prompt, t.spent, sink)
	answer, calls := child.conclusion()
	res := ToolResult{Status: tools.StatusOK}
	summary := fmt.Sprintf("%s, %s", plural(calls, "tool call"), plural(fin.Steps, "request"))
	switch fin.Reason {
	case FinishDone:
		res.Output, res.Summary = answer, summary
		if strings.TrimSpace(answer) == "" {
			res.Output = "The subagent finished without an answer."
		}
	case FinishCancelled:
		res = ToolResult{Status: tools.StatusCancelled, Summary: "cancelled",
			Output: t.stopReason() + " while the subagent was working; its answer so far:\n" + answer}
	case FinishFailed, FinishStepLimit, FinishBudget:
		why := "it failed"
		if fin.Err != nil {
			why = fin.Err.Error()
		}
		res = ToolResult{Status: tools.StatusError, Summary: "subagent stopped",
			Output: fmt.Sprintf("The subagent stopped before it finished (%s) after %s.", why, summary)}
		if strings.TrimSpace(answer) != "" {
			res.Output += " Its last words:\n" + answer
		}
	}
	res.Duration = time.Since(start)
	res.Output = tools.Cap(res.Output, outputCapOf(t.a.opts.Workspace), "give the subagent a narrower task or ask it for a shorter answer")
	return callOutcome{res: res, child: &fin}
}

// outputCapOf is the result limit of w.
func outputCapOf(w *tools.Workspace) int {
	if w == nil || w.OutputCap <= 0 {
		return tools.DefaultOutputCap
	}
	return w.OutputCap
}

// plural writes n and noun, adding an s when n is not 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// newChild makes the agent a task call runs: the parent's provider,
// workspace, policy, rules, grants and mcp_trust_read_only; the subagent's
// or the configured model; its tools, the read-only MCP tools of the
// parent's current turn among them; tern's system prompt with the subagent's note and
// instructions. It shares the parent's approval lock, so the user is asked
// one thing at a time.
func (a *Agent) newChild(def SubagentDef) (*Agent, error) {
	trust := a.opts.TrustReadOnlyMCP
	reg := tools.NewRegistry()
	for _, name := range a.opts.Tools.Names() {
		tool, _ := a.opts.Tools.Get(name)
		if childMayUse(def, name, tool, trust) {
			reg.Add(tool)
		}
	}
	a.mu.Lock()
	var ext fixedSource
	for name, tool := range a.ext.tools {
		if childMayUse(def, name, tool, trust) {
			ext = append(ext, tool)
		}
	}
	model := a.model
	policy := a.policy
	window := a.window
	grants := make([]string, 0, len(a.grants))
	for g := range a.grants {
		grants = append(grants, g)
	}
	a.mu.Unlock()
	slices.Sort(grants)
	slices.SortFunc(ext, func(x, y tools.Tool) int { return strings.Compare(x.Spec().Name, y.Spec().Name) })
	var external tools.Source
	if len(ext) > 0 {
		external = ext
	}
	switch {
	case def.Model != "":
		model = def.Model
	case a.opts.Subagents.Model != "":
		model = a.opts.Subagents.Model
	}
	system := subagentNote
	if a.opts.System != "" {
		system = a.opts.System + "\n\n" + subagentNote
	}
	if def.Instructions != "" {
		system += "\n\n" + def.Instructions
	}
	o := a.opts
	child, err := New(Options{
		Provider: o.Provider, Model: model, Tools: reg, Workspace: o.Workspace,
		Policy: policy, Rules: o.Rules, SkipApprovals: o.SkipApprovals, TernHome: o.TernHome,
		MaxSteps: o.MaxSteps, MaxRepeats: o.MaxRepeats, System: system,
		Temperature: o.Temperature, MaxTokens: o.MaxTokens, Grants: grants,
		ContextWindow: window, CompactThreshold: o.CompactThreshold, MaxAnswerBytes: o.MaxAnswerBytes,
		MaxParallel: o.MaxParallel, External: external, TrustReadOnlyMCP: trust, AcceptsImages: o.AcceptsImages,
		BeforeRequest: func(ctx context.Context, _ uint64) error {
			if hook := a.opts.BeforeRequest; hook != nil {
				return hook(ctx, a.emitted.Load())
			}
			return nil
		},
		BeforeTool: func(ctx context.Context, _ uint64) error {
			if hook := a.opts.BeforeTool; hook != nil {
				return hook(ctx, a.emitted.Load())
			}
			return nil
		},
	})
	if err != nil {
		return nil, err
	}
	if o.Hooks != nil {
		child.opts.Hooks = toolHooks{o.Hooks}
	}
	child.askMu, child.subagent = a.askMu, true
	child.backoff, child.maxRetries = a.backoff, a.maxRetries
	return child, nil
}

// childMayUse reports whether a subagent defined by def gets the tool
// name: the read set and read-only tools (MCP tools only when trustMCP,
// see concurrentRead) by default, or those of its tools list that are
// such reads or run_shell, edit_file and write_file. The task tool,
// todo_write and propose_plan are never a child's.
func childMayUse(def SubagentDef, name string, tool tools.Tool, trustMCP bool) bool {
	if len(def.Tools) == 0 {
		return concurrentRead(name, tool, trustMCP)
	}
	if !slices.Contains(def.Tools, name) {
		return false
	}
	return concurrentRead(name, tool, trustMCP) || slices.Contains(writeSet, name)
}

// runSubturn runs one turn of a child agent on the caller's goroutine:
// ctx is the parent turn's (its cancellation and time budget stop the
// child too), spent the parent turn's budget, and sink receives the
// child's events.
func (a *Agent) runSubturn(ctx, runCtx context.Context, prompt string, spent *spend, sink func(Event)) Finish {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	a.mu.Lock()
	a.turns++
	a.busy = true
	t := &turn{a: a, ctx: ctx, runCtx: runCtx, n: a.turns, spent: spent, sink: sink, repeats: newRepeats(a.opts.MaxRepeats)}
	a.mu.Unlock()
	t.emit(Event{Kind: EventTurnStarted, Text: prompt})
	a.refreshExternal(ctx) // the read-only MCP tools newChild gave it
	t.appendMessage(provider.Message{Role: provider.RoleUser, Content: prompt}, Event{})
	fin := t.loop()
	a.mu.Lock()
	a.busy = false
	a.mu.Unlock()
	ev := Event{Kind: EventTurnFinished, Finish: &fin, Err: fin.Err}
	if fin.Err != nil {
		ev.Text = fin.Err.Error()
	}
	t.emit(ev)
	return fin
}

// conclusion is a finished child's final answer (the text of its last
// answer) and how many tool calls it made.
func (a *Agent) conclusion() (answer string, calls int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, m := range a.messages {
		if m.Role == provider.RoleAssistant {
			calls += len(m.ToolCalls)
		}
	}
	for i := len(a.messages) - 1; i >= 0; i-- {
		m := a.messages[i]
		if m.Role == provider.RoleAssistant && strings.TrimSpace(m.Content) != "" {
			return strings.TrimSuffix(m.Content, "\n\n"+interruptedMark), calls
		}
		if m.Role == provider.RoleUser {
			break
		}
	}
	return "", calls
}
