package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/ternhq/tern/approval"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// preparedCall is a complete call with its arguments repaired and parsed.
type preparedCall struct {
	call *Call
	// tool is nil for an unknown tool.
	tool tools.Tool
	args json.RawMessage
	// raw are the arguments as the model sent them.
	raw string
	// argErr says why the arguments could not be repaired.
	argErr error
	// writesProtected is set when the user approved a call that asks
	// under every policy (it may write protected paths): run_shell then
	// leaves those paths writable for it.
	writesProtected bool
}

// prepareCalls pairs the finished calls with the ids given when they
// started, repairs their arguments and announces them ready.
func (t *turn) prepareCalls(at *attempt) []*preparedCall {
	complete := at.acc.ToolCalls()
	cutOff := at.acc.Finish() == provider.FinishLength
	out := make([]*preparedCall, 0, len(complete))
	k := 0
	for _, started := range at.started {
		if started == nil || k >= len(complete) {
			continue
		}
		tc := complete[k]
		k++
		pc := &preparedCall{call: &Call{ID: started.ID, Name: tc.Name}, raw: tc.Arguments}
		tool, ok := t.a.lookupTool(tc.Name)
		var hasParam func(string) bool
		if ok {
			pc.tool = tool
			hasParam = paramChecker(tool.Spec().Parameters)
		}
		pc.args, pc.argErr = repairArgs(tc.Arguments, cutOff, hasParam)
		if pc.argErr == nil {
			pc.call.Args = pc.args
		}
		out = append(out, pc)
		t.emit(Event{Kind: EventToolCallReady, Call: pc.call})
	}
	return out
}

// paramChecker reports which parameters a tool's schema declares.
func paramChecker(schema json.RawMessage) func(string) bool {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	_ = json.Unmarshal(schema, &s) // a schema without properties declares none
	return func(name string) bool {
		_, ok := s.Properties[name]
		return ok
	}
}

// notRunCancelled is the result of a call the turn's end left unrun.
func (t *turn) notRunCancelled() ToolResult {
	return ToolResult{Status: tools.StatusCancelled, Output: t.stopReason() + ": the call was not run.", Summary: "cancelled"}
}

// stopReason says, for the model, why the turn stopped: the user, or a
// budget (--max-duration) that interrupted it.
func (t *turn) stopReason() string {
	if errors.Is(context.Cause(t.ctx), ErrBudget) {
		return "Stopped by the turn's time budget"
	}
	return "Cancelled by the user"
}

// execute checks, approves and runs one call.
func (t *turn) execute(pc *preparedCall) ToolResult {
	if pc.tool == nil && t.a.subagent {
		return errorResult("not a subagent's tool", fmt.Sprintf("Refused: %s is not among a subagent's tools, so nothing was run. You are a subagent with only these tools: %s. "+
			"Say in your answer what should be changed or run; the agent that started you decides.", pc.call.Name,
			strings.Join(append(t.a.opts.Tools.SortedNames(), t.a.externalNames()...), ", ")))
	}
	if pc.tool == nil {
		return errorResult("unknown tool", fmt.Sprintf("There is no tool named %q, so nothing was run. The available tools are: %s. Call one of them by its exact name.",
			pc.call.Name, strings.Join(t.a.opts.Tools.SortedNames(), ", ")))
	}
	spec := pc.tool.Spec()
	if pc.argErr != nil {
		return errorResult("invalid arguments", fmt.Sprintf("The call to %s was not run: %v.\nArguments received: %s\n%s",
			spec.Name, pc.argErr, clip(pc.raw, 600), expected(spec)))
	}
	if err := tools.Validate(spec.Parameters, pc.args); err != nil {
		return errorResult("invalid arguments", fmt.Sprintf("The call to %s was not run: the arguments do not match its parameters: %v.\n%s",
			spec.Name, err, expected(spec)))
	}
	if denied := t.beforeToolHooks(pc); denied != nil {
		return *denied
	}
	r := t.a.judge(pc.tool, spec.Name, pc.args, t.a.Policy())
	switch r.Verdict {
	case approval.Run:
		if r.By != approval.Silent {
			t.resolveAuto(pc, r)
		}
		return t.run(pc)
	case approval.Deny:
		t.resolveAuto(pc, r)
		return ToolResult{Status: tools.StatusDenied, Output: r.Denial, Summary: "denied"}
	case approval.Ask:
	}
	return t.ask(pc, r)
}

// expected repeats a tool's parameters so the model can correct its call.
func expected(spec tools.Spec) string {
	var b bytes.Buffer
	if err := json.Compact(&b, spec.Parameters); err != nil {
		b.Reset()
		b.Write(spec.Parameters)
	}
	return fmt.Sprintf("Expected parameters of %s (JSON Schema): %s\nCall %s again with a JSON object that matches them.",
		spec.Name, b.String(), spec.Name)
}

func errorResult(summary, output string) ToolResult {
	return ToolResult{Status: tools.StatusError, Output: output, Summary: summary}
}

// clip shortens s for an error message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && cut < len(s) && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… (%d more bytes)", len(s)-cut)
}

// newRequest makes an approval request with a session-unique id.
func (t *turn) newRequest(pc *preparedCall, preview tools.Preview, r approval.Ruling) *ApprovalRequest {
	t.a.mu.Lock()
	t.a.nextAp++
	id := fmt.Sprintf("ap_%d", t.a.nextAp)
	t.a.mu.Unlock()
	req := NewApprovalRequest(id, *pc.call, pc.tool.Kind(), preview, r.Scope)
	req.Always, req.Reason, req.Subagent = r.Always, r.Reason, t.a.label
	if !r.Always {
		// An always-ask command grants nothing (see ask), so a session log
		// records no grant for it either.
		req.Grants = append([]string(nil), r.Grants...)
	}
	return req
}

// resolveAuto reports a decision a policy or rule made without asking.
func (t *turn) resolveAuto(pc *preparedCall, r approval.Ruling) {
	req := t.newRequest(pc, tools.Preview{}, r)
	d := autoDecision(r)
	req.Reply(d)
	t.emit(Event{Kind: EventApprovalResolved, Call: pc.call, Approval: req, Decision: d})
}

// ask previews the call, asks the user and waits for the answer or the
// turn's cancellation, then acts on it.
func (t *turn) ask(pc *preparedCall, r approval.Ruling) ToolResult {
	preview, err := pc.tool.Preview(t.ctx, pc.args)
	if err != nil {
		if t.ctx.Err() != nil {
			return t.notRunCancelled()
		}
		// Nothing to approve: the call would fail (an edit whose text is not
		// in the file); the model gets the reason and can retry.
		return errorResult("error", err.Error())
	}
	// One question at a time, across concurrent calls and subagents.
	t.a.askMu.Lock()
	if t.ctx.Err() != nil {
		t.a.askMu.Unlock()
		return t.notRunCancelled()
	}
	req := t.newRequest(pc, preview, r)
	t.emit(Event{Kind: EventApprovalRequested, Call: pc.call, Approval: req})
	var d Decision
	select {
	case d = <-req.Decisions():
	case <-t.ctx.Done():
		d = Decision{Kind: Cancelled}
		req.Reply(d) // closes the reply path: a late answer is ignored
	}
	t.emit(Event{Kind: EventApprovalResolved, Call: pc.call, Approval: req, Decision: d})
	t.a.askMu.Unlock()
	pc.writesProtected = r.Always && !d.Auto
	switch d.Kind {
	case AllowOnce:
		return t.run(pc)
	case AllowSession:
		if !r.Always {
			// An always-ask command asks again however it is answered, so a
			// grant would not cover it; it would only let its milder
			// relatives (rm -f after rm -rf /) through unseen.
			t.a.grant(r.Grants)
		}
		return t.run(pc)
	case DenyWithMessage:
		if msg := strings.TrimSpace(d.Message); msg != "" {
			return ToolResult{Status: tools.StatusDenied, Summary: "denied",
				Output: "The user denied this call, so it was not run, and said: " + msg}
		}
	case Cancelled:
		return t.notRunCancelled()
	case Deny:
	}
	return ToolResult{Status: tools.StatusDenied, Summary: "denied",
		Output: "The user denied this call, so it was not run. Do not retry the same call; choose another approach or ask the user what they want."}
}

// run executes an approved call, streaming its output as events. A call the
// turn's cancellation interrupts is reported cancelled, with what it printed.
func (t *turn) run(pc *preparedCall) ToolResult {
	if t.ctx.Err() != nil {
		return t.notRunCancelled()
	}
	t.emit(Event{Kind: EventToolRunning, Call: pc.call})
	// The tool may call output from its own goroutines; once Run returns,
	// late chunks are dropped rather than sent after the turn moved on.
	// Live output is redacted as the result will be, a line at a time.
	var mu sync.Mutex
	var live, liveErr tools.RedactStream
	done := false
	stream := func(live *tools.RedactStream, stderr bool) func(string) {
		return func(chunk string) {
			mu.Lock()
			defer mu.Unlock()
			if text := live.Write(chunk); !done && text != "" {
				t.emit(Event{Kind: EventToolOutput, Call: pc.call, Text: text, Stderr: stderr})
			}
		}
	}
	output, errOutput := stream(&live, false), stream(&liveErr, true)
	snap := t.watchProtected(pc)
	start := time.Now()
	ctx := t.ctx
	if pc.writesProtected {
		ctx = tools.WithProtectedWrites(ctx)
	}
	var res tools.Result
	if sr, ok := pc.tool.(tools.StreamRunner); ok {
		res = sr.RunStreams(ctx, pc.args, output, errOutput)
	} else {
		res = pc.tool.Run(ctx, pc.args, output)
	}
	dur := time.Since(start)
	mu.Lock()
	if text := live.Flush(); text != "" {
		t.emit(Event{Kind: EventToolOutput, Call: pc.call, Text: text})
	}
	if text := liveErr.Flush(); text != "" {
		t.emit(Event{Kind: EventToolOutput, Call: pc.call, Text: text, Stderr: true})
	}
	done = true
	mu.Unlock()
	tr := ToolResult{Status: res.Status, Output: res.Output, Summary: res.Summary, ExitCode: res.ExitCode, Duration: dur,
		Sandboxed: res.SandboxNote != "", Diagnostics: res.Diagnostics, Images: resultImages(res.Images)}
	if t.ctx.Err() != nil && res.Status != tools.StatusOK {
		tr.Status = tools.StatusCancelled
		tr.Summary = "cancelled"
		tr.Output = t.stopReason() + " while it was running."
		if out := strings.TrimSpace(res.Output); out != "" {
			tr.Output += " Output before it stopped:\n" + res.Output
		}
	}
	if tr.Status == 0 {
		tr.Status = tools.StatusError
	}
	t.settleProtected(pc, snap, &tr)
	return tr
}
