// Package headless runs one agent turn without the TUI (`tern run`): it
// prints the final answer, or projects the agent's internal events onto the
// public JSON Lines protocol documented in docs/protocol.md.
package headless

import "encoding/json"

// Version is the public protocol's schema version, carried by every line.
// It changes only when a field is removed or its meaning changes; new
// fields and new item types may appear without a version change.
const Version = 1

// The public message types.
const (
	TypeSessionStarted    = "session.started"
	TypeTurnStarted       = "turn.started"
	TypeItemStarted       = "item.started"
	TypeItemDelta         = "item.delta"
	TypeItemCompleted     = "item.completed"
	TypeApprovalRequested = "approval.requested"
	TypeApprovalResolved  = "approval.resolved"
	TypeTurnCompleted     = "turn.completed"
	TypeTurnFailed        = "turn.failed"
	TypeRequestCompleted  = "request.completed"
	TypeContextCompacted  = "context.compacted"
	TypeRequestRetrying   = "request.retrying"
)

// The public item types.
const (
	ItemAgentMessage = "agent_message"
	ItemReasoning    = "reasoning"
	ItemToolCall     = "tool_call"
)

// Message is one line of the public protocol. The set of implementations is
// closed (the types below).
type Message interface {
	// MessageType returns the line's "type".
	MessageType() string
}

// SessionStarted opens the stream: what tern is talking to and how.
type SessionStarted struct {
	Type      string `json:"type"`
	Version   int    `json:"version"`
	Tern      string `json:"tern_version"`
	Model     string `json:"model"`
	Workspace string `json:"workspace"`
	Approval  string `json:"approval_policy"`
	// Offline is true when the offline scripted provider answers.
	Offline bool `json:"offline"`
	// SessionID is the session the run is recorded in, for
	// `tern run --session ID` and `tern sessions export ID`.
	SessionID string `json:"session_id,omitempty"`
}

// TurnStarted opens a turn; Prompt is the user's message.
type TurnStarted struct {
	Type    string `json:"type"`
	Version int    `json:"version"`
	Turn    int    `json:"turn"`
	Prompt  string `json:"prompt"`
}

// ItemStarted announces an item; its fields are filled as far as known.
type ItemStarted struct {
	Type    string `json:"type"`
	Version int    `json:"version"`
	Turn    int    `json:"turn"`
	Item    Item   `json:"item"`
}

// ItemDelta carries streamed text of an agent_message or reasoning item.
type ItemDelta struct {
	Type    string `json:"type"`
	Version int    `json:"version"`
	Turn    int    `json:"turn"`
	ItemID  string `json:"item_id"`
	Text    string `json:"text"`
}

// ItemCompleted carries the item in its final state.
type ItemCompleted struct {
	Type    string `json:"type"`
	Version int    `json:"version"`
	Turn    int    `json:"turn"`
	Item    Item   `json:"item"`
}

// Item is an agent_message, a reasoning block or a tool_call.
type Item struct {
	ID   string `json:"id"`
	Type string `json:"type"`
	// Text is the message or reasoning text (agent_message, reasoning).
	Text *string `json:"text,omitempty"`
	// Tool, Arguments, Status, Output and ExitCode describe a tool_call.
	Tool      string          `json:"tool,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	// RawArguments holds arguments that were not a JSON object, as sent.
	RawArguments string  `json:"raw_arguments,omitempty"`
	Status       string  `json:"status,omitempty"`
	Output       *string `json:"output,omitempty"`
	// ExitCode is set for run_shell calls that ran.
	ExitCode *int `json:"exit_code,omitempty"`
}

// ApprovalRequested says a tool call waits for a decision.
type ApprovalRequested struct {
	Type       string          `json:"type"`
	Version    int             `json:"version"`
	Turn       int             `json:"turn"`
	ApprovalID string          `json:"approval_id"`
	ItemID     string          `json:"item_id"`
	Tool       string          `json:"tool"`
	Arguments  json.RawMessage `json:"arguments"`
	Preview    Preview         `json:"preview"`
	// Scope says what "allow for this session" would remember.
	Scope string `json:"scope"`
	// Always is true for commands that ask under every policy; Reason says why.
	Always bool   `json:"always"`
	Reason string `json:"reason,omitempty"`
	// Keep is true when the question is whether to keep changes a shell
	// command already made to protected files (allow keeps, deny reverts).
	Keep bool `json:"keep,omitempty"`
}

// Preview is what a person would see before deciding.
type Preview struct {
	Title   string `json:"title"`
	Path    string `json:"path,omitempty"`
	Diff    string `json:"diff,omitempty"`
	Command string `json:"command,omitempty"`
	Workdir string `json:"workdir,omitempty"`
}

// ApprovalResolved says how a request was decided: by a person (never, in
// headless runs), by the headless runner, or automatically by a policy or rule.
type ApprovalResolved struct {
	Type       string `json:"type"`
	Version    int    `json:"version"`
	Turn       int    `json:"turn"`
	ApprovalID string `json:"approval_id,omitempty"`
	ItemID     string `json:"item_id"`
	// Decision is allow_once, allow_session, denied or cancelled.
	Decision string `json:"decision"`
	Reason   string `json:"reason,omitempty"`
	// Auto is true when a policy or rule decided.
	Auto bool `json:"auto"`
}

// TurnCompleted closes a turn that ended normally.
type TurnCompleted struct {
	Type    string `json:"type"`
	Version int    `json:"version"`
	Turn    int    `json:"turn"`
	Usage   Usage  `json:"usage"`
}

// TurnFailed closes a turn that failed, hit the step limit or was cancelled.
type TurnFailed struct {
	Type    string    `json:"type"`
	Version int       `json:"version"`
	Turn    int       `json:"turn"`
	Error   ErrorInfo `json:"error"`
	Usage   Usage     `json:"usage"`
}

// Usage sums the turn's model requests as the gateway reported them.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	CachedTokens     int `json:"cached_tokens"`
	Requests         int `json:"requests"`
	// Estimated sums tern's estimates for the requests the gateway
	// reported no usage for; they are not in the fields above.
	Estimated *EstimatedUsage `json:"estimated,omitempty"`
	// BytesSent is the size of the requests' messages and tool specs.
	BytesSent int `json:"bytes_sent,omitempty"`
	// Cost is what the turn cost at the model's configured prices, else
	// its list prices (then ListPrices is true), estimates included;
	// absent without prices.
	Cost       *float64 `json:"cost,omitempty"`
	ListPrices bool     `json:"list_prices,omitempty"`
}

// EstimatedUsage is usage tern estimated (about 4 bytes a token).
type EstimatedUsage struct {
	Requests         int `json:"requests"`
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// RequestCompleted measures one model request once it ended: what it
// carried and what it used.
type RequestCompleted struct {
	Type    string `json:"type"`
	Version int    `json:"version"`
	Turn    int    `json:"turn"`
	// Request numbers the requests of the turn from 1, retries included.
	Request int `json:"request"`
	// Bytes is the size of its messages and tool specs as sent;
	// ToolResultBytes the part that is tool results.
	Bytes           int `json:"bytes"`
	Messages        int `json:"messages"`
	ToolResultBytes int `json:"tool_result_bytes"`
	// Usage is as the gateway reported it, or estimated when Estimated.
	PromptTokens     int  `json:"prompt_tokens"`
	CompletionTokens int  `json:"completion_tokens"`
	CachedTokens     int  `json:"cached_tokens"`
	Estimated        bool `json:"estimated"`
	// FirstTokenMS is the time to the first output, absent when none came.
	FirstTokenMS *int64 `json:"first_token_ms,omitempty"`
	DurationMS   int64  `json:"duration_ms"`
}

// RequestRetrying says a model request failed and is tried again after a
// wait, so a reader can tell a rate limit from a hang.
type RequestRetrying struct {
	Type    string `json:"type"`
	Version int    `json:"version"`
	Turn    int    `json:"turn"`
	// Attempt numbers the attempt about to be made, from 2; MaxAttempts
	// is the last one that will be made.
	Attempt     int `json:"attempt"`
	MaxAttempts int `json:"max_attempts"`
	// DelayS is the wait before it, in seconds.
	DelayS float64 `json:"delay_s"`
	// Error is why the previous attempt failed.
	Error ErrorInfo `json:"error"`
}

// ContextCompacted says the conversation before the last few turns was
// replaced by a summary, so later requests send less: automatically, at the
// context threshold, or because the gateway said the request was too long.
type ContextCompacted struct {
	Type    string `json:"type"`
	Version int    `json:"version"`
	Turn    int    `json:"turn"`
	// Auto is always true in a headless run; /compact exists only in the
	// interface.
	Auto bool `json:"auto"`
	// ReplacedMessages were summarized; KeptMessages follow the summary
	// verbatim.
	ReplacedMessages int `json:"replaced_messages"`
	KeptMessages     int `json:"kept_messages"`
	// BytesBefore and BytesAfter are the conversation's size after the
	// system prompt.
	BytesBefore int    `json:"bytes_before"`
	BytesAfter  int    `json:"bytes_after"`
	Summary     string `json:"summary"`
}

// ErrorInfo says why a turn failed: Kind is a provider error kind (auth,
// rate_limited, server, ...), step_limit, budget, cancelled or agent.
type ErrorInfo struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// MessageType implements Message.
func (SessionStarted) MessageType() string { return TypeSessionStarted }

// MessageType implements Message.
func (TurnStarted) MessageType() string { return TypeTurnStarted }

// MessageType implements Message.
func (ItemStarted) MessageType() string { return TypeItemStarted }

// MessageType implements Message.
func (ItemDelta) MessageType() string { return TypeItemDelta }

// MessageType implements Message.
func (ItemCompleted) MessageType() string { return TypeItemCompleted }

// MessageType implements Message.
func (ApprovalRequested) MessageType() string { return TypeApprovalRequested }

// MessageType implements Message.
func (ApprovalResolved) MessageType() string { return TypeApprovalResolved }

// MessageType implements Message.
func (TurnCompleted) MessageType() string { return TypeTurnCompleted }

// MessageType implements Message.
func (TurnFailed) MessageType() string { return TypeTurnFailed }

// MessageType implements Message.
func (RequestCompleted) MessageType() string { return TypeRequestCompleted }

// MessageType implements Message.
func (ContextCompacted) MessageType() string { return TypeContextCompacted }

// MessageType implements Message.
func (RequestRetrying) MessageType() string { return TypeRequestRetrying }
