package agent

import (
	"encoding/json"

	"github.com/ternhq/tern/approval"
	"github.com/ternhq/tern/tools"
)

// The approval engine's vocabulary, under the names the interface and the
// command have always used, so they need not import the engine.
type (
	// Policy is the approval policy: which tool calls run without asking.
	Policy = approval.Policy
	// Rules are the allow and deny rules (see approval.Rules).
	Rules = approval.Rules
	// Scope is what "allow for this session" will remember.
	Scope = approval.Scope
)

// The policies (see approval.Policy).
const (
	// PolicyAsk asks before edits, writes and shell commands (the default).
	PolicyAsk = approval.PolicyAsk
	// PolicyAutoEdit lets edits and writes inside the workspace proceed; shell commands ask.
	PolicyAutoEdit = approval.PolicyAutoEdit
	// PolicyFullAuto asks for nothing but the always-ask commands.
	PolicyFullAuto = approval.PolicyFullAuto
	// PolicyReadOnly refuses edits, writes and shell commands without asking.
	PolicyReadOnly = approval.PolicyReadOnly
)

// ParsePolicy reads a policy name as given to --approval or in the config.
func ParsePolicy(s string) (Policy, error) { return approval.ParsePolicy(s) }

// newJudge makes the approval engine for the options, with the user's
// home directory.
func newJudge(opts Options, home string) (*approval.Judge, error) {
	return approval.New(approval.Config{Workspace: opts.Workspace, Rules: opts.Rules, Tools: opts.Tools.Names(),
		Home: home, TernHome: opts.TernHome, SkipApprovals: opts.SkipApprovals, TrustReadOnlyMCP: opts.TrustReadOnlyMCP})
}

// judge asks the approval engine about a call under policy, with the
// session's grants.
func (a *Agent) judge(t tools.Tool, name string, args json.RawMessage, policy Policy) approval.Ruling {
	server, remote, readOnly := externalCall(t)
	return a.approvals.Decide(approval.Call{Tool: name, Kind: t.Kind(), Args: args,
		Server: server, Remote: remote, ReadOnlyHint: readOnly}, policy, a.granted)
}

// granted reports whether the session holds every one of keys.
func (a *Agent) granted(keys []string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, k := range keys {
		if !a.grants[k] {
			return false
		}
	}
	return true
}

// grant remembers an AllowSession answer.
func (a *Agent) grant(keys []string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, k := range keys {
		a.grants[k] = true
	}
}

// autoDecision is the decision the agent reports for a call the engine
// ran or refused without asking.
func autoDecision(r approval.Ruling) Decision {
	d := Decision{Auto: true, Message: r.Message}
	switch r.Verdict {
	case approval.Deny:
		d.Kind = Deny
	case approval.Run, approval.Ask:
		d.Kind = AllowOnce
		if r.By == approval.ByGrant {
			d.Kind = AllowSession
		}
	}
	return d
}
