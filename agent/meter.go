package agent

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/ternhq/tern/provider"
)

// BytesPerToken is the rule of thumb tern estimates tokens with: English
// text and code average about four bytes a token with today's tokenizers.
// It is a rough estimate (tokenizers differ by model and language), which
// is why every figure built on it is marked "~" where it is shown.
const BytesPerToken = 4

// tokensPerMessage is the framing a chat template adds to each message
// (role markers, separators), in tokens.
const tokensPerMessage = 4

// noOutput is what an OpenAI-compatible provider sends for an empty tool
// result or assistant message (provider/openai's emptyOutput).
const noOutput = "(no output)"

// emptySchema is what it sends for a tool without a parameter schema.
const emptySchema = `{"type":"object","properties":{}}`

// RequestInfo measures one model request as it goes out (EventRequest).
type RequestInfo struct {
	// Step numbers the request in its turn, from 1; Attempt numbers the
	// tries of that step, from 1 (a retry sends the request again).
	Step, Attempt int
	// Bytes is the size of the request's messages and tool specs encoded as
	// an OpenAI-compatible gateway receives them (JSON, with the escaping
	// encoding/json applies); the envelope (model id, stream options, token
	// limit) adds well under 200 bytes more.
	Bytes int
	// Messages counts the messages sent, the system prompt included.
	Messages int
	// ToolResults counts the tool-result messages; ToolResultBytes is their
	// encoded size, part of Bytes.
	ToolResults, ToolResultBytes int
	// ToolsBytes is the encoded size of the tool specs, part of Bytes.
	ToolsBytes int
	// PrefixBytes is how many leading bytes of the encoded messages equal
	// the previous request's: all of them when the conversation only grew,
	// which is what a gateway's prompt cache needs.
	PrefixBytes int
	// Tokens estimates the prompt tokens: the text of the messages and tool
	// specs at BytesPerToken, plus a few tokens of framing per message.
	Tokens int
}

// ToolResultShare is the share of the request's bytes that are tool
// results, from 0 to 1.
func (r RequestInfo) ToolResultShare() float64 {
	if r.Bytes == 0 {
		return 0
	}
	return float64(r.ToolResultBytes) / float64(r.Bytes)
}

// ResponseInfo completes an EventUsage: how the model request went.
type ResponseInfo struct {
	// Estimated is true when the gateway reported no usage and Usage is
	// tern's estimate (prompt from RequestInfo.Tokens, completion from the
	// answer's size; no cached tokens).
	Estimated bool
	// FirstToken is the time from sending the request to the first text,
	// reasoning or tool call; 0 when the answer had none.
	FirstToken time.Duration
	// Duration is the time from sending the request to its end.
	Duration time.Duration
}

// wireMessage mirrors a chat message as OpenAI-compatible providers encode
// it (go-openai's ChatCompletionMessage, field for field), so the meter
// counts the bytes the gateway receives, not the bytes of tern's own form.
type wireMessage struct {
	Role       provider.Role `json:"role"`
	Content    string        `json:"content,omitempty"`
	ToolCalls  []wireCall    `json:"tool_calls,omitempty"`
	ToolCallID string        `json:"tool_call_id,omitempty"`
}

type wireCall struct {
	ID       string       `json:"id,omitempty"`
	Type     string       `json:"type"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments,omitempty"`
}

type wireTool struct {
	Type     string       `json:"type"`
	Function wireToolSpec `json:"function"`
}

type wireToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

// toWire converts a message as provider/openai does: reasoning is never
// sent, and empty content becomes noOutput where a gateway needs some.
func toWire(m provider.Message) wireMessage {
	w := wireMessage{Role: m.Role, Content: m.Content, ToolCallID: m.ToolCallID}
	for _, c := range m.ToolCalls {
		args := c.Arguments
		if args == "" {
			args = "{}"
		}
		w.ToolCalls = append(w.ToolCalls, wireCall{ID: c.ID, Type: "function", Function: wireFunction{Name: c.Name, Arguments: args}})
	}
	switch m.Role {
	case provider.RoleAssistant:
		if w.Content == "" && len(w.ToolCalls) == 0 {
			w.Content = noOutput
		}
	case provider.RoleTool:
		if w.Content == "" {
			w.Content = noOutput
		}
	case provider.RoleSystem, provider.RoleUser:
	}
	return w
}

// EncodeMessages returns the messages as the "messages" array of an
// OpenAI-compatible request body, as the meter counts them. A request whose
// conversation only grew starts with the previous request's array, less its
// closing bracket: the prefix a prompt cache reuses.
func EncodeMessages(msgs []provider.Message) []byte {
	var m meter
	enc, size := m.encode(msgs)
	body := make([]byte, 0, size)
	body = append(body, '[')
	for i, b := range enc {
		if i > 0 {
			body = append(body, ',')
		}
		body = append(body, b...)
	}
	return append(body, ']')
}

// meter measures the requests of one agent. It keeps the previous
// request's encodings so unchanged messages are not encoded again and the
// shared prefix is found without building the body; only Run's goroutine
// uses it.
type meter struct {
	msgs []provider.Message
	enc  [][]byte
	// tools and toolTokens measure specs, the tool specs last sent; the
	// agent sends the same slice with every request.
	specs      []provider.ToolSpec
	tools      int
	toolTokens int
}

// sameSpecs reports whether a and b are the same slice of specs.
func sameSpecs(a, b []provider.ToolSpec) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// encode returns each message's encoding, reusing those of messages equal
// to the previous request's, and the size of the messages array.
func (m *meter) encode(msgs []provider.Message) (enc [][]byte, size int) {
	enc = make([][]byte, len(msgs))
	size = 2 + max(len(msgs)-1, 0) // brackets and commas
	for i, msg := range msgs {
		if i < len(m.msgs) && sameMessage(msg, m.msgs[i]) {
			enc[i] = m.enc[i]
		} else {
			b, err := json.Marshal(toWire(msg))
			if err != nil { // strings only: cannot fail; count nothing rather than guess
				b = nil
			}
			enc[i] = b
		}
		size += len(enc[i])
	}
	return enc, size
}

// prefix returns how many leading bytes the messages array of enc shares
// with the previous request's.
func (m *meter) prefix(enc [][]byte) int {
	switch {
	case m.enc == nil:
		return 0
	case len(enc) == 0 && len(m.enc) == 0:
		return 2 // "[]" both
	}
	n := 1 // "["
	for i := range min(len(enc), len(m.enc)) {
		a, b := m.enc[i], enc[i]
		if !bytes.Equal(a, b) {
			return n + commonPrefix(a, b)
		}
		n += len(a)
		if i == len(enc)-1 || i == len(m.enc)-1 {
			// One array ends here: "]" against "," (or the same "]").
			if len(enc) == len(m.enc) {
				n++
			}
			return n
		}
		n++ // ","
	}
	return n
}

// sameMessage reports whether two messages encode the same.
func sameMessage(a, b provider.Message) bool {
	if a.Role != b.Role || a.Content != b.Content || a.ToolCallID != b.ToolCallID || len(a.ToolCalls) != len(b.ToolCalls) {
		return false
	}
	for i := range a.ToolCalls {
		if a.ToolCalls[i] != b.ToolCalls[i] {
			return false
		}
	}
	return true
}

// measure returns what req carries and remembers it as the previous request.
func (m *meter) measure(req provider.Request) RequestInfo {
	if !sameSpecs(req.Tools, m.specs) {
		m.specs, m.tools, m.toolTokens = req.Tools, 0, 0
		if len(req.Tools) > 0 {
			ws := make([]wireTool, len(req.Tools))
			text := 0
			for i, t := range req.Tools {
				params := t.Parameters
				if len(params) == 0 || !json.Valid(params) {
					params = json.RawMessage(emptySchema)
				}
				ws[i] = wireTool{Type: "function", Function: wireToolSpec{Name: t.Name, Description: t.Description, Parameters: params}}
				text += len(t.Name) + len(t.Description) + len(params)
			}
			if b, err := json.Marshal(ws); err == nil {
				m.tools = len(b)
			}
			m.toolTokens = tokensOf(text)
		}
	}
	enc, size := m.encode(req.Messages)
	info := RequestInfo{
		Bytes:       size + m.tools,
		Messages:    len(req.Messages),
		ToolsBytes:  m.tools,
		Tokens:      m.toolTokens,
		PrefixBytes: m.prefix(enc),
	}
	for i, msg := range req.Messages {
		if msg.Role == provider.RoleTool {
			info.ToolResults++
			info.ToolResultBytes += len(enc[i])
		}
		info.Tokens += tokensPerMessage + messageTokens(msg)
	}
	m.msgs, m.enc = req.Messages, enc
	return info
}

// messageTokens estimates the tokens of a message's text.
func messageTokens(m provider.Message) int {
	n := len(m.Content) + len(m.ToolCallID)
	for _, c := range m.ToolCalls {
		n += len(c.ID) + len(c.Name) + len(c.Arguments)
	}
	return tokensOf(n)
}

// tokensOf estimates the tokens of n bytes of text, rounding up.
func tokensOf(n int) int { return (max(n, 0) + BytesPerToken - 1) / BytesPerToken }

// commonPrefix returns how many leading bytes a and b share.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	// Compare in blocks first: the prefix is usually all of a.
	const block = 4096
	i := 0
	for i+block <= n && bytes.Equal(a[i:i+block], b[i:i+block]) {
		i += block
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// estimateUsage is tern's estimate of a request's usage when the gateway
// reported none: the prompt as measured, the completion from the answer.
func estimateUsage(info RequestInfo, acc *provider.Accumulator) provider.Usage {
	n := len(acc.Text()) + len(acc.Reasoning())
	for _, c := range acc.ToolCalls() {
		n += len(c.Name) + len(c.Arguments)
	}
	return provider.Usage{PromptTokens: info.Tokens, CompletionTokens: max(tokensOf(n), 1)}
}

// sendRequest measures a request about to go out, counts it against the
// budget and announces it with EventRequest.
func (t *turn) sendRequest(req provider.Request, attempt int) RequestInfo {
	info := t.a.meter.measure(req)
	info.Step, info.Attempt = t.steps, attempt
	t.spent.request()
	t.emit(Event{Kind: EventRequest, Request: &info})
	return info
}

// settleUsage reports a request's usage with EventUsage: as the gateway
// reported it, else, for an answer that completed (estimate), tern's
// estimate. A failed attempt without reported usage reports nothing: the
// gateway may not have processed it.
func (t *turn) settleUsage(at *attempt, estimate bool) {
	resp := &ResponseInfo{Duration: time.Since(at.sent)}
	if !at.first.IsZero() {
		resp.FirstToken = at.first.Sub(at.sent)
	}
	u, ok := at.acc.Usage()
	switch {
	case ok:
		t.usage = t.usage.Add(u)
	case estimate:
		u = estimateUsage(at.info, &at.acc)
		resp.Estimated = true
		t.estimated = t.estimated.Add(u)
	default:
		return
	}
	t.spent.add(u)
	t.emit(Event{Kind: EventUsage, Usage: u, Response: resp})
}

// timedStream notes when the first text, reasoning or tool call of a
// stream arrives, for the time to first token.
type timedStream struct {
	provider.Stream
	first *time.Time
}

// Next advances the stream, noting the first output's time.
func (s *timedStream) Next() bool {
	if !s.Stream.Next() {
		return false
	}
	if s.first.IsZero() {
		switch d := s.Delta(); d.Kind {
		case provider.DeltaText, provider.DeltaReasoning:
			if d.Text != "" {
				*s.first = time.Now()
			}
		case provider.DeltaToolCall:
			*s.first = time.Now()
		case provider.DeltaUsage, provider.DeltaFinish:
		}
	}
	return true
}
