package mock

import "github.com/ternhq/tern/provider"

// Token estimates follow the usual rule of thumb of four bytes a token, plus
// a few tokens of framing per message, so the context meter moves plausibly.
const (
	bytesPerToken    = 4
	tokensPerMessage = 4
	// Gateways cache prompt prefixes in blocks (OpenAI: 128 tokens, from
	// 1024 up); mimic that so cached counts look like a real gateway's.
	cacheBlock   = 128
	cacheMinimum = 1024
)

// usageDelta estimates the request's usage. The cached part is the previous
// request's prompt, i.e. everything before the last assistant message, which
// is what a gateway's prompt cache would hold when the prefix is unchanged.
func usageDelta(req provider.Request, a answer) provider.Delta {
	tools := 0
	for _, t := range req.Tools {
		tools += len(t.Name) + len(t.Description) + len(t.Parameters)
	}
	lastAssistant := -1
	for i, m := range req.Messages {
		if m.Role == provider.RoleAssistant {
			lastAssistant = i
		}
	}
	prompt := tokens(tools)
	cachedPrefix := 0
	for i, m := range req.Messages {
		if i == lastAssistant {
			cachedPrefix = prompt
		}
		prompt += messageTokens(m)
	}
	cached := 0
	if cachedPrefix >= cacheMinimum {
		cached = cachedPrefix / cacheBlock * cacheBlock
	}
	completion := tokens(len(a.reasoning)) + tokens(len(a.text))
	for _, c := range a.calls {
		completion += tokens(len(c.name)+len(c.args)) + tokensPerMessage
	}
	return provider.Delta{Kind: provider.DeltaUsage, Usage: provider.Usage{
		PromptTokens:       prompt,
		CompletionTokens:   max(completion, 1),
		CachedPromptTokens: cached,
	}}
}

func messageTokens(m provider.Message) int {
	n := len(m.Content) + len(m.ToolCallID)
	for _, c := range m.ToolCalls {
		n += len(c.ID) + len(c.Name) + len(c.Arguments)
	}
	return tokensPerMessage + tokens(n)
}

func tokens(bytes int) int {
	return (bytes + bytesPerToken - 1) / bytesPerToken
}
