package headless

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// Session describes the run for the session.started line.
type Session struct {
	Tern      string
	Model     string
	Workspace string
	Approval  string
	Offline   bool
	// ID is the id of the session log the run is recorded in.
	ID string
	// Priced says the model's prices are known, so turns report their cost;
	// ListPrices says they are the model database's list prices, not
	// configured ones.
	Priced     bool
	ListPrices bool
}

// Projector maps the agent's internal events onto public protocol messages.
// It regroups deltas into items and holds them open until the agent says
// whether it keeps them: it relies on the agent appending every answer it
// keeps (EventMessageAppended, an assistant message) before any of its
// calls is approved or runs. That event completes the open text and
// reasoning items and starts the tool_call items of the calls it holds; an
// answer cut short is appended interrupted, without its calls, which the
// agent abandoned (EventToolFinished for calls never kept): they start and
// complete with it. Nothing else commits. A retry that discards partial
// output, and a turn that ends without keeping the answer in flight (failed
// or stopped by its budget midway, cancelled before anything streamed),
// drop the open items, which then never complete; the one exception is the
// reasoning of a final answer that held nothing else, which the agent does
// not append (an empty assistant message is refused by some gateways) but
// which did succeed: it completes when the turn is done. Every tool_call
// item that started completes, at the latest when the turn ends.
type Projector struct {
	session Session
	turn    int
	nextID  int

	reasoning *textItem
	message   *textItem
	// pending are the calls of the current model request, not yet started
	// publicly, in order of appearance.
	pending []*callItem
	// abandoned are the pending calls the agent finished without keeping
	// them, in the order it finished them; they are reported only if the
	// answer is kept interrupted.
	abandoned []*callItem
	// calls holds every call of the turn not yet completed, by call id.
	calls map[string]*callItem

	usage    provider.Usage
	requests int
	// The meter's figures: the request in flight and the turn's totals.
	request   *agent.RequestInfo
	sentN     int // requests sent in the turn, retries included
	sent      int
	estimated provider.Usage
	estimates int
	// children project the events of the turn's subagents, by task call id.
	children map[string]*Projector
}

type textItem struct {
	id   string
	text []byte
}

type callItem struct {
	id      string // public item id, set when the call is started publicly
	seq     int    // the number in id, for ordering
	callID  string // the agent's call id, the key in Projector.calls
	tool    string
	args    json.RawMessage
	started bool
	// result is what the agent gave a call it abandoned.
	result *agent.ToolResult
}

// NewProjector returns a projector for one session.
func NewProjector(s Session) *Projector {
	return &Projector{session: s, calls: map[string]*callItem{}}
}

// Start returns the session.started line.
func (p *Projector) Start() Message {
	return SessionStarted{
		Type: TypeSessionStarted, Version: Version, Tern: p.session.Tern, Model: p.session.Model,
		Workspace: p.session.Workspace, Approval: p.session.Approval, Offline: p.session.Offline,
		SessionID: p.session.ID,
	}
}

// Project maps one internal event to zero or more public messages.
func (p *Projector) Project(ev agent.Event) []Message {
	switch ev.Kind {
	case agent.EventTurnStarted:
		p.turn = ev.Turn
		p.reasoning, p.message, p.pending, p.abandoned = nil, nil, nil, nil
		p.calls = map[string]*callItem{}
		p.children = nil
		p.usage, p.requests = provider.Usage{}, 0
		p.request, p.sentN, p.sent, p.estimated, p.estimates = nil, 0, 0, provider.Usage{}, 0
		return []Message{TurnStarted{Type: TypeTurnStarted, Version: Version, Turn: p.turn, Prompt: ev.Text}}
	case agent.EventTextDelta:
		return p.delta(&p.message, ItemAgentMessage, ev.Text)
	case agent.EventReasoningDelta:
		return p.delta(&p.reasoning, ItemReasoning, ev.Text)
	case agent.EventToolCallStarted, agent.EventToolCallReady:
		p.call(ev.Call)
		return nil
	case agent.EventApprovalRequested:
		r := ev.Approval
		if r == nil {
			return nil
		}
		call := ev.Call
		if call == nil {
			call = &r.Call
		}
		c := p.call(call)
		args, _ := argsObject(c.args)
		return []Message{ApprovalRequested{
			Type: TypeApprovalRequested, Version: Version, Turn: p.turn,
			ApprovalID: r.ID, ItemID: c.id, Tool: c.tool, Arguments: args,
			Preview: Preview{
				Title: r.Preview.Title, Path: r.Preview.Path, Diff: r.Preview.Diff,
				Command: r.Preview.Command, Workdir: r.Preview.Workdir,
			},
			Scope: r.Scope.Label, Always: r.Always, Reason: r.Reason, Keep: r.Keep,
		}}
	case agent.EventApprovalResolved:
		call := ev.Call
		id := ""
		if ev.Approval != nil {
			id = ev.Approval.ID
			if call == nil {
				call = &ev.Approval.Call
			}
		}
		c := p.call(call)
		return []Message{ApprovalResolved{
			Type: TypeApprovalResolved, Version: Version, Turn: p.turn, ApprovalID: id,
			ItemID: c.id, Decision: decisionName(ev.Decision.Kind), Reason: ev.Decision.Message, Auto: ev.Decision.Auto,
		}}
	case agent.EventToolRunning:
		p.call(ev.Call)
		return nil
	case agent.EventToolOutput:
		// Live output is for people watching; the complete output arrives
		// with item.completed.
		return nil
	case agent.EventToolFinished:
		c := p.call(ev.Call)
		res := agent.ToolResult{Status: tools.StatusError}
		if ev.Result != nil {
			res = *ev.Result
		}
		if !c.started {
			// A call of an answer the agent did not keep whole: it was
			// abandoned before it was complete.
			c.result = &res
			p.abandoned = append(p.abandoned, c)
			return nil
		}
		return []Message{p.completeCall(c, res)}
	case agent.EventUsage:
		return p.usageLine(ev)
	case agent.EventRequest:
		if ev.Request != nil {
			p.request = ev.Request
			p.sentN++
			p.sent += ev.Request.Bytes
		}
		return nil
	case agent.EventRetrying:
		r := ev.Retry
		if r == nil {
			return nil
		}
		if r.DiscardPartial {
			p.discard()
		}
		return []Message{p.retrying(r)}
	case agent.EventTurnFinished:
		return p.finish(ev.Finish)
	case agent.EventError:
		// Errors that do not end the turn are progress information only.
		return nil
	case agent.EventCompactionStarted:
		// Reported once it is done; a failed one changes nothing.
		return nil
	case agent.EventHook:
		// Warnings go to stderr (run.go); the JSON stream has no hook item.
		return nil
	case agent.EventMessageAppended:
		if ev.Message == nil || ev.Message.Role != provider.RoleAssistant {
			return nil // the prompt and the results have lines of their own
		}
		return p.keep(ev.Message)
	case agent.EventSubagent:
		return p.subagent(ev)
	case agent.EventCompactionFinished:
		c := ev.Compaction
		if ev.Err != nil || c == nil || c.Cancelled {
			return nil // the conversation is unchanged; progress lines say why
		}
		return []Message{ContextCompacted{
			Type: TypeContextCompacted, Version: Version, Turn: p.turn, Auto: c.Auto,
			ReplacedMessages: c.Replaced, KeptMessages: c.Kept,
			BytesBefore: c.BytesBefore, BytesAfter: c.BytesAfter, Summary: c.Summary,
		}}
	}
	return nil
}

// delta appends streamed text to the open item of that type, starting the
// item first when none is open.
func (p *Projector) delta(open **textItem, typ, text string) []Message {
	if text == "" {
		return nil
	}
	var out []Message
	if *open == nil {
		*open = &textItem{id: p.newID()}
		out = append(out, ItemStarted{Type: TypeItemStarted, Version: Version, Turn: p.turn, Item: Item{ID: (*open).id, Type: typ, Text: new(string)}})
	}
	(*open).text = append((*open).text, text...)
	return append(out, ItemDelta{Type: TypeItemDelta, Version: Version, Turn: p.turn, ItemID: (*open).id, Text: text})
}

// call returns the item for a tool call, recording a new one as pending.
// Later events fill in what earlier ones did not know (name, arguments).
func (p *Projector) call(c *agent.Call) *callItem {
	if c == nil {
		c = &agent.Call{}
	}
	it, ok := p.calls[c.ID]
	if !ok {
		it = &callItem{callID: c.ID}
		p.calls[c.ID] = it
		p.pending = append(p.pending, it)
	}
	if c.Name != "" {
		it.tool = c.Name
	}
	if len(c.Args) > 0 {
		it.args = c.Args
	}
	return it
}

// keep commits the answer the agent kept, m: its open reasoning and text
// items complete, then the calls it holds start, in order of appearance,
// with those it abandoned (an answer cut short keeps its text but none of
// its calls), which then complete with the results the agent gave them.
// Calls recorded for the answer but neither kept nor abandoned are dropped.
func (p *Projector) keep(m *provider.Message) []Message {
	out := p.completeText(&p.reasoning, ItemReasoning)
	out = append(out, p.completeText(&p.message, ItemAgentMessage)...)
	kept := make(map[string]bool, len(m.ToolCalls))
	for _, tc := range m.ToolCalls {
		kept[tc.ID] = true
	}
	for _, c := range p.pending {
		if !kept[c.callID] && c.result == nil {
			delete(p.calls, c.callID)
			continue
		}
		c.id, c.started = p.newID(), true
		c.seq = p.nextID
		args, raw := argsObject(c.args)
		out = append(out, ItemStarted{Type: TypeItemStarted, Version: Version, Turn: p.turn, Item: Item{
			ID: c.id, Type: ItemToolCall, Tool: c.tool, Arguments: args, RawArguments: raw,
		}})
	}
	for _, c := range p.abandoned {
		out = append(out, p.completeCall(c, *c.result))
	}
	p.pending, p.abandoned = nil, nil
	return out
}

// completeText completes the open item of that type, if any.
func (p *Projector) completeText(open **textItem, typ string) []Message {
	if *open == nil {
		return nil
	}
	text := string((*open).text)
	id := (*open).id
	*open = nil
	return []Message{ItemCompleted{Type: TypeItemCompleted, Version: Version, Turn: p.turn, Item: Item{ID: id, Type: typ, Text: &text}}}
}

// discard drops what the agent did not keep: open text and reasoning
// items, and the calls not started publicly.
func (p *Projector) discard() {
	p.reasoning, p.message = nil, nil
	for _, c := range p.pending {
		delete(p.calls, c.callID)
	}
	p.pending, p.abandoned = nil, nil
}

func (p *Projector) completeCall(c *callItem, res agent.ToolResult) Message {
	delete(p.calls, c.callID)
	args, raw := argsObject(c.args)
	out := res.Output
	it := Item{ID: c.id, Type: ItemToolCall, Tool: c.tool, Arguments: args, RawArguments: raw, Status: statusName(res.Status), Output: &out}
	if c.tool == tools.RunShellName && (res.Status == tools.StatusOK || res.Status == tools.StatusError) {
		code := res.ExitCode
		it.ExitCode = &code
	}
	return ItemCompleted{Type: TypeItemCompleted, Version: Version, Turn: p.turn, Item: it}
}

// finish closes the turn. What the agent kept was committed when it was
// appended; what is still open was not kept and is dropped, but for the
// reasoning of a final answer of reasoning alone, which completes when the
// turn is done.
func (p *Projector) finish(f *agent.Finish) []Message {
	if f == nil {
		f = &agent.Finish{Reason: agent.FinishFailed, Err: fmt.Errorf("the agent ended the turn without saying how")}
	}
	var out []Message
	if f.Reason == agent.FinishDone {
		out = p.completeText(&p.reasoning, ItemReasoning)
	}
	p.discard()
	// Calls that started but never finished were cut short by the end of the
	// turn; the agent normally reports them, this keeps every started item
	// completed if it did not.
	var open []*callItem
	for _, c := range p.calls {
		if c.started {
			open = append(open, c)
		}
	}
	slices.SortFunc(open, func(a, b *callItem) int { return a.seq - b.seq })
	for _, c := range open {
		out = append(out, p.completeCall(c, agent.ToolResult{Status: tools.StatusCancelled, Output: "the turn ended before this call finished"}))
	}
	p.calls = map[string]*callItem{}

	requests := f.Steps
	if requests == 0 {
		requests = p.requests
	}
	u := Usage{
		PromptTokens: p.usage.PromptTokens, CompletionTokens: p.usage.CompletionTokens,
		CachedTokens: p.usage.CachedPromptTokens, Requests: requests, BytesSent: p.sent,
	}
	if p.estimates > 0 {
		u.Estimated = &EstimatedUsage{Requests: p.estimates, PromptTokens: p.estimated.PromptTokens, CompletionTokens: p.estimated.CompletionTokens}
	}
	if p.session.Priced {
		cost := f.Cost
		u.Cost = &cost
		u.ListPrices = p.session.ListPrices
	}
	switch f.Reason {
	case agent.FinishDone:
		return append(out, TurnCompleted{Type: TypeTurnCompleted, Version: Version, Turn: p.turn, Usage: u})
	case agent.FinishCancelled, agent.FinishFailed, agent.FinishStepLimit, agent.FinishBudget:
	}
	return append(out, TurnFailed{Type: TypeTurnFailed, Version: Version, Turn: p.turn, Error: errorInfo(f), Usage: u})
}

// usageLine sums a request's usage into the turn's, apart when it is an
// estimate, and measures the request in a request.completed line.
func (p *Projector) usageLine(ev agent.Event) []Message {
	estimated := ev.Response != nil && ev.Response.Estimated
	if estimated {
		p.estimated = p.estimated.Add(ev.Usage)
		p.estimates++
	} else {
		p.usage = p.usage.Add(ev.Usage)
	}
	p.requests++
	rq := p.request
	p.request = nil
	if rq == nil || ev.Response == nil {
		return nil // usage not measured live
	}
	m := RequestCompleted{
		Type: TypeRequestCompleted, Version: Version, Turn: p.turn, Request: p.sentN,
		Bytes: rq.Bytes, Messages: rq.Messages, ToolResultBytes: rq.ToolResultBytes,
		PromptTokens: ev.Usage.PromptTokens, CompletionTokens: ev.Usage.CompletionTokens,
		CachedTokens: ev.Usage.CachedPromptTokens, Estimated: estimated,
		DurationMS: ev.Response.Duration.Milliseconds(),
	}
	if ft := ev.Response.FirstToken; ft > 0 {
		ms := ft.Milliseconds()
		m.FirstTokenMS = &ms
	}
	return []Message{m}
}

func (p *Projector) newID() string {
	p.nextID++
	return fmt.Sprintf("item_%d", p.nextID)
}

// argsObject returns arguments as a JSON object; anything else is returned
// as {} plus the raw text, so "arguments" is always an object.
func argsObject(raw json.RawMessage) (json.RawMessage, string) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return json.RawMessage("{}"), ""
	}
	if t[0] == '{' && json.Valid(t) {
		return json.RawMessage(t), ""
	}
	return json.RawMessage("{}"), string(raw)
}

func statusName(s tools.Status) string {
	switch s {
	case tools.StatusOK, tools.StatusError, tools.StatusDenied, tools.StatusCancelled:
		return s.String()
	}
	return tools.StatusError.String()
}

// decisionName folds the internal decisions onto the public names: a denial
// with a message is a denial whose reason is the message.
func decisionName(d agent.DecisionKind) string {
	switch d {
	case agent.AllowOnce:
		return "allow_once"
	case agent.AllowSession:
		return "allow_session"
	case agent.Deny, agent.DenyWithMessage:
		return "denied"
	case agent.Cancelled:
		return "cancelled"
	}
	return "denied"
}

// retrying is the request.retrying line of a retry.
func (p *Projector) retrying(r *agent.Retry) RequestRetrying {
	kind := "agent"
	if k := provider.KindOf(r.Err); k != 0 {
		kind = k.String()
	}
	msg := r.Reason
	if r.Err != nil {
		msg = r.Err.Error()
	}
	return RequestRetrying{
		Type: TypeRequestRetrying, Version: Version, Turn: p.turn,
		Attempt: r.Attempt, MaxAttempts: r.MaxAttempts,
		// Milliseconds are precision enough, and keep the line short.
		DelayS: math.Round(r.Wait.Seconds()*1000) / 1000,
		Error:  ErrorInfo{Kind: kind, Message: msg},
	}
}

func errorInfo(f *agent.Finish) ErrorInfo {
	switch f.Reason {
	case agent.FinishDone:
		return ErrorInfo{}
	case agent.FinishCancelled:
		return ErrorInfo{Kind: "cancelled", Message: "the turn was interrupted"}
	case agent.FinishStepLimit:
		msg := fmt.Sprintf("the turn stopped at the step limit (%d model requests); raise it with --max-steps or max_steps in config.toml", f.Steps)
		if f.Err != nil {
			msg = f.Err.Error()
		}
		return ErrorInfo{Kind: "step_limit", Message: msg}
	case agent.FinishBudget:
		msg := "the turn stopped at its budget"
		if f.Err != nil {
			msg = f.Err.Error()
		}
		return ErrorInfo{Kind: "budget", Message: msg}
	case agent.FinishFailed:
	}
	kind := "agent"
	if k := provider.KindOf(f.Err); k != 0 {
		kind = k.String()
	}
	msg := "the turn failed"
	if f.Err != nil {
		msg = f.Err.Error()
	}
	return ErrorInfo{Kind: kind, Message: msg}
}
