package agent

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/ternhq/tern/provider"
)

// DefaultMaxAnswerBytes caps one model answer when Options.MaxAnswerBytes
// is 0: 8 MiB of text, reasoning and tool-call arguments, far more than a
// real answer and far less than a runaway gateway sends.
const DefaultMaxAnswerBytes = 8 << 20

// ErrAnswerTooLarge is wrapped by the error of a turn whose model answer
// passed Options.MaxAnswerBytes. The answer is dropped and not retried: the
// same request would most likely bring the same answer.
var ErrAnswerTooLarge = errors.New("the model's answer exceeded max_answer_bytes")

// NoteAnswerCutOff is the Text of the EventError saying the model's answer
// stopped at its output token limit; NoteAnswerFiltered of the one saying
// the gateway's content filter stopped it. Front ends that report how a
// turn ended (an editor's stop reason) compare with them.
const (
	NoteAnswerCutOff   = "The answer was cut off at the model's output token limit."
	NoteAnswerFiltered = "The gateway's content filter stopped the answer."
)

// answerCap counts what one answer holds in memory (text, reasoning and
// tool-call arguments and names, and a fixed share per call), so that neither the agent nor the
// session log grows past the limit whatever the gateway streams.
type answerCap struct {
	limit int // <= 0: no limit
	used  int
}

func newAnswerCap(limit int) answerCap {
	switch {
	case limit == 0:
		limit = DefaultMaxAnswerBytes
	case limit < 0:
		limit = 0
	}
	return answerCap{limit: limit}
}

// admit returns the part of d that fits and whether all of it did. Text
// and reasoning are cut at the limit on a character boundary; a tool-call
// fragment that does not fit is dropped whole.
func (c *answerCap) admit(d provider.Delta) (provider.Delta, bool) {
	if c.limit <= 0 {
		return d, true
	}
	var n int
	switch d.Kind {
	case provider.DeltaText, provider.DeltaReasoning:
		n = len(d.Text)
	case provider.DeltaToolCall:
		n = len(d.ToolCall.Arguments) + len(d.ToolCall.Name) + len(d.ToolCall.ID)
	case provider.DeltaUsage, provider.DeltaFinish:
		return d, true
	}
	if c.used+n <= c.limit {
		c.used += n
		return d, true
	}
	room := c.limit - c.used
	c.used = c.limit
	if d.Kind == provider.DeltaToolCall {
		return provider.Delta{}, false
	}
	for room > 0 && !utf8.RuneStart(d.Text[room]) {
		room--
	}
	d.Text = d.Text[:room]
	return d, false
}

// callCost is what each tool call of an answer counts against the cap
// besides its name, id and arguments: a call costs the agent a record, an
// announcement, a result and a message in the next request, whatever its
// size. At the default cap an answer holds at most 8192 calls.
const callCost = 1 << 10

// addCall counts one more tool call of the answer and reports whether it
// still fits.
func (c *answerCap) addCall() bool {
	if c.limit <= 0 {
		return true
	}
	if c.used+callCost > c.limit {
		c.used = c.limit
		return false
	}
	c.used += callCost
	return true
}

// err is the error that ends an answer stopped at the limit.
func (c *answerCap) err() error {
	return fmt.Errorf("%w (%s of text, reasoning and tool-call arguments; each tool call counts 1 KiB more): it was stopped and dropped. "+
		"Ask for a shorter answer or for the work in smaller steps, or raise max_answer_bytes in config.toml", ErrAnswerTooLarge, sizeOf(c.limit))
}

// sizeOf writes a byte count for people: "8 MiB", "512 KiB", "1000 bytes".
func sizeOf(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
