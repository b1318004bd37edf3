package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/hooks"
)

// hookScript writes an executable script fixture and returns its path.
func hookScript(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func withHooks(dir string, hs ...hooks.Hook) func(*Options) {
	return func(o *Options) { o.Hooks = hooks.New(hs, dir) }
}

func lastUserOrTool(req provider.Request, role provider.Role) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == role {
			return req.Messages[i].Content
		}
	}
	return ""
}

// TestHookBeforeToolDenies: exit 2 from a before_tool hook denies the call
// unrun, and its stderr is the reason the next request carries.
func TestHookBeforeToolDenies(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	guard := hookScript(t, dir, "guard.sh", `grep -q 'rm -rf' && { echo "rm -rf is not allowed here" >&2; exit 2; }; exit 0`)
	_, _, shell := fakeTools()
	h := newHarness(t, tools.NewRegistry(shell), withHooks(dir, hooks.Hook{Event: hooks.BeforeTool, Match: "run_*", Command: guard}),
		calls("run_shell", `{"command":"rm -rf build"}`), answer("ok"))
	evs := h.turn("clean up", func(ev Event) {
		if ev.Kind == EventApprovalRequested {
			t.Error("a call the hook denied asked for approval")
			ev.Approval.Reply(Decision{Kind: Deny})
		}
	})
	if len(shell.runs()) != 0 {
		t.Errorf("the denied call ran: %v", shell.runs())
	}
	fin := eventsOf(evs, EventToolFinished)
	if len(fin) != 1 || fin[0].Result.Status != tools.StatusDenied {
		t.Fatalf("results %+v", fin)
	}
	reqs := h.prov.Requests()
	if len(reqs) != 2 || !strings.Contains(lastUserOrTool(reqs[1], provider.RoleTool), "rm -rf is not allowed here") {
		t.Errorf("the next request lacks the reason: %q", lastUserOrTool(reqs[len(reqs)-1], provider.RoleTool))
	}
	hk := eventsOf(evs, EventHook)
	if len(hk) != 1 || !hk[0].Hook.Blocked() || hk[0].Hook.Tool != "run_shell" {
		t.Errorf("hook events %+v", hk)
	}
}

// TestHookEvents: each event's hook gets its JSON input, prompt and
// session_start stdout reach the model as notes, after_tool sees the
// result, turn_end the answer; session_start runs once.
func TestHookEvents(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	record := func(name string) string {
		return hookScript(t, dir, name+".sh", "cat >> "+filepath.Join(dir, name+".jsonl")+"; echo >> "+filepath.Join(dir, name+".jsonl"))
	}
	read, _, _ := fakeTools()
	h := newHarness(t, tools.NewRegistry(read), withHooks(dir,
		hooks.Hook{Event: hooks.SessionStart, Command: hookScript(t, dir, "start.sh", "echo branch main")},
		hooks.Hook{Event: hooks.Prompt, Command: hookScript(t, dir, "prompt.sh", "cat >> "+filepath.Join(dir, "prompt.jsonl")+"; echo; echo style: gofmt")},
		hooks.Hook{Event: hooks.BeforeTool, Command: record("before")},
		hooks.Hook{Event: hooks.AfterTool, Match: "read_file", Command: record("after")},
		hooks.Hook{Event: hooks.AfterTool, Match: "edit_*", Command: record("never")},
		hooks.Hook{Event: hooks.TurnEnd, Command: record("end")},
	), calls("read_file", `{"path":"a.txt"}`), answer("all read"), answer("second"))
	h.turn("read a.txt", nil)
	h.turn("again", nil)

	reqs := h.prov.Requests()
	first := lastUserOrTool(reqs[0], provider.RoleUser)
	if !strings.Contains(first, "read a.txt") || !strings.Contains(first, "branch main") || !strings.Contains(first, "style: gofmt") {
		t.Errorf("first prompt lacks the notes: %q", first)
	}
	second := lastUserOrTool(reqs[len(reqs)-1], provider.RoleUser)
	if strings.Contains(second, "branch main") || !strings.Contains(second, "style: gofmt") {
		t.Errorf("second prompt: session_start ran again or prompt did not: %q", second)
	}
	readFile := func(name string) string {
		data, _ := os.ReadFile(filepath.Join(dir, name+".jsonl"))
		return string(data)
	}
	for name, want := range map[string][]string{
		"prompt": {`"event":"prompt"`, `"prompt":"read a.txt"`, `"workspace":"` + dir + `"`},
		"before": {`"event":"before_tool"`, `"tool":{"name":"read_file","arguments":{"path":"a.txt"}}`},
		"after":  {`"event":"after_tool"`, `"result":{"status":"ok","output":"read_file ok"}`},
		"end":    {`"event":"turn_end"`, `"answer":"all read"`, `"answer":"second"`},
	} {
		got := readFile(name)
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s hook input lacks %s:\n%s", name, w, got)
			}
		}
	}
	if readFile("never") != "" {
		t.Error("an after_tool hook matching edit_* ran for read_file")
	}
}

// TestHookPromptRefused: exit 2 from a prompt hook sends nothing and the
// turn fails with its stderr.
func TestHookPromptRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h := newHarness(t, tools.NewRegistry(), withHooks(dir,
		hooks.Hook{Event: hooks.Prompt, Command: hookScript(t, dir, "p.sh", `echo "no secrets in prompts" >&2; exit 2`)},
	), answer("never"))
	evs := h.turn("my password is hunter2", nil)
	fin := finishOf(t, evs)
	if fin.Reason != FinishFailed || fin.Err == nil || !strings.Contains(fin.Err.Error(), "no secrets in prompts") {
		t.Errorf("finish %+v", fin)
	}
	if st := eventsOf(evs, EventTurnStarted); len(st) != 1 || st[0].Text != PromptRefusedMark {
		t.Errorf("the refused prompt's text reached the turn's start: %+v", st)
	}
	if n := len(h.prov.Requests()); n != 0 {
		t.Errorf("%d requests sent after the prompt was refused", n)
	}
	if msgs := h.a.Messages(); len(msgs) != 1 { // the system prompt only
		t.Errorf("history %v", msgs)
	}
}

// TestHookFailuresWarnAndGoOn: a timeout, a crash and another exit are
// warnings; the call runs and the turn completes.
func TestHookFailuresWarnAndGoOn(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	read, _, _ := fakeTools()
	h := newHarness(t, tools.NewRegistry(read), withHooks(dir,
		hooks.Hook{Event: hooks.BeforeTool, Command: hookScript(t, dir, "slow.sh", "sleep 10"), Timeout: 200 * time.Millisecond},
		hooks.Hook{Event: hooks.BeforeTool, Command: hookScript(t, dir, "crash.sh", "kill -SEGV $$")},
		hooks.Hook{Event: hooks.AfterTool, Command: hookScript(t, dir, "fail.sh", "echo oops >&2; exit 1")},
	), calls("read_file", `{"path":"a.txt"}`), answer("done"))
	evs := h.turn("read", nil)
	if fin := finishOf(t, evs); fin.Reason != FinishDone {
		t.Fatalf("finish %+v", fin)
	}
	if len(read.runs()) != 1 {
		t.Errorf("the call did not run: %v", read.runs())
	}
	var warnings []string
	for _, ev := range eventsOf(evs, EventHook) {
		if w := ev.Hook.Warning(); w != "" {
			warnings = append(warnings, w)
		}
	}
	want := []string{"timed out", "exited with 139", "exited with 1: oops"}
	if len(warnings) != len(want) {
		t.Fatalf("warnings %q", warnings)
	}
	for i, w := range want {
		if !strings.Contains(warnings[i], w) {
			t.Errorf("warning %d = %q, want %q", i, warnings[i], w)
		}
	}
}
