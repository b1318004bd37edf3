package headless

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tools"
)

// denials tells the person running tern run which calls nobody could
// approve: one line per call as it is denied, and a count at the end with
// what would let them run. It writes whether or not stderr is a terminal,
// since a script's log is where a silently refused change is missed.
type denials struct {
	policy agent.Policy
	// byPolicy counts the calls the policy left to an approval nobody could
	// give; always counts the always-ask commands among them.
	byPolicy, always int
	// shell and edit say which kinds of call the policy denied.
	shell, edit bool
}

// requested notes a call denied because it needed approval, and returns
// its line.
func (d *denials) requested(req *agent.ApprovalRequest) string {
	d.byPolicy++
	why := fmt.Sprintf("needs approval under policy %q", d.policy.String())
	switch {
	case req.Keep:
		why = "changed protected files and needs approval to keep them (reverted)"
		d.always++
	case req.Always:
		why = "always asks (" + req.Reason + ")"
		d.always++
	case req.Kind == tools.KindShell, req.Kind == tools.KindExternal:
		d.shell = true // like commands, MCP calls run unasked only under full-auto or by rule
	case req.Kind == tools.KindEdit:
		d.edit = true
	case req.Kind == tools.KindNetwork, req.Kind == tools.KindRead:
	}
	return deniedLine(req.Call, why)
}

// refused returns the line of a call the policy or a rule refused without
// asking, or "" for other automatic decisions.
func (d *denials) refused(ev agent.Event) string {
	if !ev.Decision.Auto || ev.Decision.Kind != agent.Deny || ev.Call == nil {
		return ""
	}
	if d.policy == agent.PolicyReadOnly && !strings.HasPrefix(ev.Decision.Message, "denied by the rule") {
		d.byPolicy++
		return deniedLine(*ev.Call, fmt.Sprintf("refused under policy %q", d.policy.String()))
	}
	return deniedLine(*ev.Call, ev.Decision.Message)
}

// total is the closing line, or "" when the policy denied nothing.
func (d *denials) total() string {
	if d.byPolicy == 0 {
		return ""
	}
	calls := "calls"
	if d.byPolicy == 1 {
		calls = "call"
	}
	var hint string
	switch d.policy {
	case agent.PolicyAsk:
		switch {
		case d.shell && d.edit:
			hint = "use --approval auto-edit (edits) or full-auto (commands), or allow rules"
		case d.shell:
			hint = "use --approval full-auto or allow rules"
		default:
			hint = "use --approval auto-edit or allow rules"
		}
	case agent.PolicyAutoEdit:
		hint = "use --approval full-auto or allow rules"
	case agent.PolicyReadOnly:
		hint = "use --approval ask, auto-edit or full-auto"
	case agent.PolicyFullAuto:
		hint = "these commands always ask"
	}
	if d.always > 0 {
		hint += "; only --dangerously-skip-approvals runs the always-ask commands unasked"
	}
	return fmt.Sprintf("%d %s denied by policy %q: %s", d.byPolicy, calls, d.policy.String(), hint)
}

// deniedLine is `denied <tool> "<what>": <why>`; what is the command or
// path, else the arguments.
func deniedLine(c agent.Call, why string) string {
	return fmt.Sprintf("denied %s %q: %s", c.Name, callTarget(c.Args), firstLine(why))
}

// callTarget is what a call acts on: its command or path.
func callTarget(args json.RawMessage) string {
	var a struct {
		Command string `json:"command"`
		Path    string `json:"path"`
	}
	if json.Unmarshal(args, &a) == nil {
		switch {
		case a.Command != "":
			return firstLine(a.Command)
		case a.Path != "":
			return firstLine(a.Path)
		}
	}
	return shortArgs(args)
}
