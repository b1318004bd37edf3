package headless

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tools"
)

// deniedCall is one call of a denial scene: asked (the runner must deny
// it) or refused automatically with decision.
type deniedCall struct {
	name, args string
	kind       tools.Kind
	always     bool
	auto       *agent.Decision
}

// playDenials plays a turn whose calls, made in one answer, are each asked
// or refused.
func playDenials(calls []deniedCall) func(context.Context, *fakeAgent, string) {
	return func(ctx context.Context, f *fakeAgent, _ string) {
		f.emit(ctx, turnStarted("do it"))
		ids := make([]string, len(calls))
		for i, c := range calls {
			ids[i] = "c" + string(rune('a'+i))
			f.emit(ctx, callReady(ids[i], c.name, c.args))
		}
		if len(calls) > 0 {
			f.emit(ctx, kept("", ids...))
		}
		for i, c := range calls {
			id := string(rune('a' + i))
			req := approvalRequest("ap_"+id, "c"+id, c.name, c.args)
			req.Kind, req.Always = c.kind, c.always
			if c.always {
				req.Reason = "it rewrites remote history"
			}
			d := agent.Decision{}
			if c.auto != nil {
				d = *c.auto
			} else {
				f.emit(ctx, requested(req))
				select {
				case d = <-req.Decisions():
				case <-time.After(5 * time.Second):
					return
				}
			}
			f.emit(ctx, resolved(req, d), finished("c"+id, c.name, tools.StatusDenied, "denied", 0))
		}
		f.emit(ctx, text("Could not do it."), kept("Could not do it."), turnFinished(agent.FinishDone, 2, nil))
	}
}

func TestRunReportsDeniedCalls(t *testing.T) {
	t.Parallel()
	rm := deniedCall{name: "run_shell", args: `{"command":"rm x"}`, kind: tools.KindShell}
	write := deniedCall{name: "write_file", args: `{"path":"hello.txt","content":"hi"}`, kind: tools.KindEdit}
	push := deniedCall{name: "run_shell", args: `{"command":"git push --force"}`, kind: tools.KindShell, always: true}
	readOnly := write
	readOnly.auto = &agent.Decision{Kind: agent.Deny, Auto: true, Message: "the read-only policy refuses write_file"}
	byRule := rm
	byRule.auto = &agent.Decision{Kind: agent.Deny, Auto: true, Message: "denied by the rule run_shell:rm *"}
	for _, tc := range []struct {
		name     string
		policy   agent.Policy
		calls    []deniedCall
		json     bool
		progress bool
		want     []string
		// unwanted must not be on stderr.
		unwanted []string
	}{
		{
			name: "ask, stderr not a terminal", policy: agent.PolicyAsk, calls: []deniedCall{rm, write},
			want: []string{
				`denied run_shell "rm x": needs approval under policy "ask"`,
				`denied write_file "hello.txt": needs approval under policy "ask"`,
				`tern run: 2 calls denied by policy "ask": use --approval auto-edit (edits) or full-auto (commands), or allow rules`,
			},
		},
		{
			name: "ask, progress on a terminal", policy: agent.PolicyAsk, calls: []deniedCall{write}, progress: true,
			want: []string{
				`denied write_file "hello.txt": needs approval under policy "ask"`,
				`tern run: 1 call denied by policy "ask": use --approval auto-edit or allow rules`,
			},
			unwanted: []string{"? approval needed", "decided: denied"},
		},
		{
			name: "ask, --json, a command", policy: agent.PolicyAsk, calls: []deniedCall{rm}, json: true,
			want: []string{`denied run_shell "rm x": needs approval under policy "ask"`, `tern run: 1 call denied by policy "ask": use --approval full-auto or allow rules`},
		},
		{
			name: "auto-edit, an always-ask command", policy: agent.PolicyAutoEdit, calls: []deniedCall{push},
			want: []string{
				`denied run_shell "git push --force": always asks (it rewrites remote history)`,
				`tern run: 1 call denied by policy "auto-edit": use --approval full-auto or allow rules; only --dangerously-skip-approvals`,
			},
		},
		{
			name: "read-only refuses without asking", policy: agent.PolicyReadOnly, calls: []deniedCall{readOnly},
			want: []string{`denied write_file "hello.txt": refused under policy "read-only"`, `tern run: 1 call denied by policy "read-only"`},
		},
		{
			name: "a deny rule is not the policy", policy: agent.PolicyFullAuto, calls: []deniedCall{byRule},
			want:     []string{`denied run_shell "rm x": denied by the rule run_shell:rm *`},
			unwanted: []string{"denied by policy"},
		},
		{
			name: "nothing denied", policy: agent.PolicyAsk,
			unwanted: []string{"denied"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(playDenials(tc.calls))
			_, out, errOut := runFake(t, context.Background(), f, Options{Policy: tc.policy, JSON: tc.json, Progress: tc.progress})
			for _, w := range tc.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errOut)
				}
			}
			for _, u := range tc.unwanted {
				if strings.Contains(errOut, u) {
					t.Errorf("stderr has %q:\n%s", u, errOut)
				}
			}
			if tc.json {
				// The protocol already reports each denial; stdout stays JSON.
				denied := 0
				for l := range strings.SplitSeq(strings.TrimSpace(out), "\n") {
					var m map[string]any
					if err := json.Unmarshal([]byte(l), &m); err != nil {
						t.Fatalf("stdout line %q is not JSON: %v", l, err)
					}
					if m["type"] == TypeApprovalResolved && m["decision"] == "denied" {
						denied++
					}
				}
				if denied != len(tc.calls) {
					t.Errorf("%d approval.resolved denied lines, want %d:\n%s", denied, len(tc.calls), out)
				}
			}
		})
	}
}
