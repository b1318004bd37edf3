package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/ternhq/tern/provider"
)

// TitleMaxRunes is how long a session title may be; a longer answer is cut.
const TitleMaxRunes = 60

// titleInstruction asks for a title a person would give the session.
const titleInstruction = `Give this coding session a short title: 3 to 7 words naming the task, in the language of the request, no quotes, no trailing period. Answer with the title only.`

// titleExcerpt is how much of the prompt and of the answer the title
// request carries: enough to name the task, little enough to stay cheap.
const titleExcerpt = 2000

// Title asks model, in one small request without tools, for a short title
// of a session that opened with prompt and answer. It returns the title on
// one line, at most TitleMaxRunes runes. Cancelling ctx stops the request.
func Title(ctx context.Context, p provider.Provider, model, prompt, answer string) (string, error) {
	_, prompt = SplitPlanNote(prompt)
	req := provider.Request{
		Model: model,
		Messages: []provider.Message{
			{Role: provider.RoleSystem, Content: titleInstruction},
			{Role: provider.RoleUser, Content: "Request:\n" + excerpt(prompt) + "\n\nFirst answer:\n" + excerpt(answer)},
		},
		MaxTokens: 30,
	}
	s, err := p.Stream(ctx, req)
	if err != nil {
		return "", fmt.Errorf("title request: %w", err)
	}
	defer func() { _ = s.Close() }()
	var b strings.Builder
	for s.Next() {
		d := s.Delta()
		switch d.Kind {
		case provider.DeltaText:
			b.WriteString(d.Text)
		case provider.DeltaReasoning, provider.DeltaToolCall, provider.DeltaUsage, provider.DeltaFinish:
		}
	}
	if err := s.Err(); err != nil {
		return "", fmt.Errorf("title request: %w", err)
	}
	t := CleanTitle(b.String())
	if t == "" {
		return "", errors.New("title request: the model answered no title")
	}
	return t, nil
}

// CleanTitle puts a title on one line without quotes around it, and cuts
// it to TitleMaxRunes runes at a word break.
func CleanTitle(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	s = strings.Trim(s, "\"'`*#“”‘’ ")
	s = strings.TrimSuffix(s, ".")
	if utf8.RuneCountInString(s) <= TitleMaxRunes {
		return s
	}
	cut := string([]rune(s)[:TitleMaxRunes-1])
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ") + "…"
}

// excerpt is the start of s, at most titleExcerpt bytes on a rune boundary.
func excerpt(s string) string {
	if len(s) <= titleExcerpt {
		return s
	}
	cut := titleExcerpt
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
