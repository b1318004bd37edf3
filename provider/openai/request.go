package openai

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/ternhq/tern/provider"
)

// emptyOutput stands in for an empty tool result or assistant turn:
// go-openai drops an empty content field (omitempty) and gateways reject a
// tool or assistant message without content.
const emptyOutput = "(no output)"

// emptySchema is sent for a tool without a parameter schema; a null schema
// is rejected by most gateways.
var emptySchema = json.RawMessage(`{"type":"object","properties":{}}`)

// chatRequest translates a request into go-openai's form for model.
func chatRequest(req provider.Request, model string) (goopenai.ChatCompletionRequest, error) {
	out := goopenai.ChatCompletionRequest{
		Model:         model,
		Messages:      make([]goopenai.ChatCompletionMessage, 0, len(req.Messages)),
		StreamOptions: &goopenai.StreamOptions{IncludeUsage: true},
		MaxTokens:     req.MaxTokens, //nolint:staticcheck // deprecated by OpenAI, understood by every compatible server; see fitValidator
		// OpenRouter's reasoning object is put in by the doer (effort.go).
		ReasoningEffort: req.ReasoningEffort,
	}
	if req.Temperature != nil {
		// go-openai omits a zero temperature (omitempty): 0 means the
		// gateway's default.
		out.Temperature = *req.Temperature
	}
	var held []provider.Message // tool results with pictures, since the last non-tool message
	for i, m := range req.Messages {
		if m.Role != provider.RoleTool && len(held) > 0 {
			out.Messages = append(out.Messages, toolImages(held))
			held = nil
		}
		msg, err := chatMessage(m)
		if err != nil {
			return out, fmt.Errorf("message %d: %w", i, err)
		}
		out.Messages = append(out.Messages, msg)
		if m.Role == provider.RoleTool && len(m.Images) > 0 {
			held = append(held, m)
		}
	}
	if len(held) > 0 {
		out.Messages = append(out.Messages, toolImages(held))
	}
	for _, t := range req.Tools {
		params := t.Parameters
		if len(params) == 0 {
			params = emptySchema
		} else if !json.Valid(params) {
			return out, fmt.Errorf("tool %q: its parameter schema is not valid JSON", t.Name)
		}
		out.Tools = append(out.Tools, goopenai.Tool{
			Type: goopenai.ToolTypeFunction,
			Function: &goopenai.FunctionDefinition{
				Name:        t.Name,
				Description: t.Description,
				Parameters:  params,
			},
		})
	}
	if err := fitValidator(&out); err != nil {
		return out, err
	}
	return out, nil
}

// chatMessage translates one message. Reasoning is never sent back: gateways
// reject or ignore it, and it costs input tokens.
func chatMessage(m provider.Message) (goopenai.ChatCompletionMessage, error) {
	switch m.Role {
	case provider.RoleSystem:
		return goopenai.ChatCompletionMessage{Role: goopenai.ChatMessageRoleSystem, Content: m.Content}, nil
	case provider.RoleUser:
		if len(m.Images) > 0 {
			return userWithImages(m), nil
		}
		return goopenai.ChatCompletionMessage{Role: goopenai.ChatMessageRoleUser, Content: m.Content}, nil
	case provider.RoleAssistant:
		out := goopenai.ChatCompletionMessage{Role: goopenai.ChatMessageRoleAssistant, Content: m.Content}
		for _, c := range m.ToolCalls {
			args := c.Arguments
			if args == "" {
				// An empty string would be dropped (omitempty) and the
				// gateway would reject the call as missing its arguments.
				args = "{}"
			}
			out.ToolCalls = append(out.ToolCalls, goopenai.ToolCall{
				ID:       c.ID,
				Type:     goopenai.ToolTypeFunction,
				Function: goopenai.FunctionCall{Name: c.Name, Arguments: args},
			})
		}
		if out.Content == "" && len(out.ToolCalls) == 0 {
			out.Content = emptyOutput
		}
		return out, nil
	case provider.RoleTool:
		content := m.Content
		if content == "" {
			content = emptyOutput
		}
		return goopenai.ChatCompletionMessage{Role: goopenai.ChatMessageRoleTool, ToolCallID: m.ToolCallID, Content: content}, nil
	}
	return goopenai.ChatCompletionMessage{}, fmt.Errorf("unknown role %q", m.Role)
}

// userWithImages sends a user message as content parts: its text, then
// each image as an image_url part holding a data: URL (base64), the form
// every OpenAI-compatible gateway that takes images accepts.
func userWithImages(m provider.Message) goopenai.ChatCompletionMessage {
	parts := make([]goopenai.ChatMessagePart, 0, len(m.Images)+1)
	if m.Content != "" {
		parts = append(parts, textPart(m.Content))
	}
	for _, img := range m.Images {
		parts = append(parts, imagePart(img))
	}
	return goopenai.ChatCompletionMessage{Role: goopenai.ChatMessageRoleUser, MultiContent: parts}
}

// toolImages carries the pictures of tool results. A tool message of the
// chat format holds text only, and nothing may come between an answer's
// tool calls and their results, so the pictures follow the results in a
// user message of their own, each named by the call it answers.
func toolImages(results []provider.Message) goopenai.ChatCompletionMessage {
	parts := []goopenai.ChatMessagePart{textPart("The pictures the tool results above returned:")}
	for _, m := range results {
		for _, img := range m.Images {
			parts = append(parts, textPart(fmt.Sprintf("From call %s: %s", m.ToolCallID, shownName(img.Name))), imagePart(img))
		}
	}
	return goopenai.ChatCompletionMessage{Role: goopenai.ChatMessageRoleUser, MultiContent: parts}
}

// shownName is a picture's name as the user message carrying it shows it:
// as it is when plain, else quoted. The name is a repository's file name
// (or a session log's), so one with line breaks, control or invisible
// characters, or a quote of its own could otherwise start lines of the
// message that read as the user's.
func shownName(name string) string {
	if strings.HasPrefix(name, `"`) || !utf8.ValidString(name) || strings.ContainsFunc(name, func(r rune) bool { return !unicode.IsPrint(r) }) {
		return strconv.Quote(name)
	}
	return name
}

func textPart(s string) goopenai.ChatMessagePart {
	return goopenai.ChatMessagePart{Type: goopenai.ChatMessagePartTypeText, Text: s}
}

// imagePart is a picture as an image_url part holding a data: URL.
func imagePart(img provider.Image) goopenai.ChatMessagePart {
	return goopenai.ChatMessagePart{
		Type: goopenai.ChatMessagePartTypeImageURL,
		ImageURL: &goopenai.ChatMessageImageURL{
			URL:    "data:" + img.MediaType + ";base64," + base64.StdEncoding.EncodeToString(img.Data),
			Detail: goopenai.ImageURLDetailAuto,
		},
	}
}

// fitValidator adapts the request to go-openai's client-side validation,
// which refuses max_tokens and a temperature other than 1 for model ids it
// takes for reasoning models (o1*, o3*, o4*, gpt-5*). tern never parses the
// model id itself: it asks the validator and moves the limit to
// max_completion_tokens or drops the temperature (which those models reject
// anyway). Everything else keeps max_tokens, the field every
// OpenAI-compatible server understands.
func fitValidator(r *goopenai.ChatCompletionRequest) error {
	v := goopenai.NewReasoningValidator()
	for {
		err := v.Validate(*r)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, goopenai.ErrReasoningModelMaxTokensDeprecated) && r.MaxTokens > 0: //nolint:staticcheck // moving off it
			r.MaxCompletionTokens, r.MaxTokens = r.MaxTokens, 0 //nolint:staticcheck // moving off it
		case (errors.Is(err, goopenai.ErrReasoningModelLimitationsOther) ||
			errors.Is(err, goopenai.ErrReasoningSamplingUnsupported)) && r.Temperature != 0:
			r.Temperature = 0
		default:
			return fmt.Errorf("go-openai refuses this request for model %q: %w", r.Model, err)
		}
	}
}
