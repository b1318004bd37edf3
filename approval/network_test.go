package approval

import (
	"encoding/json"
	"testing"

	"github.com/ternhq/tern/tools"
)

// TestDecideWebFetch pins how a fetch is judged: it asks under ask,
// auto-edit and read-only, runs under full-auto, and rules and grants
// match the URL's host.
func TestDecideWebFetch(t *testing.T) {
	t.Parallel()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s, err := newSession(Config{
		Workspace: ws,
		Tools:     []string{"read_file", "edit_file", "run_shell", "web_fetch"},
		Rules: Rules{
			Allow: []string{"web_fetch:docs.python.org", "web_fetch:*.golang.org"},
			Deny:  []string{"web_fetch:*.evil.example"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	s.grant([]string{"web_fetch:granted.example"})
	fetch := func(u string) json.RawMessage { b, _ := json.Marshal(map[string]string{"url": u}); return b }
	for _, tc := range []struct {
		url     string
		policy  Policy
		verdict Verdict
		message string
	}{
		{"https://example.com/a?token=x", PolicyAsk, Ask, ""},
		{"https://example.com/", PolicyAutoEdit, Ask, ""},
		{"https://example.com/", PolicyReadOnly, Ask, ""},
		{"https://example.com/", PolicyFullAuto, Run, "the full-auto policy allows web_fetch"},
		{"https://docs.python.org/3/library/", PolicyAsk, Run, "allowed by the rule web_fetch:docs.python.org"},
		{"https://DOCS.python.org./3/", PolicyAsk, Run, "allowed by the rule web_fetch:docs.python.org"},
		{"https://docs.python.org:8443/", PolicyReadOnly, Run, "allowed by the rule web_fetch:docs.python.org"},
		{"https://pkg.go.golang.org/x", PolicyAsk, Run, "allowed by the rule web_fetch:*.golang.org"},
		{"https://golang.org/", PolicyAsk, Ask, ""}, // *. wants a subdomain
		{"https://evil.golang.org.attacker.example/", PolicyAsk, Ask, ""},
		{"https://docs.python.org%2eattacker.example/", PolicyAsk, Ask, ""}, // no host: no rule, no grant
		{"http://[::ffff:127.0.0.1]/", PolicyAsk, Ask, ""},
		{"https://docs.python.org.evil.example/", PolicyAsk, Deny, "denied by the rule web_fetch:*.evil.example"},
		{"https://docs.python.org@attacker.example/", PolicyAsk, Ask, ""}, // user info is not the host
		{"https://granted.example/x", PolicyAsk, Run, "allowed for this session: fetches from granted.example"},
		{"https://a.evil.example/", PolicyFullAuto, Deny, "denied by the rule web_fetch:*.evil.example"},
		{"https://evilgolang.org/", PolicyAsk, Ask, ""},
		// net/http dials the IDNA form of the host: full-width letters and
		// dots, the ideographic full stop and upper case map to ASCII, so
		// the rules must see that form too or a deny rule is sidestepped.
		{"https://a.evil\uff0eexample/", PolicyFullAuto, Deny, "denied by the rule web_fetch:*.evil.example"},
		{"https://a.evil\u3002example/", PolicyFullAuto, Deny, "denied by the rule web_fetch:*.evil.example"},
		{"https://a.\uff45vil.example/", PolicyFullAuto, Deny, "denied by the rule web_fetch:*.evil.example"},
		{"https://docs.python\uff0eorg/", PolicyAsk, Run, "allowed by the rule web_fetch:docs.python.org"},
	} {
		r := s.judge(tools.KindNetwork, "web_fetch", fetch(tc.url), tc.policy)
		if r.Verdict != tc.verdict || r.Message != tc.message {
			t.Errorf("%s under %v: verdict %d %q, want %d %q", tc.url, tc.policy, r.Verdict, r.Message, tc.verdict, tc.message)
		}
		if h := urlHost(tc.url); r.Verdict == Ask && h != "" && r.Scope.Key != "web_fetch:"+h {
			t.Errorf("%s: scope %+v", tc.url, r.Scope)
		}
	}
}
