package provider

// DeltaKind is the closed set of things a stream can yield. Switches over it
// have no default arm, so adding a kind breaks the build where it must be handled.
type DeltaKind int

// The delta kinds.
const (
	DeltaText DeltaKind = iota + 1
	DeltaReasoning
	DeltaToolCall
	DeltaUsage
	DeltaFinish
)

// String names the kind for logs and test failures.
func (k DeltaKind) String() string {
	switch k {
	case DeltaText:
		return "text"
	case DeltaReasoning:
		return "reasoning"
	case DeltaToolCall:
		return "tool_call"
	case DeltaUsage:
		return "usage"
	case DeltaFinish:
		return "finish"
	}
	return "unknown"
}

// Delta is one piece of a streamed answer; which fields are set depends on Kind.
type Delta struct {
	Kind DeltaKind
	// Text holds the fragment for DeltaText and DeltaReasoning: one token
	// or the pieces of several events joined (see Stream).
	Text string
	// ToolCall holds the fragment for DeltaToolCall.
	ToolCall ToolCallFragment
	// Usage holds the token counts for DeltaUsage.
	Usage Usage
	// Finish holds the reason for DeltaFinish.
	Finish FinishReason
}

// ToolCallFragment is a piece of a tool call as gateways stream it: the first
// fragment usually carries the id and name, later ones pieces of the arguments.
type ToolCallFragment struct {
	// Index orders parallel calls; valid only when HasIndex is true, because
	// some gateways omit it.
	Index    int
	HasIndex bool
	ID       string
	Name     string
	// Arguments is a fragment of the raw JSON arguments.
	Arguments string
}

// Usage is the token accounting a gateway reports for one request.
type Usage struct {
	PromptTokens       int `json:"prompt_tokens"`
	CompletionTokens   int `json:"completion_tokens"`
	CachedPromptTokens int `json:"cached_tokens"`
}

// Add sums two usages, for totals over several requests.
func (u Usage) Add(o Usage) Usage {
	return Usage{
		PromptTokens:       u.PromptTokens + o.PromptTokens,
		CompletionTokens:   u.CompletionTokens + o.CompletionTokens,
		CachedPromptTokens: u.CachedPromptTokens + o.CachedPromptTokens,
	}
}

// FinishReason is why the model stopped; the set is closed.
type FinishReason int

// The finish reasons.
const (
	FinishStop FinishReason = iota + 1
	FinishToolCalls
	FinishLength
	FinishContentFilter
	FinishOther
)

// String gives the wire name of the reason.
func (f FinishReason) String() string {
	switch f {
	case FinishStop:
		return "stop"
	case FinishToolCalls:
		return "tool_calls"
	case FinishLength:
		return "length"
	case FinishContentFilter:
		return "content_filter"
	case FinishOther:
		return "other"
	}
	return "none"
}

// ParseFinishReason maps a gateway's finish_reason string onto the closed set.
func ParseFinishReason(s string) FinishReason {
	switch s {
	case "stop", "end_turn", "eos":
		return FinishStop
	case "tool_calls", "function_call", "tool_use":
		return FinishToolCalls
	case "length", "max_tokens":
		return FinishLength
	case "content_filter":
		return FinishContentFilter
	}
	return FinishOther
}
