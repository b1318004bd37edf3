package approval

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ternhq/tern/tools"
)

// Config is what a Judge knows beyond the calls it judges.
type Config struct {
	// Workspace is where the calls work; paths and commands are judged
	// against it.
	Workspace *tools.Workspace
	// Rules are the allow and deny rules, already checked with Rules.Validate.
	Rules Rules
	// Tools are the names of the tools offered, which the rules may name.
	Tools []string
	// Home is the user's home directory ("" when unknown, which only makes
	// the always-ask check stricter).
	Home string
	// TernHome is $TERN_HOME, whose AGENTS.md is protected like the
	// workspace's ("" when unknown).
	TernHome string
	// SkipApprovals (--dangerously-skip-approvals) runs even the always-ask
	// commands without asking; deny rules and read-only still refuse.
	SkipApprovals bool
	// TrustReadOnlyMCP (mcp_trust_read_only) lets the read-only policy run
	// MCP tools their server marks read-only; off, it refuses them all.
	TrustReadOnlyMCP bool
}

// Judge decides tool calls for one workspace. It holds no session state
// (the policy and the grants come with each call), so it is safe for
// concurrent use.
type Judge struct {
	ws          *tools.Workspace
	allow, deny []rule
	home        string
	ternHome    string
	skip        bool
	trustMCP    bool
}

// New parses the rules and checks that each names one of the tools.
func New(c Config) (*Judge, error) {
	allow, err := parseRules(c.Rules.Allow)
	if err != nil {
		return nil, err
	}
	deny, err := parseRules(c.Rules.Deny)
	if err != nil {
		return nil, err
	}
	for _, r := range append(append([]rule(nil), allow...), deny...) {
		if !slices.Contains(c.Tools, r.tool) && !isExternalRule(r) {
			return nil, fmt.Errorf("approval rule %q names the unknown tool %q: the tools are %s",
				r.raw, r.tool, strings.Join(c.Tools, ", "))
		}
	}
	return &Judge{ws: c.Workspace, allow: allow, deny: deny, home: c.Home, ternHome: c.TernHome, skip: c.SkipApprovals,
		trustMCP: c.TrustReadOnlyMCP}, nil
}
