package agent

import (
	"strings"

	"github.com/ternhq/tern/tools"
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
}

// Permissions returns the policy, rules and grants in force now.
func (a *Agent) Permissions() Permissions {
	p := Permissions{Policy: a.Policy(), SkipApprovals: a.opts.SkipApprovals}
	for _, r := range a.allow {
		p.Allow = append(p.Allow, r.raw)
	}
	for _, r := range a.deny {
		p.Deny = append(p.Deny, r.raw)
	}
	for _, k := range a.Grants() {
		p.Grants = append(p.Grants, Grant{Key: k, Label: grantLabel(k)})
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

// grantLabel says what a grant key covers, in the dialog's words.
func grantLabel(key string) string {
	if key == editScope.Key {
		return editScope.Label
	}
	if tool, prefix, ok := strings.Cut(key, ":"); ok && prefix != "" {
		if tool == tools.RunShellName {
			return "commands starting with `" + prefix + "`"
		}
		return tool + " calls starting with `" + prefix + "`"
	}
	return key
}
