package tui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// goldenProfile is the colour profile the golden tests give the program:
// 256 colours, as most terminals tern meets have.
const goldenProfile = colorprofile.ANSI256

// requireGolden compares the screen with testdata/<test>.golden as the
// terminal receives it: its colours converted to goldenProfile, as Bubble
// Tea converts them on the way out, so a colour that the profile cannot show
// is caught here and not only on a real terminal.
func requireGolden(t *testing.T, view string) {
	t.Helper()
	var out strings.Builder
	w := &colorprofile.Writer{Forward: &out, Profile: goldenProfile}
	if _, err := w.WriteString(view); err != nil {
		t.Fatal(err)
	}
	golden.RequireEqual(t, out.String())
}

// goldenRun drives the real program around a fake agent: drive sends
// events and keys, then the final screen is compared with
// testdata/<test>.golden (go test ./tui -run Golden -update rewrites it).
func goldenRun(t *testing.T, w, h int, opts Options, drive func(tm *teatest.TestModel, fb *fakeBackend)) {
	t.Helper()
	goldenRunWith(t, w, h, opts, nil, drive)
}

// goldenRunWith is goldenRun with setup giving the fake its behaviours
// before the program starts.
func goldenRunWith(t *testing.T, w, h int, opts Options, setup func(*fakeBackend), drive func(tm *teatest.TestModel, fb *fakeBackend)) {
	t.Helper()
	fb := newFakeBackend()
	fb.startOnSubmit = true
	if setup != nil {
		setup(fb)
	}
	t.Cleanup(fb.close)
	opts.App = fb
	if opts.Theme == "" {
		opts.Theme = "dark"
	}
	if opts.Workspace == "" {
		opts.Workspace = "/work/project"
	}
	m := newModel(context.Background(), opts, noEnv)
	m.clock = func() time.Time { return fixedClock }
	m.keyGuard = 0
	tm := teatest.NewTestModel(t, probed{m},
		teatest.WithInitialTermSize(w, h),
		teatest.WithProgramOptions(
			tea.WithColorProfile(goldenProfile),
			tea.WithEnvironment([]string{"TERM=xterm-256color"}),
		))
	drive(tm, fb)
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(probed)
	requireGolden(t, fm.View().Content)
}

// probe asks the running model a question from inside its event loop, so
// tests can wait for a state without racing the program.
type probe struct {
	cond func(*model) bool
	done chan bool
}

// probed wraps the model to answer probes.
type probed struct{ *model }

func (p probed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if pr, ok := msg.(probe); ok {
		pr.done <- pr.cond(p.model)
		return p, nil
	}
	_, cmd := p.model.Update(msg)
	return p, cmd
}

// waitFor waits until the screen shows s (styles ignored).
func waitFor(t *testing.T, tm *teatest.TestModel, s string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		pr := probe{cond: func(m *model) bool { return strings.Contains(ansi.Strip(m.View().Content), s) }, done: make(chan bool, 1)}
		tm.Send(pr)
		select {
		case ok := <-pr.done:
			if ok {
				return
			}
		case <-time.After(time.Second):
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("the screen never showed %q", s)
}

func TestGoldenWelcome(t *testing.T) {
	t.Parallel()
	goldenRun(t, 80, 24, Options{Offline: true}, func(tm *teatest.TestModel, _ *fakeBackend) {
		waitFor(t, tm, "tern")
	})
}

func TestGoldenStreaming(t *testing.T) {
	t.Parallel()
	goldenRunWith(t, 80, 30, Options{}, func(f *fakeBackend) { f.window = fixedWindow(128000) }, func(tm *teatest.TestModel, fb *fakeBackend) {
		tm.Type("explain the parser")
		tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
		waitFor(t, tm, "working")
		fb.ch <- agent.Event{Kind: agent.EventReasoningDelta, Text: "The user wants an overview.\nStart with the entry point."}
		for _, chunk := range []string{"## How the ", "parser works\n\nIt reads **tokens** one ", "at a time:\n\n1. `next` advances\n2. `peek` looks ahead\n\n```go\nfunc (p *Parser) next() Token {\n\treturn p.lex.Scan()\n"} {
			fb.ch <- agent.Event{Kind: agent.EventTextDelta, Text: chunk}
		}
		fb.ch <- agent.Event{Kind: agent.EventUsage, Usage: provider.Usage{PromptTokens: 5200, CompletionTokens: 240, CachedPromptTokens: 4096}}
		waitFor(t, tm, "lex.Scan")
	})
}

// card events for one tool call, from start to finish.
func callEvents(id, name, args string, extra ...agent.Event) []agent.Event {
	call := &agent.Call{ID: id, Name: name}
	ready := &agent.Call{ID: id, Name: name, Args: json.RawMessage(args)}
	evs := []agent.Event{{Kind: agent.EventToolCallStarted, Call: call}, {Kind: agent.EventToolCallReady, Call: ready}}
	for _, e := range extra {
		e.Call = ready
		evs = append(evs, e)
	}
	return evs
}

func TestGoldenToolCards(t *testing.T) {
	t.Parallel()
	goldenRun(t, 100, 60, Options{}, func(tm *teatest.TestModel, fb *fakeBackend) {
		tm.Type("tidy up")
		tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
		waitFor(t, tm, "working")
		diff := "--- a/app.go\n+++ b/app.go\n@@ -10,4 +10,4 @@\n func run() error {\n-\treturn nil\n+\treturn errors.New(\"todo\")\n }\n"
		editCall := agent.Call{ID: "e", Name: "edit_file", Args: json.RawMessage(`{"path":"app.go","old_string":"return nil","new_string":"return errors.New(\"todo\")"}`)}
		autoReq := agent.NewApprovalRequest("auto", editCall, tools.KindEdit, tools.Preview{Title: "edit app.go", Path: "app.go", Diff: diff}, agent.Scope{Label: "edits inside this workspace"})
		var evs []agent.Event
		evs = append(evs, callEvents("r", "read_file", `{"path":"internal/app.go"}`,
			agent.Event{Kind: agent.EventToolRunning},
			agent.Event{Kind: agent.EventToolFinished, Result: &agent.ToolResult{Status: tools.StatusOK, Summary: "120 lines", Duration: 3 * time.Millisecond}})...)
		evs = append(evs, callEvents("g", "grep", `{"pattern":"TODO(","path":"internal"}`,
			agent.Event{Kind: agent.EventToolRunning},
			agent.Event{Kind: agent.EventToolFinished, Result: &agent.ToolResult{Status: tools.StatusError, Output: "invalid pattern \"TODO(\": missing closing )\nescape it as TODO\\(", Summary: "bad pattern", Duration: 2 * time.Millisecond}})...)
		evs = append(evs, callEvents("e", "edit_file", string(editCall.Args),
			agent.Event{Kind: agent.EventApprovalResolved, Approval: autoReq, Decision: agent.Decision{Kind: agent.AllowOnce, Auto: true, Message: "the auto-edit policy allows edits inside the workspace"}},
			agent.Event{Kind: agent.EventToolRunning},
			agent.Event{Kind: agent.EventToolFinished, Result: &agent.ToolResult{Status: tools.StatusOK, Summary: "+1 -1 lines", Duration: 12 * time.Millisecond}})...)
		evs = append(evs, callEvents("w", "write_file", `{"path":"NOTES.md","content":"# Notes\n"}`,
			agent.Event{Kind: agent.EventApprovalResolved, Decision: agent.Decision{Kind: agent.Deny, Message: "the read-only policy refuses write_file", Auto: true}},
			agent.Event{Kind: agent.EventToolFinished, Result: &agent.ToolResult{Status: tools.StatusDenied, Output: "denied"}})...)
		evs = append(evs, callEvents("c", "run_shell", `{"command":"sleep 100"}`,
			agent.Event{Kind: agent.EventToolRunning},
			agent.Event{Kind: agent.EventToolFinished, Result: &agent.ToolResult{Status: tools.StatusCancelled, Output: "cancelled by the user", Duration: time.Second}})...)
		evs = append(evs, callEvents("t", "run_shell", `{"command":"go test ./..."}`,
			agent.Event{Kind: agent.EventToolRunning},
			agent.Event{Kind: agent.EventToolOutput, Text: "ok  \tgithub.com/x/a\t0.01s\n"},
			agent.Event{Kind: agent.EventToolOutput, Text: "ok  \tgithub.com/x/b\t0.02s\n--- FAIL: TestC (0.00s)\n"})...)
		evs = append(evs, agent.Event{Kind: agent.EventToolCallStarted, Call: &agent.Call{ID: "l", Name: "list_files"}})
		for _, e := range evs {
			fb.ch <- e
		}
		waitFor(t, tm, "FAIL: TestC")
		waitFor(t, tm, "list_files")
	})
}

func TestGoldenApprovalLongDiff(t *testing.T) {
	t.Parallel()
	goldenRun(t, 80, 30, Options{}, func(tm *teatest.TestModel, fb *fakeBackend) {
		var d strings.Builder
		d.WriteString("--- a/server.go\n+++ b/server.go\n@@ -40,6 +40,46 @@\n func serve() {\n")
		for i := range 40 {
			d.WriteString("+\tlog.Printf(\"handler " + itoa(i) + " registered with a fairly long message that wraps\")\n")
		}
		d.WriteString(" }\n")
		call := agent.Call{ID: "e", Name: "edit_file", Args: json.RawMessage(`{"path":"server.go"}`)}
		req := agent.NewApprovalRequest("r", call, tools.KindEdit, tools.Preview{Title: "edit server.go", Path: "server.go", Diff: d.String()}, agent.Scope{Key: "edit", Label: "edits inside this workspace"})
		tm.Type("add logging")
		tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
		waitFor(t, tm, "working")
		fb.ch <- agent.Event{Kind: agent.EventToolCallStarted, Call: &call}
		fb.ch <- agent.Event{Kind: agent.EventApprovalRequested, Call: &call, Approval: req}
		waitFor(t, tm, "Allow")
		tm.Send(tea.KeyPressMsg{Code: tea.KeyPgDown})
		tm.Send(tea.KeyPressMsg{Code: tea.KeyDown})
		tm.Send(tea.KeyPressMsg{Code: tea.KeyRight})
		waitFor(t, tm, "handler 1")
	})
}

// TestGoldenApprovalAlwaysAsks: an always-ask command's dialog says why
// and offers no "allow for this session".
func TestGoldenApprovalAlwaysAsks(t *testing.T) {
	t.Parallel()
	goldenRun(t, 80, 24, Options{}, func(tm *teatest.TestModel, fb *fakeBackend) {
		call := agent.Call{ID: "p", Name: "run_shell", Args: json.RawMessage(`{"command":"git push --force origin main"}`)}
		req := agent.NewApprovalRequest("r", call, tools.KindShell,
			tools.Preview{Title: "run git push --force origin main", Command: "git push --force origin main"},
			agent.Scope{Key: "run_shell:git push", Label: "commands starting with `git push`"})
		req.Always, req.Reason = true, "This command force-pushes, rewriting the remote branch's history."
		tm.Type("publish it")
		tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
		waitFor(t, tm, "working")
		fb.ch <- agent.Event{Kind: agent.EventToolCallStarted, Call: &call}
		fb.ch <- agent.Event{Kind: agent.EventApprovalRequested, Call: &call, Approval: req}
		waitFor(t, tm, "always asks")
		tm.Send(tea.KeyPressMsg{Code: 'a', Text: "a"})
		waitFor(t, tm, "always asks")
	})
}

func TestGoldenInterrupted(t *testing.T) {
	t.Parallel()
	goldenRun(t, 80, 20, Options{}, func(tm *teatest.TestModel, fb *fakeBackend) {
		fb.finishOnCancel = true
		tm.Type("write a poem")
		tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
		waitFor(t, tm, "working")
		fb.ch <- agent.Event{Kind: agent.EventTextDelta, Text: "Roses are red,\nviolets are"}
		waitFor(t, tm, "violets")
		tm.Type("and then")
		tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
		waitFor(t, tm, "interrupted")
	})
}

func TestGoldenError(t *testing.T) {
	t.Parallel()
	goldenRun(t, 80, 20, Options{}, func(tm *teatest.TestModel, fb *fakeBackend) {
		tm.Type("hi")
		tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
		waitFor(t, tm, "working")
		err := &provider.Error{Kind: provider.ErrAuth, Status: 401, Message: "the gateway rejected the API key"}
		fb.ch <- agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishFailed, Err: err}, Err: err}
		waitFor(t, tm, "doctor")
	})
}
