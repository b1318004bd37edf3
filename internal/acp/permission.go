package acp

import (
	"cmp"
	"context"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ternhq/tern/agent"
)

// The permission options' ids; their kinds are the ACP kinds of the same
// names.
const (
	optAllowOnce    sdk.PermissionOptionId = "allow_once"
	optAllowAlways  sdk.PermissionOptionId = "allow_always"
	optRejectOnce   sdk.PermissionOptionId = "reject_once"
	optRejectAlways sdk.PermissionOptionId = "reject_always"
)

// permissionOptions are the answers an editor offers for r: "always"
// options only where tern can keep the rule (a grant scope; an always-ask
// command and a protected-file change ask each time).
func permissionOptions(r *agent.ApprovalRequest) []sdk.PermissionOption {
	if r.Keep {
		return []sdk.PermissionOption{
			{OptionId: optAllowOnce, Kind: sdk.PermissionOptionKindAllowOnce, Name: "Keep the change"},
			{OptionId: optRejectOnce, Kind: sdk.PermissionOptionKindRejectOnce, Name: "Revert it"},
		}
	}
	scoped := !r.Always && len(r.Grants) > 0 && r.Scope.Label != ""
	opts := []sdk.PermissionOption{{OptionId: optAllowOnce, Kind: sdk.PermissionOptionKindAllowOnce, Name: "Allow"}}
	if scoped {
		opts = append(opts, sdk.PermissionOption{OptionId: optAllowAlways, Kind: sdk.PermissionOptionKindAllowAlways,
			Name: "Allow " + r.Scope.Label + " for this session"})
	}
	opts = append(opts, sdk.PermissionOption{OptionId: optRejectOnce, Kind: sdk.PermissionOptionKindRejectOnce, Name: "Deny"})
	if scoped {
		opts = append(opts, sdk.PermissionOption{OptionId: optRejectAlways, Kind: sdk.PermissionOptionKindRejectAlways,
			Name: "Deny " + r.Scope.Label + " for this session"})
	}
	return opts
}

// decision maps the editor's answer onto tern's.
func decision(resp sdk.RequestPermissionResponse) agent.Decision {
	if resp.Outcome.Selected == nil {
		return agent.Decision{Kind: agent.Cancelled}
	}
	switch resp.Outcome.Selected.OptionId {
	case optAllowOnce:
		return agent.Decision{Kind: agent.AllowOnce}
	case optAllowAlways:
		return agent.Decision{Kind: agent.AllowSession}
	case optRejectOnce, optRejectAlways:
		return agent.Decision{Kind: agent.Deny}
	}
	// An option tern did not offer: refuse rather than guess.
	return agent.Decision{Kind: agent.Deny, Message: "the editor answered with an unknown option"}
}

// ask sends r to the editor as session/request_permission and replies with
// its answer; the agent's turn waits meanwhile. A cancelled turn, a
// withdrawn request and a client that goes away answer Cancelled. task is
// the task call whose subagent asks (the request is made on it, titled
// with the subagent's call), nil for the session's own calls.
func (s *session) ask(r *agent.ApprovalRequest, task *callState) {
	if s.rejectedAll(r.Grants) && !r.Keep && !r.Always {
		r.Reply(agent.Decision{Kind: agent.Deny, Message: "The user denied " + r.Scope.Label + " for this session."})
		return
	}
	ctx, withdraw := context.WithCancel(s.srv.ctx)
	defer withdraw()
	s.mu.Lock()
	if s.cancelled {
		s.mu.Unlock()
		r.Reply(agent.Decision{Kind: agent.Cancelled})
		return
	}
	s.askCancel = withdraw
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.askCancel = nil
		s.mu.Unlock()
	}()
	var c *callState
	title := ""
	if task == nil {
		c = s.proj.call(&r.Call)
	} else {
		args := parseArgs(r.Call.Args)
		c = &callState{id: task.id, name: r.Call.Name, args: args, raw: r.Call.Args, diff: previewDiff(s.cwd, r.Preview)}
		if c.diff == nil {
			c.diff = argsDiff(s.cwd, c.name, args)
		}
		title = "[" + cmp.Or(r.Subagent, "subagent") + "] "
		defer func() {
			// The task's own title back once the subagent's call is answered.
			s.send(sdk.UpdateToolCall(task.id, sdk.WithUpdateTitle(toolTitle(task.name, task.args)),
				sdk.WithUpdateKind(toolKind(task.name)), sdk.WithUpdateStatus(sdk.ToolCallStatusInProgress)))
		}()
	}
	upd := sdk.ToolCallUpdate{ToolCallId: c.id, Title: sdk.Ptr(title + toolTitle(c.name, c.args)),
		Kind: sdk.Ptr(toolKind(c.name)), Status: sdk.Ptr(sdk.ToolCallStatusPending), RawInput: rawInput(c.raw),
		Content: c.diff, Locations: locations(s.cwd, c.name, c.args)}
	if r.Always && r.Reason != "" {
		upd.Content = append(append([]sdk.ToolCallContent(nil), upd.Content...), sdk.ToolContent(sdk.TextBlock("Always asks: "+r.Reason)))
	}
	resp, err := s.srv.conn.RequestPermission(ctx, sdk.RequestPermissionRequest{SessionId: s.id, ToolCall: upd, Options: permissionOptions(r)})
	d := agent.Decision{Kind: agent.Cancelled}
	if err == nil {
		d = decision(resp)
		if resp.Outcome.Selected != nil && resp.Outcome.Selected.OptionId == optRejectAlways {
			s.reject(r.Grants)
		}
	} else {
		s.srv.opts.Log.Debug("permission not answered", "err", err)
	}
	r.Reply(d)
}

// rejectedAll reports whether every grant key was rejected for the session.
func (s *session) rejectedAll(keys []string) bool {
	if len(keys) == 0 {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range keys {
		if !s.rejected[k] {
			return false
		}
	}
	return true
}

func (s *session) reject(keys []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range keys {
		s.rejected[k] = true
	}
}

// askPlan asks the editor whether to carry out the plan the call proposed:
// under the policy plan mode replaced, or not yet (keep planning). A
// cancelled turn or a withdrawn request keeps planning.
func (s *session) askPlan(call sdk.ToolCallId) bool {
	ctx, withdraw := context.WithCancel(s.srv.ctx)
	defer withdraw()
	s.mu.Lock()
	if s.cancelled {
		s.mu.Unlock()
		return false
	}
	s.askCancel = withdraw
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.askCancel = nil
		s.mu.Unlock()
	}()
	resp, err := s.srv.conn.RequestPermission(ctx, sdk.RequestPermissionRequest{
		SessionId: s.id,
		ToolCall:  sdk.ToolCallUpdate{ToolCallId: call, Title: sdk.Ptr("Carry out the plan?")},
		Options: []sdk.PermissionOption{
			{OptionId: optAllowOnce, Kind: sdk.PermissionOptionKindAllowOnce, Name: "Carry it out (" + s.svc.PlanPolicy().String() + ")"},
			{OptionId: optRejectOnce, Kind: sdk.PermissionOptionKindRejectOnce, Name: "Keep planning"},
		},
	})
	return err == nil && resp.Outcome.Selected != nil && resp.Outcome.Selected.OptionId == optAllowOnce
}
