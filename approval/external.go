package approval

import (
	"path"
	"strings"
)

// externalPrefix starts the names of MCP tools (mcp__<server>__<tool>);
// rules naming them may use * (mcp__github__*) and take no pattern.
const externalPrefix = "mcp__"

// isExternalRule reports whether a rule names MCP tools, which are not
// known when the judge is made (their servers start in the background).
func isExternalRule(r rule) bool { return strings.HasPrefix(r.tool, externalPrefix) }

// matchesTool reports whether the rule's tool name (a glob for MCP rules)
// names the tool.
func (r rule) matchesTool(name string) bool {
	if !strings.Contains(r.tool, "*") {
		return r.tool == name
	}
	ok, err := path.Match(r.tool, name)
	return err == nil && ok
}

// decideExternal decides a call of an MCP tool, after the deny rules. The
// server's annotations are claims of a program tern does not control: the
// read-only policy trusts readOnlyHint only when the user turned
// mcp_trust_read_only on, and nothing else loosens on their word. Under ask
// and auto-edit every call asks; a session grant covers one tool.
func (j *Judge) decideExternal(c Call, tg target, policy Policy, granted func([]string) bool) Ruling {
	name := c.Tool
	if policy == PolicyReadOnly {
		if c.ReadOnlyHint && j.trustMCP {
			return Ruling{Verdict: Run, By: ByRule,
				Message: "the server marks " + name + " read-only and mcp_trust_read_only is on"}
		}
		why := "is not marked read-only by its server"
		if c.ReadOnlyHint {
			why = "is marked read-only by its server, but mcp_trust_read_only is off"
		}
		return Ruling{
			Verdict: Deny,
			By:      ByRule,
			Message: "the read-only policy refuses " + name,
			Denial: "This session is read-only and the MCP tool " + name + " " + why + ", so the call was not run. " +
				"Do not retry it; say in your answer what you would call and why.",
		}
	}
	if j.skip {
		return Ruling{Verdict: Run, By: ByRule, Message: "approvals are skipped (--dangerously-skip-approvals)"}
	}
	if r, ok := allows(j.allow, tg); ok {
		return Ruling{Verdict: Run, By: ByRule, Message: "allowed by the rule " + r.raw}
	}
	label := "calls of " + name
	if c.Server != "" && c.Remote != "" {
		label = "calls of " + c.Remote + " on the MCP server " + c.Server
	}
	scope := Scope{Key: name, Label: label}
	if granted != nil && granted([]string{scope.Key}) {
		return Ruling{Verdict: Run, By: ByGrant, Message: "allowed for this session: " + scope.Label}
	}
	switch policy {
	case PolicyFullAuto:
		return Ruling{Verdict: Run, By: ByRule, Message: "the full-auto policy allows " + name}
	case PolicyAsk, PolicyAutoEdit, PolicyReadOnly:
	}
	return Ruling{Verdict: Ask, Scope: scope, Grants: []string{scope.Key}}
}
