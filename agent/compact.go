package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ternhq/tern/provider"
)

// DefaultCompactThreshold is the share of the context window, in percent,
// that the next request's prompt must reach before the conversation is
// compacted automatically, when Options.CompactThreshold is 0.
const DefaultCompactThreshold = 85

// compactKeepTurns is how many of the last user turns a compaction keeps
// verbatim at most; compactKeepPercent caps what they may weigh, as a share
// of the conversation's bytes, so one huge turn is summarized too.
const (
	compactKeepTurns   = 2
	compactKeepPercent = 30
)

// compactMinSaving is how many bytes the replaced messages must weigh
// beyond the pinned content for a compaction to be worth a request.
const compactMinSaving = 1024

// ErrNothingToCompact is returned (in EventCompactionFinished's Err) when
// the conversation is too short for a summary to replace anything.
var ErrNothingToCompact = errors.New("nothing to compact yet: the messages before the last few are too short to be worth a summary")

// ErrNotSmaller is returned (in EventCompactionFinished's Err) when the
// summary with the pinned content would take more room than the messages
// it replaces; the conversation is then left as it was.
var ErrNotSmaller = errors.New("the summary would not be shorter than the messages it replaces; the conversation was not changed")

// Compaction describes one compaction of the conversation: the model
// summarized the messages before the last few turns, and the conversation
// continues from the system prompt, one message holding the pinned content
// and that summary, and the kept messages verbatim.
type Compaction struct {
	// Auto is true when the context threshold started it, false for /compact.
	Auto bool
	// Focus is what the user asked the summary to keep in view.
	Focus string
	// Tokens is the prompt size, in tokens (reported or estimated), that
	// made an automatic compaction start; Window the context window.
	Tokens, Window int
	// Summary is the model's summary (EventCompactionFinished, on success).
	Summary string
	// Message is the content of the user message that replaced the
	// earlier messages: the session's first request, the request being
	// worked on when it was replaced too, the todo list, and Summary.
	Message string
	// Replaced counts the messages the summary replaced; Kept the messages
	// after it, kept verbatim.
	Replaced, Kept int
	// BytesBefore and BytesAfter are the conversation's size after the
	// system prompt, in bytes of text, before and after.
	BytesBefore, BytesAfter int
	// Cancelled is true when the user stopped the compaction.
	Cancelled bool
	// TokensAfter estimates the next request's prompt once the summary
	// replaced the conversation (set on success), so the context meter
	// is right before that request reports its usage.
	TokensAfter int
}

// compactInstruction asks the model for the summary. It opens with the
// words the offline provider recognises.
const compactInstruction = `Compaction request: the conversation above is about to be replaced by your summary, to free room in the context window. Write the summary that replaces it: the work goes on from your summary and the most recent messages, which are kept as they are.

Use exactly these Markdown sections:
## Goal
What the user wants overall, in one to three sentences.
## User instructions
Every instruction, preference or constraint the user gave, quoted verbatim, one per bullet.
## Decisions
What was decided or found out, and why.
## Files
Each file read, created or changed, with why and what changed.
## Open tasks
What is left to do, in order, the next step first.

Be specific: paths, names, commands, error messages. Leave out pleasantries and finished work that no longer matters. Do not call tools.`

// compactPrompt is the instruction, with the user's focus when given.
func compactPrompt(focus string) string {
	if focus = strings.TrimSpace(focus); focus == "" {
		return compactInstruction
	}
	return compactInstruction + "\n\nThe user asked the summary to focus on: " + focus
}

// Compact summarizes the conversation before its last few turns and
// continues from the summary (see Compaction). It runs on Run's goroutine
// like a turn but is not one: EventCompactionStarted and
// EventCompactionFinished frame it. It returns ErrBusy while a turn runs;
// Cancel stops it and leaves the conversation as it was. focus, when set,
// tells the model what the summary must keep in view.
func (a *Agent) Compact(focus string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := a.admitLocked(); err != nil {
		return err
	}
	a.start(&pendingTurn{text: focus, compact: true})
	return nil
}

// runCompact runs a /compact request on Run's goroutine.
func (a *Agent) runCompact(runCtx context.Context, p *pendingTurn) {
	ctx, cancel := context.WithCancel(runCtx)
	a.mu.Lock()
	a.cancel = cancel
	if p.cancelled {
		cancel()
	}
	a.pending = nil
	t := &turn{a: a, ctx: ctx, runCtx: runCtx, n: a.turns, spent: &spend{}}
	a.mu.Unlock()

	ev, ok := t.compact(false, p.text, 0)
	if !ok {
		ev = Event{Kind: EventCompactionFinished, Compaction: &Compaction{Focus: p.text}, Err: ErrNothingToCompact, Text: ErrNothingToCompact.Error()}
	}
	// Idle before consumers hear of the end, as with turns.
	a.mu.Lock()
	cancel()
	a.cancel = nil
	a.busy = false
	a.mu.Unlock()
	t.emit(ev)
}

// compactLimit is the prompt size in tokens from which the conversation is
// compacted automatically; 0 when automatic compaction is off.
func (a *Agent) compactLimit() int {
	pct := a.opts.CompactThreshold
	if pct == 0 {
		pct = DefaultCompactThreshold
	}
	window := a.ContextWindow()
	if pct < 0 || window <= 0 {
		return 0
	}
	return window * min(pct, 100) / 100
}

// notePrompt remembers the prompt size the gateway reported for a request
// of n messages, so the next one's can be estimated from it, and lets
// automatic compaction run again.
func (a *Agent) notePrompt(n int, u provider.Usage, reported bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.compactHold = false
	if reported && u.PromptTokens > 0 {
		a.lastPrompt, a.lastPromptMsgs = u.PromptTokens+u.CompletionTokens, n+1
		return
	}
	a.lastPrompt, a.lastPromptMsgs = 0, 0
}

// promptTokens estimates the next request's prompt: the last reported
// prompt and answer plus what was added since, or the whole request at
// BytesPerToken when no request reported usage.
func (a *Agent) promptTokens() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.lastPrompt > 0 && a.lastPromptMsgs <= len(a.messages) {
		return a.lastPrompt + estimateTokens(a.messages[a.lastPromptMsgs:])
	}
	n := estimateTokens(a.messages)
	for _, s := range a.specs {
		n += (len(s.Name) + len(s.Description) + len(s.Parameters)) / BytesPerToken
	}
	return n
}

// estimateTokens estimates the tokens of messages at BytesPerToken.
func estimateTokens(ms []provider.Message) int {
	return conversationBytes(ms) / BytesPerToken
}

// conversationBytes is the size of messages' text: contents, tool call
// names and arguments.
func conversationBytes(ms []provider.Message) int {
	n := 0
	for _, m := range ms {
		n += messageBytes(m)
	}
	return n
}

func messageBytes(m provider.Message) int {
	n := len(m.Content)
	for _, c := range m.ToolCalls {
		n += len(c.Name) + len(c.Arguments)
	}
	return n
}

// autoCompact compacts the conversation when the next request would reach
// the threshold. The loop calls it only before a request, when every call
// of the previous step has its result, so no tool call is ever cut off.
func (t *turn) autoCompact() {
	a := t.a
	limit := a.compactLimit()
	a.mu.Lock()
	hold := a.compactHold
	a.mu.Unlock()
	if limit == 0 || hold {
		return
	}
	tokens := a.promptTokens()
	if tokens < limit {
		return
	}
	// Whatever happens, not again before another request is answered: a
	// conversation that stays large after compacting must not loop.
	a.mu.Lock()
	a.compactHold = true
	a.mu.Unlock()
	if ev, ok := t.compact(true, "", tokens); ok {
		t.emit(ev)
	}
}

// compactOnOverflow compacts the conversation, once per turn, when the
// gateway refused a request as too long for the model's window (the
// estimate was off, or the window is not configured), unless automatic
// compaction is off. It reports whether the conversation shrank, so the
// request can be sent again.
func (t *turn) compactOnOverflow(err error) bool {
	var pe *provider.Error
	if t.overflowed || t.a.opts.CompactThreshold < 0 || !errors.As(err, &pe) || pe.Kind != provider.ErrContextTooLong {
		return false
	}
	t.overflowed = true
	ev, ok := t.compact(true, "", 0)
	if !ok {
		return false
	}
	t.emit(ev)
	return ev.Err == nil
}

// compact summarizes the conversation before its cut (see compactCut) and
// replaces it. It emits EventCompactionStarted and the usage, and returns
// the EventCompactionFinished to send; ok is false, with nothing emitted,
// when there is nothing to compact.
func (t *turn) compact(auto bool, focus string, tokens int) (Event, bool) {
	a := t.a
	msgs := a.Messages()
	sys := 0
	if len(msgs) > 0 && msgs[0].Role == provider.RoleSystem {
		sys = 1
	}
	conv := msgs[sys:]
	cut := compactCut(conv)
	if cut == 0 {
		return Event{}, false
	}
	first := FirstRequest(conv)
	current := ""
	if u := lastRequest(conv); u >= 0 && u < cut && conv[u].Content != first {
		current = conv[u].Content
	}
	todo := CurrentTodo(conv)
	// Not worth a request when what would go is hardly more than what the
	// replacement pins anyway.
	if conversationBytes(conv[:cut]) < len(compactMessage(first, current, todo, ""))+compactMinSaving {
		return Event{}, false
	}
	info := &Compaction{Auto: auto, Focus: strings.TrimSpace(focus), Tokens: tokens, Window: a.ContextWindow()}
	start := *info
	t.emit(Event{Kind: EventCompactionStarted, Compaction: &start})
	fail := func(err error) (Event, bool) {
		info.Cancelled = errors.Is(err, errCancelled)
		return Event{Kind: EventCompactionFinished, Compaction: info, Err: err, Text: err.Error()}, true
	}

	model := a.Model()
	sent := append(append(append([]provider.Message(nil), msgs[:sys]...), conv[:cut]...), provider.Message{Role: provider.RoleUser, Content: compactPrompt(focus)})
	req := provider.Request{
		Model:       model,
		Messages:    a.messagesFor(model, sent),
		Temperature: a.opts.Temperature,
		MaxTokens:   a.opts.MaxTokens,

		ReasoningEffort: a.Effort(),
	}
	summary, err := t.summarize(req)
	if err != nil {
		return fail(err)
	}
	text := compactMessage(first, current, todo, summary)
	if len(text) >= conversationBytes(conv[:cut]) {
		return fail(ErrNotSmaller)
	}
	kept := cloneMessages(conv[cut:])
	next := append(append(msgs[:sys:sys], provider.Message{Role: provider.RoleUser, Content: text}), kept...)
	a.mu.Lock()
	a.messages = next
	a.lastPrompt, a.lastPromptMsgs = 0, 0
	a.mu.Unlock()

	info.Summary, info.Message = summary, text
	info.Replaced, info.Kept = cut, len(kept)
	info.BytesBefore, info.BytesAfter = conversationBytes(conv), conversationBytes(next[sys:])
	info.TokensAfter = a.promptTokens()
	return Event{Kind: EventCompactionFinished, Compaction: info}, true
}

// summarize streams the summary request without showing it: the summary
// is the event's payload, not an answer in the transcript. It is metered
// like any request (EventRequest, EventUsage) and counts against the
// turn's budget. The gateway retries failures before the first delta (the
// provider's contract); a failure after it fails the compaction, which the
// user can run again.
func (t *turn) summarize(req provider.Request) (string, error) {
	if err := t.beforeRequest(); err != nil {
		if t.ctx.Err() != nil {
			return "", errCancelled
		}
		return "", err
	}
	at := &attempt{info: t.sendRequest(req, 1), sent: time.Now()}
	s, err := t.a.opts.Provider.Stream(t.ctx, req)
	if err != nil {
		if t.ctx.Err() != nil {
			return "", errCancelled
		}
		return "", fmt.Errorf("summary request: %w", err)
	}
	defer func() { _ = s.Close() }() // the answer is complete or abandoned
	ts := &timedStream{Stream: s, first: &at.first}
	size := newAnswerCap(t.a.opts.MaxAnswerBytes)
	var tooLarge error
	for ts.Next() {
		if t.ctx.Err() != nil {
			break
		}
		d, fits := size.admit(ts.Delta())
		if !fits {
			tooLarge = size.err()
			break
		}
		at.acc.Add(d)
	}
	complete := tooLarge == nil && t.ctx.Err() == nil && s.Err() == nil && at.acc.Finish() != 0
	t.settleUsage(at, complete)
	acc := &at.acc
	if t.ctx.Err() != nil {
		return "", errCancelled
	}
	if tooLarge != nil {
		return "", fmt.Errorf("summary request: %w", tooLarge)
	}
	if err := s.Err(); err != nil {
		return "", fmt.Errorf("summary request: %w", err)
	}
	switch acc.Finish() {
	case provider.FinishStop, provider.FinishToolCalls, provider.FinishOther:
	case provider.FinishLength:
		return "", errors.New("the summary was cut off at the model's output token limit; the conversation was not changed")
	case provider.FinishContentFilter:
		return "", errors.New("the gateway's content filter stopped the summary; the conversation was not changed")
	default:
		return "", errors.New("the summary stream ended before the model finished; the conversation was not changed")
	}
	summary := strings.TrimSpace(acc.Text())
	if summary == "" {
		return "", errors.New("the model answered the summary request with no text; the conversation was not changed")
	}
	return summary, nil
}

// compactCut returns the index in conv (the conversation after the system
// prompt) of the first message a compaction keeps verbatim, or 0 when
// nothing can be compacted. It keeps at most the last compactKeepTurns
// turns and at most compactKeepPercent of the bytes, but at least the last
// step; it never cuts before a tool result, so every kept call keeps its
// result and every replaced call is replaced with its result.
func compactCut(conv []provider.Message) int {
	suffix := make([]int, len(conv)+1)
	for i := len(conv) - 1; i >= 0; i-- {
		suffix[i] = suffix[i+1] + messageBytes(conv[i])
	}
	total := suffix[0]
	var starts []int
	for i, m := range conv {
		if m.Role == provider.RoleUser && !IsCompactMessage(m.Content) {
			starts = append(starts, i)
		}
	}
	limit := 0
	if len(starts) >= compactKeepTurns {
		limit = starts[len(starts)-compactKeepTurns]
	}
	cut := 0
	for i := len(conv) - 1; i >= 1; i-- {
		if conv[i].Role == provider.RoleTool {
			continue
		}
		if cut == 0 {
			cut = i // the least a compaction keeps: the last step
			continue
		}
		if i < limit || suffix[i]*100 > total*compactKeepPercent {
			break
		}
		cut = i
	}
	if cut == 1 && conv[0].Role == provider.RoleUser && IsCompactMessage(conv[0].Content) {
		return 0 // only an earlier summary would be replaced
	}
	return cut
}

// lastRequest is the index of the last user request in conv (not a
// compaction message), or -1.
func lastRequest(conv []provider.Message) int {
	for i := len(conv) - 1; i >= 0; i-- {
		if conv[i].Role == provider.RoleUser && !IsCompactMessage(conv[i].Content) {
			return i
		}
	}
	return -1
}
