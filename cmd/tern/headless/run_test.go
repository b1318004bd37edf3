package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// fakeAgent plays a script on Submit, the way the real agent would: events
// on an unbuffered channel, Cancel observable by the script.
type fakeAgent struct {
	events    chan agent.Event
	submitted chan string
	cancelled chan struct{}
	once      sync.Once
	script    func(ctx context.Context, f *fakeAgent, prompt string)
}

func newFake(script func(ctx context.Context, f *fakeAgent, prompt string)) *fakeAgent {
	return &fakeAgent{events: make(chan agent.Event), submitted: make(chan string, 1), cancelled: make(chan struct{}), script: script}
}

func (f *fakeAgent) Run(ctx context.Context) {
	defer close(f.events)
	select {
	case p := <-f.submitted:
		f.script(ctx, f, p)
	case <-ctx.Done():
		return
	}
	<-ctx.Done()
}

func (f *fakeAgent) Events() <-chan agent.Event { return f.events }
func (f *fakeAgent) Submit(text string) error {
	f.submitted <- text
	return nil
}
func (f *fakeAgent) SubmitImages(text string, _ []provider.Image) error { return f.Submit(text) }
func (f *fakeAgent) SubmitAs(_, text string, _ []provider.Image) error  { return f.Submit(text) }
func (f *fakeAgent) Cancel()                                            { f.once.Do(func() { close(f.cancelled) }) }

func (f *fakeAgent) emit(ctx context.Context, evs ...agent.Event) {
	for _, ev := range evs {
		select {
		case f.events <- ev:
		case <-ctx.Done():
			return
		}
	}
}

func play(evs ...agent.Event) func(context.Context, *fakeAgent, string) {
	return func(ctx context.Context, f *fakeAgent, _ string) { f.emit(ctx, evs...) }
}

func runFake(t *testing.T, ctx context.Context, f *fakeAgent, opts Options) (agent.FinishReason, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	opts.Agent, opts.Stdout, opts.Stderr = f, &stdout, &stderr
	if opts.Prompt == "" {
		opts.Prompt = "do it"
	}
	opts.Session = testSession
	reason, err := Run(ctx, opts)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return reason, stdout.String(), stderr.String()
}

func TestRunPrintsFinalSanitizedText(t *testing.T) {
	t.Parallel()
	f := newFake(play(
		turnStarted("do it"),
		text("Let me look."),
		callReady("c1", "read_file", `{"path":"a"}`),
		kept("Let me look.", "c1"),
		running("c1", "read_file"),
		finished("c1", "read_file", tools.StatusOK, "1\tx", 0),
		text("Done: \x1b[31mred\x1b[0m \x1b]52;c;aGk=\x07text"),
		kept("Done: \x1b[31mred\x1b[0m \x1b]52;c;aGk=\x07text"),
		turnFinished(agent.FinishDone, 2, nil),
	))
	reason, out, errOut := runFake(t, context.Background(), f, Options{})
	if reason != agent.FinishDone {
		t.Errorf("reason = %v", reason)
	}
	if out != "Done: red text\n" {
		t.Errorf("stdout = %q", out)
	}
	if errOut != "" {
		t.Errorf("stderr without a terminal = %q, want nothing", errOut)
	}
}

func TestRunProgressOnlyWhenAsked(t *testing.T) {
	t.Parallel()
	f := newFake(play(
		turnStarted("do it"),
		callReady("c1", "run_shell", `{"command":"go test ./..."}`),
		retrying(true),
		callReady("c2", "run_shell", `{"command":"go test ./..."}`),
		kept("", "c2"),
		running("c2", "run_shell"),
		finished("c2", "run_shell", tools.StatusOK, "ok", 0),
		text("All green."),
		kept("All green."),
		turnFinished(agent.FinishDone, 2, nil),
	))
	_, out, errOut := runFake(t, context.Background(), f, Options{Progress: true})
	if out != "All green.\n" {
		t.Errorf("stdout = %q", out)
	}
	for _, want := range []string{`→ run_shell {"command":"go test ./..."}`, "↻ retrying in 1s (attempt 2 of 4): server (HTTP 502): bad gateway", "✓ run_shell ok"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

func TestRunDeniesApprovalsHeadless(t *testing.T) {
	t.Parallel()
	var got agent.Decision
	f := newFake(func(ctx context.Context, f *fakeAgent, _ string) {
		req := approvalRequest("a1", "c1", "write_file", `{"path":"x","content":"y"}`)
		f.emit(ctx, turnStarted("do it"), callReady("c1", "write_file", `{"path":"x","content":"y"}`), kept("", "c1"), requested(req))
		select {
		case got = <-req.Decisions():
		case <-time.After(5 * time.Second):
			t.Error("the runner never answered the approval request")
		}
		f.emit(ctx, resolved(req, got),
			finished("c1", "write_file", tools.StatusDenied, "denied", 0),
			text("Could not write."),
			kept("Could not write."),
			turnFinished(agent.FinishDone, 2, nil))
	})
	_, out, _ := runFake(t, context.Background(), f, Options{JSON: true, Policy: agent.PolicyAsk})
	if got.Kind != agent.DenyWithMessage || !strings.Contains(got.Message, "--approval auto-edit") {
		t.Errorf("decision = %+v", got)
	}
	var types []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		types = append(types, m["type"].(string))
		if m["type"] == TypeApprovalResolved {
			if m["decision"] != "denied" || !strings.Contains(m["reason"].(string), "headless run: no one to approve write_file") {
				t.Errorf("approval.resolved = %s", l)
			}
		}
	}
	want := "session.started turn.started item.started approval.requested approval.resolved item.completed item.started item.delta item.completed turn.completed"
	if strings.Join(types, " ") != want {
		t.Errorf("types:\n got %s\nwant %s", strings.Join(types, " "), want)
	}
}

func TestDenyReasonByPolicy(t *testing.T) {
	t.Parallel()
	req := approvalRequest("a1", "c1", "run_shell", `{"command":"make"}`)
	if r := denyReason(req, agent.PolicyAutoEdit); !strings.Contains(r, "--approval full-auto") || strings.Contains(r, "auto-edit") {
		t.Errorf("auto-edit reason = %q", r)
	}
	always := approvalRequest("a2", "c2", "run_shell", `{"command":"git push --force"}`)
	always.Always, always.Reason = true, "git push --force rewrites remote history"
	if r := denyReason(always, agent.PolicyFullAuto); !strings.Contains(r, "--dangerously-skip-approvals") || !strings.Contains(r, "rewrites remote history") {
		t.Errorf("always-ask reason = %q", r)
	}
	keep := approvalRequest("a3", "c3", "run_shell", `{"command":"cd .gi? && echo x >> config"}`)
	keep.Always, keep.Keep, keep.Reason = true, true, "This command changed protected files: .git/config (changed). Keep the change (allow) or revert it (deny)?"
	if r := denyReason(keep, agent.PolicyFullAuto); !strings.Contains(r, "reverted") || strings.Contains(r, "runs it unasked") {
		t.Errorf("keep reason = %q", r)
	}
}

func TestRunInterruptCancelsTheTurn(t *testing.T) {
	t.Parallel()
	ctx, interrupt := context.WithCancel(context.Background())
	f := newFake(func(ctx context.Context, f *fakeAgent, _ string) {
		f.emit(ctx, turnStarted("do it"), text("partial "))
		interrupt() // the user presses Ctrl-C
		select {
		case <-f.cancelled:
		case <-time.After(5 * time.Second):
			t.Error("Cancel was not called after the interrupt")
		}
		f.emit(ctx, text("kept"), keptInterrupted("partial kept"), turnFinished(agent.FinishCancelled, 1, nil))
	})
	reason, out, errOut := runFake(t, ctx, f, Options{})
	if reason != agent.FinishCancelled {
		t.Errorf("reason = %v, want cancelled", reason)
	}
	if out != "partial kept\n" {
		t.Errorf("stdout = %q", out)
	}
	if !strings.Contains(errOut, "interrupted") {
		t.Errorf("stderr = %q", errOut)
	}
}

func TestRunFailureGoesToStderrRedacted(t *testing.T) {
	t.Parallel()
	const key = "sk-secret-0123456789abcdef"
	f := newFake(play(
		turnStarted("do it"),
		turnFinished(agent.FinishFailed, 1, &provider.Error{Kind: provider.ErrAuth, Status: 401, Message: "key " + key + " rejected; set LLM_API_KEY"}),
	))
	redact := func(s string) string { return strings.ReplaceAll(s, key, "sk-…cdef") }
	reason, out, errOut := runFake(t, context.Background(), f, Options{Redact: redact})
	if reason != agent.FinishFailed || out != "" {
		t.Errorf("reason = %v, stdout = %q", reason, out)
	}
	if !strings.Contains(errOut, "turn failed (auth)") || strings.Contains(errOut, key) {
		t.Errorf("stderr = %q", errOut)
	}

	f = newFake(play(
		turnStarted("do it"),
		turnFinished(agent.FinishFailed, 1, &provider.Error{Kind: provider.ErrAuth, Status: 401, Message: "key " + key + " rejected"}),
	))
	_, out, _ = runFake(t, context.Background(), f, Options{JSON: true, Redact: redact})
	if strings.Contains(out, key) || !strings.Contains(out, `"kind":"auth"`) {
		t.Errorf("JSON output = %s", out)
	}
}

func TestRunAgentStoppedEarly(t *testing.T) {
	t.Parallel()
	f := newFake(func(ctx context.Context, f *fakeAgent, _ string) {})
	f2 := &earlyStop{fakeAgent: f}
	var stdout, stderr bytes.Buffer
	_, err := Run(context.Background(), Options{Agent: f2, Prompt: "x", Stdout: &stdout, Stderr: &stderr})
	if err != ErrAgentStopped {
		t.Errorf("err = %v, want ErrAgentStopped", err)
	}
}

// earlyStop's Run returns (closing events) right after the prompt arrives.
type earlyStop struct{ *fakeAgent }

func (e *earlyStop) Run(ctx context.Context) {
	defer close(e.events)
	select {
	case <-e.submitted:
	case <-ctx.Done():
	}
}
