package approval

import (
	"strings"
	"testing"

	"github.com/ternhq/tern/tools"
)

func TestExternalCalls(t *testing.T) {
	t.Parallel()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	const name = "mcp__github__create_issue"
	for _, c := range []struct {
		desc     string
		policy   Policy
		rules    Rules
		trust    bool
		readOnly bool
		granted  bool
		skip     bool
		want     Verdict
	}{
		{desc: "ask asks", policy: PolicyAsk, want: Ask},
		{desc: "auto-edit asks", policy: PolicyAutoEdit, want: Ask},
		{desc: "auto-edit asks even for a read-only hint", policy: PolicyAutoEdit, readOnly: true, trust: true, want: Ask},
		{desc: "full-auto runs", policy: PolicyFullAuto, want: Run},
		{desc: "read-only refuses", policy: PolicyReadOnly, want: Deny},
		{desc: "read-only refuses a hint without trust", policy: PolicyReadOnly, readOnly: true, want: Deny},
		{desc: "read-only refuses trust without a hint", policy: PolicyReadOnly, trust: true, want: Deny},
		{desc: "read-only runs a trusted hint", policy: PolicyReadOnly, readOnly: true, trust: true, want: Run},
		{desc: "an allow rule by glob runs", policy: PolicyAsk, rules: Rules{Allow: []string{"mcp__github__*"}}, want: Run},
		{desc: "an allow rule by name runs", policy: PolicyAsk, rules: Rules{Allow: []string{name}}, want: Run},
		{desc: "another server's rule does not", policy: PolicyAsk, rules: Rules{Allow: []string{"mcp__gitlab__*"}}, want: Ask},
		{desc: "deny wins over allow", policy: PolicyFullAuto, rules: Rules{Allow: []string{"mcp__*"}, Deny: []string{"mcp__github__*"}}, want: Deny},
		{desc: "deny wins over a trusted hint", policy: PolicyReadOnly, readOnly: true, trust: true, rules: Rules{Deny: []string{name}}, want: Deny},
		{desc: "a session grant runs", policy: PolicyAsk, granted: true, want: Run},
		{desc: "skip-approvals runs", policy: PolicyAsk, skip: true, want: Run},
		{desc: "skip-approvals does not beat read-only", policy: PolicyReadOnly, skip: true, want: Deny},
	} {
		s, err := newSession(Config{Workspace: ws, Rules: c.rules, TrustReadOnlyMCP: c.trust, SkipApprovals: c.skip})
		if err != nil {
			t.Fatalf("%s: %v", c.desc, err)
		}
		call := Call{Tool: name, Kind: tools.KindExternal, Args: []byte(`{"title":"x"}`), Server: "github", Remote: "create_issue", ReadOnlyHint: c.readOnly}
		r := s.j.Decide(call, c.policy, func(keys []string) bool { return c.granted && len(keys) == 1 && keys[0] == name })
		if r.Verdict != c.want {
			t.Errorf("%s: verdict %v (%s), want %v", c.desc, r.Verdict, r.Message, c.want)
		}
		if r.Verdict == Ask && (r.Scope.Key != name || !strings.Contains(r.Scope.Label, "create_issue on the MCP server github")) {
			t.Errorf("%s: scope %+v", c.desc, r.Scope)
		}
		if r.Verdict == Deny && r.Denial == "" {
			t.Errorf("%s: no denial text", c.desc)
		}
	}
}

func TestExternalRuleSyntax(t *testing.T) {
	t.Parallel()
	for rule, ok := range map[string]bool{
		"mcp__github__*":           true,
		"mcp__*":                   true,
		"mcp__github__create":      true,
		"mcp__github__create:x":    false,
		"run_*":                    false,
		"mcp__git hub__x":          false,
		"mcp__unknown_server__any": true,
	} {
		err := Rules{Allow: []string{rule}}.Validate()
		if ok != (err == nil) {
			t.Errorf("rule %q: err %v", rule, err)
			continue
		}
		if ok {
			if _, err := newSession(Config{Rules: Rules{Deny: []string{rule}}}); err != nil {
				t.Errorf("rule %q naming a tool not yet known: %v", rule, err)
			}
		}
	}
}
