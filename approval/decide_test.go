package approval

import (
	"encoding/json"
	"testing"

	"github.com/ternhq/tern/tools"
)

// TestDecideOutcomes pins who decides each path of Decide, which the agent
// turns into the decision it reports: nothing for a read, the call alone
// for a rule, a policy or the read-only commands, the session for a grant.
func TestDecideOutcomes(t *testing.T) {
	t.Parallel()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	read, edit, shell := fakeTools()
	a, err := newSession(Config{Workspace: ws, Rules: Rules{Allow: []string{"run_shell:go vet *"}, Deny: []string{"run_shell:rm *"}}})
	if err != nil {
		t.Fatal(err)
	}
	a.grant([]string{"run_shell:go test"})
	skip, err := newSession(Config{Workspace: ws, SkipApprovals: true})
	if err != nil {
		t.Fatal(err)
	}
	cmd := func(c string) json.RawMessage { b, _ := json.Marshal(map[string]string{"command": c}); return b }
	for _, tc := range []struct {
		name    string
		s       *session
		kind    tools.Kind
		tool    string
		args    json.RawMessage
		policy  Policy
		verdict Verdict
		by      Decider
		message string
	}{
		{"a read", a, read, "read_file", json.RawMessage(`{"path":"a.go"}`), PolicyAsk, Run, Silent, ""},
		{"a deny rule", a, shell, "run_shell", cmd("rm -f x"), PolicyFullAuto, Deny, ByRule, "denied by the rule run_shell:rm *"},
		{"the read-only policy", a, edit, "edit_file", json.RawMessage(`{"path":"a.go"}`), PolicyReadOnly, Deny, ByRule, "the read-only policy refuses edit_file"},
		{"skipped approvals", skip, shell, "run_shell", cmd("make"), PolicyAsk, Run, ByRule, "approvals are skipped (--dangerously-skip-approvals)"},
		{"an allow rule", a, shell, "run_shell", cmd("go vet ./..."), PolicyAsk, Run, ByRule, "allowed by the rule run_shell:go vet *"},
		{"a grant", a, shell, "run_shell", cmd("go test ./..."), PolicyAsk, Run, ByGrant, "allowed for this session: commands starting with `go test`"},
		{"a read-only command", a, shell, "run_shell", cmd("ls"), PolicyAsk, Run, ByRule, readOnlyMessage},
		{"full-auto", a, shell, "run_shell", cmd("make"), PolicyFullAuto, Run, ByRule, "the full-auto policy allows run_shell"},
		{"auto-edit", a, edit, "edit_file", json.RawMessage(`{"path":"a.go"}`), PolicyAutoEdit, Run, ByRule, "the auto-edit policy allows edits inside the workspace"},
		{"ask", a, shell, "run_shell", cmd("make"), PolicyAsk, Ask, Silent, ""},
	} {
		r := tc.s.judge(tc.kind, tc.tool, tc.args, tc.policy)
		if r.Verdict != tc.verdict || r.By != tc.by || r.Message != tc.message {
			t.Errorf("%s: verdict %d by %d %q, want %d by %d %q", tc.name, r.Verdict, r.By, r.Message, tc.verdict, tc.by, tc.message)
		}
	}
	// No grants at all: nil asks.
	if r := a.j.Decide(Call{Tool: "run_shell", Kind: shell, Args: cmd("go test ./...")}, PolicyAsk, nil); r.Verdict != Ask {
		t.Errorf("nil grants: verdict %d (%s), want Ask", r.Verdict, r.Message)
	}
}
