package provider

import (
	"strings"
	"unicode/utf8"
)

// Accumulator turns a stream of deltas into whole text, reasoning and tool
// calls. Every consumer uses this one implementation, so gateway quirks
// (interleaved indexes, missing indexes, whole calls in one chunk) are
// handled in one place.
type Accumulator struct {
	text      Pieces
	reasoning Pieces
	calls     []*callBuilder
	byIndex   map[int]*callBuilder
	usage     Usage
	hasUsage  bool
	finish    FinishReason
}

type callBuilder struct {
	pos  int // its index in Accumulator.calls
	id   string
	name string
	args Pieces
}

// Add folds one delta into the accumulated state. For tool-call fragments it
// returns the position of the call the fragment belongs to (its order of first
// appearance), or -1 for other kinds.
func (a *Accumulator) Add(d Delta) int {
	switch d.Kind {
	case DeltaText:
		a.text.WriteString(d.Text)
	case DeltaReasoning:
		a.reasoning.WriteString(d.Text)
	case DeltaToolCall:
		return a.addFragment(d.ToolCall)
	case DeltaUsage:
		// Some gateways report usage twice (in the last content chunk and in a
		// trailing chunk); the figures are cumulative, so the last one wins.
		a.usage, a.hasUsage = d.Usage, true
	case DeltaFinish:
		a.finish = d.Finish
	}
	return -1
}

func (a *Accumulator) addFragment(f ToolCallFragment) int {
	var c *callBuilder
	switch {
	case f.HasIndex:
		if a.byIndex == nil {
			a.byIndex = make(map[int]*callBuilder)
		}
		c = a.byIndex[f.Index]
		if c != nil && f.ID != "" && c.id != "" && f.ID != c.id {
			// A gateway that reuses index 0 for every call but gives each a
			// fresh id: start a new call.
			c = nil
		}
		if c == nil {
			c = &callBuilder{pos: len(a.calls)}
			a.byIndex[f.Index] = c
			a.calls = append(a.calls, c)
		}
	default:
		// No index: a fragment with an id (or a name, when the last call already
		// has one) starts a new call; anything else continues the last call.
		if n := len(a.calls); n > 0 {
			last := a.calls[n-1]
			switch {
			case f.ID != "" && f.ID == last.id:
				c = last
			case f.ID == "" && (f.Name == "" || last.name == ""):
				c = last
			}
		}
		if c == nil {
			c = &callBuilder{pos: len(a.calls)}
			a.calls = append(a.calls, c)
		}
	}
	if f.ID != "" && c.id == "" {
		c.id = f.ID
	}
	if f.Name != "" {
		if c.name == "" || c.name == f.Name {
			c.name = f.Name
		} else if c.args.Len() == 0 {
			// Names streamed in pieces.
			c.name += f.Name
		}
	}
	c.args.WriteString(f.Arguments)
	// The position is kept, not searched for: an answer of many calls
	// costs linear time, not quadratic.
	return c.pos
}

// Calls returns how many calls the fragments so far started, named or not.
func (a *Accumulator) Calls() int { return len(a.calls) }

// Text returns the assistant text so far, valid UTF-8 (see validUTF8).
func (a *Accumulator) Text() string { return validUTF8(a.text.String()) }

// Reasoning returns the reasoning text so far, valid UTF-8.
func (a *Accumulator) Reasoning() string { return validUTF8(a.reasoning.String()) }

// validUTF8 returns s with every byte that is not part of a valid UTF-8
// sequence replaced by U+FFFD, as encoding/json writes it and so as the
// session log reads it back: a gateway may put raw invalid bytes in its
// JSON, and an answer kept with them was a different conversation after
// tern -c than before (the request to the model replaced them all the
// same). Valid text, nearly always, is returned as it is.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	start := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(s[start:i])
			b.WriteString("\uFFFD")
			start = i + 1
		}
		i += size
	}
	b.WriteString(s[start:])
	return b.String()
}

// ToolCalls returns the calls assembled so far, in order of first appearance.
// Calls without a name are dropped: they cannot be run or answered sensibly.
func (a *Accumulator) ToolCalls() []ToolCall {
	out := make([]ToolCall, 0, len(a.calls))
	for _, c := range a.calls {
		if c.name == "" {
			continue
		}
		out = append(out, ToolCall{ID: c.id, Name: c.name, Arguments: c.args.String()})
	}
	return out
}

// CallName returns the name known so far for the call at position i.
func (a *Accumulator) CallName(i int) string {
	if i < 0 || i >= len(a.calls) {
		return ""
	}
	return a.calls[i].name
}

// CallID returns the id known so far for the call at position i.
func (a *Accumulator) CallID(i int) string {
	if i < 0 || i >= len(a.calls) {
		return ""
	}
	return a.calls[i].id
}

// Usage returns the last usage reported and whether any was.
func (a *Accumulator) Usage() (Usage, bool) { return a.usage, a.hasUsage }

// Finish returns the finish reason, or 0 when the stream has not finished.
func (a *Accumulator) Finish() FinishReason { return a.finish }
