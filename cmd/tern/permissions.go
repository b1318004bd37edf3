package main

import (
	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/cmd/tern/config"
	"github.com/ternhq/tern/tools/sandbox"
	"github.com/ternhq/tern/tui"
)

// permissionsInfo is what /permissions shows of the configuration: where
// the policy and the rules came from, and the sandbox.
func permissionsInfo(cfg *config.Config, policy agent.Policy, policySource string, st sandbox.Status) tui.PermissionsInfo {
	info := tui.PermissionsInfo{Policy: policy, PolicySource: policySource, Sandbox: tui.SandboxInfo{
		Active: st.Active, Summary: st.Summary, NetworkBlocked: st.NetworkBlocked,
		Writable: cfg.WritableRoots.V, DenyRead: cfg.DenyRead.V,
	}}
	if len(cfg.Allow.V)+len(cfg.Deny.V) > 0 {
		src := cfg.Allow.Source
		if len(cfg.Allow.V) == 0 {
			src = cfg.Deny.Source
		}
		info.RulesSource = src.String()
	}
	return info
}
