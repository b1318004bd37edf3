package agent

import (
	"encoding/json"
	"time"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/hooks"
)

// EventKind is the closed set of semantic events the agent emits. Consumers
// (TUI, headless run, session log) switch over it without a default arm.
type EventKind int

// The event kinds.
const (
	// EventTurnStarted opens a turn; Text holds the user's message.
	EventTurnStarted EventKind = iota + 1
	// EventTextDelta carries assistant text in Text.
	EventTextDelta
	// EventReasoningDelta carries reasoning text in Text.
	EventReasoningDelta
	// EventToolCallStarted is sent as soon as a call's name is known; its
	// arguments are still streaming. Call.Args is empty.
	EventToolCallStarted
	// EventToolCallReady is sent when a call's arguments are complete and parsed.
	EventToolCallReady
	// EventApprovalRequested carries a request that must be answered.
	EventApprovalRequested
	// EventApprovalResolved reports how a request was answered.
	EventApprovalResolved
	// EventToolRunning is sent when a tool starts executing.
	EventToolRunning
	// EventToolOutput carries a live output chunk of a running tool in Text;
	// Stderr tells a command's standard error from its output.
	EventToolOutput
	// EventToolFinished carries the tool's result.
	EventToolFinished
	// EventUsage carries the usage of one model request.
	EventUsage
	// EventRetrying says the model call failed and is being retried; Retry
	// says when and why. Sent for the provider's retries before anything
	// streamed and for the agent's after a broken stream.
	EventRetrying
	// EventTurnFinished closes a turn.
	EventTurnFinished
	// EventError reports an error that does not end the turn by itself
	// (for example a tool that could not be previewed).
	EventError
	// EventRequest is sent as a model request goes out; Request measures
	// what it carries.
	EventRequest
	// EventCompactionStarted says the conversation is being summarized:
	// by /compact (outside any turn) or, with Compaction.Auto, because the
	// prompt reached the threshold (inside a turn, between two requests,
	// never while a tool call is open).
	EventCompactionStarted
	// EventCompactionFinished ends a compaction: Compaction holds the
	// summary and what it replaced, or Err says why the conversation
	// stayed as it was.
	EventCompactionFinished
	// EventMessageAppended says a message joined the conversation: Message
	// is that message, exactly as the agent now holds it. It is sent for
	// every append: the user's message (right after EventTurnStarted, its
	// notes included), each assistant answer kept (before any of its calls
	// runs), an answer cut short (Interrupted), and each tool result
	// (Call and Result set too, before EventToolFinished). Compaction
	// replaces messages rather than appending: EventCompactionFinished
	// reports it.
	EventMessageAppended
	// EventHook reports one run of a configured hook (Hook): its event,
	// command, exit and time. Hook.Warning says whether the user must be
	// told of it.
	EventHook
	// EventSubagent carries an event of the subagent a task call started:
	// Call is the parent's task call, Agent names the subagent ("" for
	// the default one) and Sub is the child's event, whose Turn counts the
	// child's turns. Every event of a child arrives this way, from its
	// EventTurnStarted (the task's prompt) to its EventTurnFinished, so a
	// consumer can show the child's conversation under the task, record it
	// apart from the parent's and meter its requests (EventUsage and
	// EventRequest inside) as its own. An EventApprovalRequested inside
	// must be answered like the parent's. Children never nest deeper:
	// they have no task tool.
	EventSubagent
)

// String names the kind for logs and test failures.
func (k EventKind) String() string {
	switch k {
	case EventTurnStarted:
		return "turn_started"
	case EventTextDelta:
		return "text_delta"
	case EventReasoningDelta:
		return "reasoning_delta"
	case EventToolCallStarted:
		return "tool_call_started"
	case EventToolCallReady:
		return "tool_call_ready"
	case EventApprovalRequested:
		return "approval_requested"
	case EventApprovalResolved:
		return "approval_resolved"
	case EventToolRunning:
		return "tool_running"
	case EventToolOutput:
		return "tool_output"
	case EventToolFinished:
		return "tool_finished"
	case EventUsage:
		return "usage"
	case EventRetrying:
		return "retrying"
	case EventTurnFinished:
		return "turn_finished"
	case EventError:
		return "error"
	case EventRequest:
		return "request"
	case EventCompactionStarted:
		return "compaction_started"
	case EventCompactionFinished:
		return "compaction_finished"
	case EventMessageAppended:
		return "message_appended"
	case EventHook:
		return "hook"
	case EventSubagent:
		return "subagent"
	}
	return "unknown"
}

// Event is one semantic event. Which fields are set depends on Kind.
type Event struct {
	Kind EventKind
	// Turn numbers the turn this event belongs to, from 1.
	Turn int
	// Text is the user message (TurnStarted), a text or reasoning fragment,
	// a tool output chunk, an error message, or the text of an answer cut
	// short without its interrupted mark (EventMessageAppended with
	// Interrupted).
	Text string
	// Images are the pictures attached to the user message (TurnStarted).
	Images []provider.Image
	// Stderr marks an EventToolOutput chunk that the command wrote to its
	// standard error.
	Stderr bool
	// Call identifies the tool call for tool and approval events.
	Call *Call
	// Approval is the request for EventApprovalRequested and
	// EventApprovalResolved.
	Approval *ApprovalRequest
	// Decision is the answer for EventApprovalResolved.
	Decision Decision
	// Result is the outcome for EventToolFinished.
	Result *ToolResult
	// Usage is one request's usage for EventUsage: as the gateway reported
	// it, or tern's estimate when Response.Estimated is set.
	Usage provider.Usage
	// Response completes EventUsage: whether Usage is estimated, and the
	// request's time to first token and total time. nil for usage that was
	// not measured live (a resumed session's totals).
	Response *ResponseInfo
	// Request measures the model request of EventRequest.
	Request *RequestInfo
	// Retry describes the retry for EventRetrying.
	Retry *Retry
	// Finish describes how the turn ended for EventTurnFinished.
	Finish *Finish
	// Err is the error for EventError and failed turns, and why a
	// compaction failed or was cancelled (EventCompactionFinished).
	Err error
	// Compaction describes the compaction for EventCompactionStarted and
	// EventCompactionFinished.
	Compaction *Compaction
	// Message is the message EventMessageAppended added to the
	// conversation; consumers must not change it.
	Message *provider.Message
	// Hook is the run of EventHook.
	Hook *hooks.Run
	// Sub is the subagent's event for EventSubagent.
	Sub *Event
	// Agent names the subagent of EventSubagent; "" is the default one.
	Agent string
	// Interrupted marks the EventMessageAppended of an answer cut short (by
	// Cancel or the turn's time budget): Message holds the partial text
	// with the interrupted mark and no calls, Text the partial text alone.
	Interrupted bool
}

// Call identifies a tool call within a turn.
type Call struct {
	// ID is the gateway's call id (or one tern assigned when the gateway gave none).
	ID string
	// Name is the tool name the model asked for.
	Name string
	// Args are the repaired, parsed JSON arguments (nil until ready).
	Args json.RawMessage
}

// ToolResult is how a tool call ended.
type ToolResult struct {
	Status   tools.Status
	Output   string
	Summary  string
	ExitCode int
	Duration time.Duration
	// Sandboxed is true when run_shell's sandbox may have refused part of
	// the command (it failed with a permission error while confined).
	Sandboxed bool
	// Diagnostics counts the language server's problems an edit left,
	// "2 errors, 1 warning"; empty when there are none.
	Diagnostics string
	// Images are the pictures the result sends the model (read_file of an
	// image, an MCP server's image content); none for a model that takes
	// no images, whose Output says so instead.
	Images []provider.Image
}

// Retry describes a failed model call that is being tried again: by the
// provider, before anything streamed (DiscardPartial false), or by the
// agent, after the answer broke off midway.
type Retry struct {
	// Attempt numbers the attempt about to be made, from 2; MaxAttempts is
	// the last one that will be made.
	Attempt, MaxAttempts int
	// Wait is the time before the next attempt; At is when it starts, so a
	// consumer counts down to a fixed moment whenever it draws.
	Wait time.Duration
	At   time.Time
	// Err is the failure being retried, a *provider.Error for gateway
	// failures; Reason is its text.
	Err    error
	Reason string
	// DiscardPartial tells consumers to drop the text, reasoning and tool
	// calls streamed by the failed attempt.
	DiscardPartial bool
}

// FinishReason is how a turn ended; the set is closed.
type FinishReason int

// The ways a turn can end.
const (
	FinishDone FinishReason = iota + 1
	FinishCancelled
	FinishFailed
	FinishStepLimit
	// FinishBudget: a limit of Options.Budget (cost, requests, duration)
	// was reached; Err wraps ErrBudget and says which.
	FinishBudget
)

// String names the reason for logs and the public protocol.
func (f FinishReason) String() string {
	switch f {
	case FinishDone:
		return "done"
	case FinishCancelled:
		return "cancelled"
	case FinishFailed:
		return "failed"
	case FinishStepLimit:
		return "step_limit"
	case FinishBudget:
		return "budget"
	}
	return "unknown"
}

// Finish describes the end of a turn.
type Finish struct {
	Reason FinishReason
	// Err is set for failed turns.
	Err error
	// Steps counts model requests in the turn.
	Steps int
	// Usage sums the turn's requests as the gateway reported them.
	Usage provider.Usage
	// Estimated sums tern's estimates for the requests the gateway reported
	// no usage for; they are not in Usage.
	Estimated provider.Usage
	// Requests counts the model requests sent, retries included.
	Requests int
	// Cost is what the turn cost at Options.Budget's prices, estimates
	// included; 0 without prices.
	Cost float64
}
