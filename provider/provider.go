// Package provider defines tern's own streaming interface to language models:
// messages, tool specs, requests and a closed set of stream deltas. Vendor
// types never leave the implementation packages (provider/openai, provider/mock).
package provider

import (
	"context"
	"encoding/json"
)

// Role says who wrote a message in the conversation.
type Role string

// The roles a message can have; the set is closed.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// ToolCall is one complete call the model asked for, with raw JSON arguments.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Message is one entry of the conversation sent to the model.
type Message struct {
	Role    Role   `json:"role"`
	Content string `json:"content,omitempty"`
	// Reasoning is the model's reasoning text for an assistant message; it is
	// kept for the transcript and never sent back to the gateway.
	Reasoning string `json:"reasoning,omitempty"`
	// ToolCalls are the calls an assistant message made.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID names the call a tool message answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
	// Images are attached to a user message, after its text, or carried by
	// a tool result (a provider whose format takes none in a tool message
	// sends them right after the results).
	Images []Image `json:"images,omitempty"`
}

// Image is a picture sent to a model that accepts images: encoded bytes
// of a PNG, JPEG, GIF or WebP file, already within the size the gateways
// take. Implementations send it as the vendor's image part (OpenAI's
// image_url with a data: URL).
type Image struct {
	// MediaType is image/png, image/jpeg, image/gif or image/webp.
	MediaType string `json:"media_type"`
	// Data are the file's bytes; never written to a log (Hash names them).
	Data []byte `json:"-"`
	// Hash is the lowercase hex SHA-256 of Data, which the session log
	// records in place of the bytes.
	Hash string `json:"hash,omitempty"`
	// Name, Width and Height describe it to the user.
	Name          string `json:"name,omitempty"`
	Width, Height int    `json:"-"`
}

// ToolSpec describes a tool to the model: its name, what it does and a JSON
// Schema for its parameters.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Request is one streaming completion request.
type Request struct {
	Model    string
	Messages []Message
	Tools    []ToolSpec
	// Temperature is sent only when set.
	Temperature *float32
	// MaxTokens limits the completion when positive.
	MaxTokens int
	// ReasoningEffort asks a model that reasons to think this hard (low,
	// medium, high, ...); empty sends none, so the model uses its default.
	// The caller sets it only for models that reason.
	ReasoningEffort string
}

// Provider streams completions. There is deliberately no non-streaming method:
// every consumer handles deltas, so offline and online behave the same.
type Provider interface {
	// Stream starts a completion. The returned Stream must be closed. Cancelling
	// ctx stops the stream at once.
	Stream(ctx context.Context, req Request) (Stream, error)
}

// Stream is a Scanner-style sequence of deltas: call Next until it returns
// false, read each Delta, then check Err. A stream that ends without a finish
// delta reports an error from Err, never a quiet end.
//
// A delta is not a token: a provider may join the text (or reasoning)
// pieces of consecutive events that arrived together into one delta
// (provider/openai joins those already read when Next is called, never
// waiting for more), so consumers must not count deltas or rely on where
// one ends. Joining never reorders: text and reasoning stay in the order
// they came, and a tool call, finish, usage or error after a piece still
// comes after it.
type Stream interface {
	Next() bool
	Delta() Delta
	Err() error
	Close() error
}
