package agent

import (
	"strings"

	"github.com/ternhq/tern/approval"
	"github.com/ternhq/tern/tools/hooks"
)

// Grant is one "allow for this session" the agent holds.
type Grant struct {
	// Key is the grant as ApprovalRequest.Grants names it ("edit",
	// "run_shell:go test").
	Key string
	// Label says it in words, as the approval dialog did.
	Label string
}

// Permissions is what decides whether a call asks, for the interface to
// show (/permissions).
type Permissions struct {
	Policy Policy
	// SkipApprovals is --dangerously-skip-approvals.
	SkipApprovals bool
	// Allow and Deny are the rules as written.
	Allow, Deny []string
	// Grants are the session's grants, sorted by key.
	Grants []Grant
	// Hooks are the user's hooks, with where each is configured.
	Hooks []hooks.Hook
}

// Permissions returns the policy, rules and grants in force now.
func (a *Agent) Permissions() Permissions {
	p := Permissions{Policy: a.Policy(), SkipApprovals: a.opts.SkipApprovals}
	// As the rules report themselves: without surrounding space.
	for _, r := range a.opts.Rules.Allow {
		p.Allow = append(p.Allow, strings.TrimSpace(r))
	}
	for _, r := range a.opts.Rules.Deny {
		p.Deny = append(p.Deny, strings.TrimSpace(r))
	}
	for _, k := range a.Grants() {
		p.Grants = append(p.Grants, Grant{Key: k, Label: approval.GrantLabel(k)})
	}
	if a.opts.Hooks != nil {
		p.Hooks = a.opts.Hooks.Hooks()
	}
	return p
}

// Revoke forgets one grant, so what it covered asks again; it reports
// whether the agent held it.
func (a *Agent) Revoke(key string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.grants[key] {
		return false
	}
	delete(a.grants, key)
	return true
}
