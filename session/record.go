package session

import "time"

// Type names a kind of record; it is the "type" field of a line. The set is
// closed, so switches over it list every case.
type Type string

// The record types of format version 1.
const (
	TypeUserMessage      Type = "user_message"
	TypeAssistantMessage Type = "assistant_message"
	TypeAssistantDelta   Type = "assistant_delta"
	TypeToolResult       Type = "tool_result"
	TypeApproval         Type = "approval"
	TypeGrant            Type = "grant"
	TypeUsage            Type = "usage"
	TypeModelChange      Type = "model_change"
	TypePolicyChange     Type = "policy_change"
	TypePlanMode         Type = "plan_mode"
	TypeCompaction       Type = "compaction"
	TypeRewind           Type = "rewind"
	TypeError            Type = "error"
	TypeCheckpoint       Type = "checkpoint"
	TypeSnapshot         Type = "snapshot"
	// TypeRequest measures a model request as it went out.
	TypeRequest Type = "request"
	// TypeTitle names the session (generated after the first answer, or
	// given with /rename).
	TypeTitle Type = "title"
	// TypeSubagent is one message of a subagent's conversation, under the
	// task call that started it.
	TypeSubagent Type = "subagent"
)

// Body is the payload of one record. Only this package's record types
// implement it, so a switch over Body.Type() covers every payload.
type Body interface {
	// Type is the record's kind, written as the line's "type" field.
	Type() Type
	isBody()
}

// Record is one durable line of a session after its header.
type Record struct {
	// Seq numbers the records of a session from 1 in the order they were
	// appended; it never repeats, also across resumes.
	Seq int64
	// T is when the record was appended, in UTC with millisecond precision.
	T time.Time
	// Body is the payload; its dynamic type matches Body.Type().
	Body Body
}

// UserMessage is a prompt the user sent; it opens a turn.
type UserMessage struct {
	// Turn numbers the user's turns in this session from 1.
	Turn int    `json:"turn,omitempty"`
	Text string `json:"text"`
	// Images are the pictures attached to the prompt, by content hash:
	// their bytes are in the session's blob store, once however often
	// they are sent.
	Images []ImageRef `json:"images,omitempty"`
}

// ImageRef names a picture in the session's blob store.
type ImageRef struct {
	// Hash is the lowercase hex SHA-256 of the bytes (a blob's name).
	Hash      string `json:"hash"`
	MediaType string `json:"media_type"`
	Name      string `json:"name,omitempty"`
}

// ToolCall is one call a finished assistant message made.
type ToolCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Arguments is the raw JSON text of the arguments, kept as a string
	// because a model may have sent something that is not valid JSON.
	Arguments string `json:"arguments"`
}

// AssistantMessage is a finished (or interrupted) answer of the model. It
// supersedes the assistant_delta records of the same Stream.
type AssistantMessage struct {
	// Stream is the id its deltas were written under, if it was streamed.
	Stream    string     `json:"stream,omitempty"`
	Text      string     `json:"text,omitempty"`
	Reasoning string     `json:"reasoning,omitempty"`
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// Interrupted is true when the answer was cut short: cancelled by the
	// user, or recovered from deltas after a crash.
	Interrupted bool `json:"interrupted,omitempty"`
}

// AssistantDelta is text of a message in progress added since the previous
// delta of the same Stream. Writer.Delta produces these; Load folds them into
// an interrupted AssistantMessage when no finished message follows.
type AssistantDelta struct {
	Stream    string `json:"stream"`
	Text      string `json:"text,omitempty"`
	Reasoning string `json:"reasoning,omitempty"`
	// Discard drops everything written for Stream so far (a retried request
	// whose partial answer was thrown away).
	Discard bool `json:"discard,omitempty"`
}

// Status is how a tool call ended; the values match tools.Status.String().
type Status string

// The tool statuses.
const (
	StatusOK        Status = "ok"
	StatusError     Status = "error"
	StatusDenied    Status = "denied"
	StatusCancelled Status = "cancelled"
)

// ToolResult is the outcome of one tool call.
type ToolResult struct {
	CallID     string `json:"call_id"`
	Tool       string `json:"tool"`
	Status     Status `json:"status"`
	Output     string `json:"output"`
	Summary    string `json:"summary,omitempty"`
	ExitCode   int    `json:"exit_code"`
	DurationMS int64  `json:"duration_ms"`
	// Images are the pictures the result sent the model (read_file of an
	// image, an MCP server's image content), by content hash in the
	// session's blob store, like a prompt's.
	Images []ImageRef `json:"images,omitempty"`
}

// Decision is how an approval was answered; the values match
// agent.DecisionKind.String().
type Decision string

// The decisions.
const (
	DecisionAllowOnce         Decision = "allow_once"
	DecisionAllowSession      Decision = "allow_session"
	DecisionDenied            Decision = "denied"
	DecisionDeniedWithMessage Decision = "denied_with_message"
	DecisionCancelled         Decision = "cancelled"
)

// Approval records the answer to an approval request, by a person or (Auto)
// by a policy or rule.
type Approval struct {
	RequestID string   `json:"request_id"`
	CallID    string   `json:"call_id"`
	Tool      string   `json:"tool"`
	Decision  Decision `json:"decision"`
	// Scope is the key "allow for this session" would remember.
	Scope string `json:"scope,omitempty"`
	Auto  bool   `json:"auto"`
	// Message is the note sent to the model on a denial, or the rule or
	// policy that decided automatically.
	Message string `json:"message,omitempty"`
}

// Grant records an "allow for this session" so a resumed session keeps it,
// or, with Revoked, that the user took it back (/permissions).
type Grant struct {
	Scope string `json:"scope"`
	// Label says in words what the grant covers.
	Label string `json:"label,omitempty"`
	// Revoked: the grant was taken back; a resumed session does not hold it.
	Revoked bool `json:"revoked,omitempty"`
}

// Usage is the token accounting of one model request, written after it.
type Usage struct {
	Prompt     int `json:"prompt"`
	Completion int `json:"completion"`
	Cached     int `json:"cached"`
	// Estimated is true when the gateway reported no usage and the counts
	// are tern's estimate.
	Estimated bool `json:"estimated,omitempty"`
	// FirstTokenMS and DurationMS are the request's time to first token
	// and total time, in milliseconds (0 when not measured).
	FirstTokenMS int64 `json:"first_token_ms,omitempty"`
	DurationMS   int64 `json:"duration_ms,omitempty"`
	// Task is the task call whose subagent made the request; "" for the
	// session's own requests.
	Task string `json:"task,omitempty"`
}

// Request measures one model request as it went out (agent.RequestInfo).
type Request struct {
	// Step numbers the request in its turn, Attempt its tries, from 1.
	Step    int `json:"step"`
	Attempt int `json:"attempt"`
	// Bytes is the size of the encoded messages and tool specs.
	Bytes    int `json:"bytes"`
	Messages int `json:"messages"`
	// ToolResults counts the tool results sent; ToolResultBytes is their
	// share of Bytes.
	ToolResults     int `json:"tool_results"`
	ToolResultBytes int `json:"tool_result_bytes"`
	ToolsBytes      int `json:"tools_bytes"`
	// PrefixBytes is how many leading bytes of the messages equal the
	// previous request's.
	PrefixBytes int `json:"prefix_bytes"`
	// Tokens estimates the prompt tokens.
	Tokens int `json:"tokens"`
	// Task is the task call whose subagent sent it; "" for the session's.
	Task string `json:"task,omitempty"`
}

// Subagent is one message of the conversation of the subagent a task call
// started, in the order the subagent held them: its prompt (role user),
// its answers (assistant, with their calls) and its tool results (tool).
// They never enter the session's own conversation: the task call's
// tool_result holds what the parent saw.
type Subagent struct {
	// CallID is the task call; Agent names a custom subagent.
	CallID string `json:"call_id"`
	Agent  string `json:"agent,omitempty"`
	// Role is user, assistant or tool.
	Role      string     `json:"role"`
	Text      string     `json:"text,omitempty"`
	Reasoning string     `json:"reasoning,omitempty"`
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID, Tool, Status and Summary are set for a tool result,
	// whose output is Text.
	ToolCallID  string `json:"tool_call_id,omitempty"`
	Tool        string `json:"tool,omitempty"`
	Status      Status `json:"status,omitempty"`
	Summary     string `json:"summary,omitempty"`
	Interrupted bool   `json:"interrupted,omitempty"`
}

// Type implements Body.
func (Subagent) Type() Type { return TypeSubagent }

// Title names the session in lists and pickers; the last one wins.
type Title struct {
	Title string `json:"title"`
	// Renamed is true when the user gave it (/rename), false when a model
	// generated it.
	Renamed bool `json:"renamed,omitempty"`
}

// ModelChange records a switch of model; later requests use Model. When
// Effort is present it also records the reasoning effort chosen from then
// on ("" for the model's default); absent, the effort is unchanged.
type ModelChange struct {
	Model  string  `json:"model"`
	Effort *string `json:"effort,omitempty"`
}

// PolicyChange records a switch of approval policy (by its name, e.g. "ask").
type PolicyChange struct {
	Policy string `json:"policy"`
}

// PlanMode records that plan mode was turned on (tool calls are then
// read-only, and the policy of the last policy_change comes back when it
// ends) or off.
type PlanMode struct {
	On bool `json:"on"`
}

// Compaction records that the messages of the records FromSeq..ToSeq
// (inclusive) were replaced by one user message, Summary, in the
// conversation sent to the model. The records stay in the log, so a rewind
// can go back to a turn before the compaction.
type Compaction struct {
	// Summary is the whole content of the message that replaced them
	// (agent.Compaction.Message): the pinned first request and todo list,
	// and the model's summary.
	Summary string `json:"summary"`
	FromSeq int64  `json:"from_seq"`
	ToSeq   int64  `json:"to_seq"`
	// Auto is true when the context threshold started it, not /compact.
	Auto bool `json:"auto,omitempty"`
	// Focus is what /compact asked the summary to keep in view.
	Focus string `json:"focus,omitempty"`
}

// Rewind records that the session went back to the start of Turn, restoring
// the code, the conversation, or both.
type Rewind struct {
	Turn         int  `json:"turn"`
	Code         bool `json:"code"`
	Conversation bool `json:"conversation"`
	// Undo, when set, is the seq of an earlier rewind this one undid: the
	// session went back to the state just before that record instead.
	Undo int64 `json:"undo,omitempty"`
}

// ErrorRecord is an error worth keeping in the transcript, such as a failed
// model request.
type ErrorRecord struct {
	// Kind classifies the error, e.g. "auth", "rate_limit", "network".
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// Absent is the Checkpoint hash of a file that did not exist.
const Absent = "absent"

// Checkpoint records a file's content before a tool changed it in Turn:
// Hash names a blob in the session's Store, or is Absent.
type Checkpoint struct {
	Turn int    `json:"turn"`
	Path string `json:"path"`
	Hash string `json:"hash"`
	// After names the content the change left (a blob, or Absent), so a
	// later rewind can tell whether the file was changed outside tern
	// since; empty when unknown.
	After string `json:"after,omitempty"`
	// Rewind is the seq of the rewind record whose restore made this change
	// (Turn is then 0), so that rewind can itself be undone.
	Rewind int64 `json:"rewind,omitempty"`
}

// Snapshot records that a shell command ran in Turn between two snapshots
// of the working tree in the workspace's shadow git repository (see
// Shadow), so a rewind can also restore what the command changed. Before
// and After are snapshot ids (git tree ids there); it is written only when
// they differ.
type Snapshot struct {
	Turn    int    `json:"turn"`
	Command string `json:"command,omitempty"`
	Before  string `json:"before"`
	After   string `json:"after"`
}

// Type implements Body.
func (UserMessage) Type() Type { return TypeUserMessage }

// Type implements Body.
func (AssistantMessage) Type() Type { return TypeAssistantMessage }

// Type implements Body.
func (AssistantDelta) Type() Type { return TypeAssistantDelta }

// Type implements Body.
func (ToolResult) Type() Type { return TypeToolResult }

// Type implements Body.
func (Approval) Type() Type { return TypeApproval }

// Type implements Body.
func (Grant) Type() Type { return TypeGrant }

// Type implements Body.
func (Usage) Type() Type { return TypeUsage }

// Type implements Body.
func (ModelChange) Type() Type { return TypeModelChange }

// Type implements Body.
func (PolicyChange) Type() Type { return TypePolicyChange }

// Type implements Body.
func (PlanMode) Type() Type { return TypePlanMode }

// Type implements Body.
func (Compaction) Type() Type { return TypeCompaction }

// Type implements Body.
func (Rewind) Type() Type { return TypeRewind }

// Type implements Body.
func (ErrorRecord) Type() Type { return TypeError }

// Type implements Body.
func (Checkpoint) Type() Type { return TypeCheckpoint }

// Type implements Body.
func (Snapshot) Type() Type { return TypeSnapshot }

// Type implements Body.
func (Request) Type() Type { return TypeRequest }

// Type implements Body.
func (Title) Type() Type { return TypeTitle }

func (UserMessage) isBody()      {}
func (AssistantMessage) isBody() {}
func (AssistantDelta) isBody()   {}
func (ToolResult) isBody()       {}
func (Approval) isBody()         {}
func (Grant) isBody()            {}
func (Usage) isBody()            {}
func (ModelChange) isBody()      {}
func (PolicyChange) isBody()     {}
func (PlanMode) isBody()         {}
func (Compaction) isBody()       {}
func (Rewind) isBody()           {}
func (ErrorRecord) isBody()      {}
func (Checkpoint) isBody()       {}
func (Snapshot) isBody()         {}
func (Request) isBody()          {}
func (Title) isBody()            {}
func (Subagent) isBody()         {}
