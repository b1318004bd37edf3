package agent

import (
	"sync"

	"github.com/ternhq/tern/tools"
)

// DecisionKind is how a user (or a policy) answered an approval request.
type DecisionKind int

// The possible answers; the set is closed.
const (
	// AllowOnce runs this call only.
	AllowOnce DecisionKind = iota + 1
	// AllowSession runs this call and remembers the request's Scope.
	AllowSession
	// Deny refuses the call.
	Deny
	// DenyWithMessage refuses the call and sends Message to the model.
	DenyWithMessage
	// Cancelled means the turn was cancelled while the request was pending.
	Cancelled
)

// String names the decision for logs and the public protocol.
func (d DecisionKind) String() string {
	switch d {
	case AllowOnce:
		return "allow_once"
	case AllowSession:
		return "allow_session"
	case Deny:
		return "denied"
	case DenyWithMessage:
		return "denied_with_message"
	case Cancelled:
		return "cancelled"
	}
	return "unknown"
}

// Decision answers an approval request.
type Decision struct {
	Kind DecisionKind
	// Message goes back to the model for DenyWithMessage; for decisions a
	// policy or rule made it says which.
	Message string
	// Auto is true when a policy or rule decided without asking anyone.
	Auto bool
}

// ApprovalRequest is a tool call waiting for a decision. It is a request, not
// a notification: the agent stays blocked until Reply is called or the turn
// is cancelled.
type ApprovalRequest struct {
	// ID is unique within the session.
	ID      string
	Call    Call
	Kind    tools.Kind
	Preview tools.Preview
	// Scope is what AllowSession would remember.
	Scope Scope
	// Grants are the keys AllowSession records for Scope, one per command
	// prefix ("run_shell:go test", "run_shell:git status"); a session log
	// keeps them so Options.Grants can restore them on resume.
	Grants []string
	// Always is true for commands that ask under every policy (rm -rf /,
	// git push --force, ...); it says why in Reason.
	Always bool
	Reason string
	// Keep is true for a question about a change a shell command already
	// made to protected files: allowing keeps it, denying reverts it.
	Keep bool
	// Subagent names the subagent that asks ("subagent: <task description>"
	// for the default one, "subagent <name>" for a custom one); "" when the
	// session's agent asks.
	Subagent string

	once  sync.Once
	reply chan Decision
}

// NewApprovalRequest makes a request with a reply path of its own.
func NewApprovalRequest(id string, call Call, kind tools.Kind, preview tools.Preview, scope Scope) *ApprovalRequest {
	return &ApprovalRequest{ID: id, Call: call, Kind: kind, Preview: preview, Scope: scope, reply: make(chan Decision, 1)}
}

// Reply answers the request. Only the first answer counts; it reports whether
// this one did.
func (r *ApprovalRequest) Reply(d Decision) bool {
	ok := false
	r.once.Do(func() {
		r.reply <- d
		ok = true
	})
	return ok
}

// Decisions is the channel the agent waits on for the answer.
func (r *ApprovalRequest) Decisions() <-chan Decision { return r.reply }
