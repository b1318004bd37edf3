package openai

import "github.com/ternhq/tern/provider"

// piece says what a decoded chunk carries, for joining the chunks of a
// burst: nothing at all, one lone piece of text or reasoning, or something
// else (several pieces, a tool call, a finish reason, usage, an error).
type piece struct {
	// empty: the chunk yields no delta (no choices, a bare role, empty
	// content or call fragments).
	empty bool
	// lone: the chunk yields exactly one delta, of kind (DeltaText or
	// DeltaReasoning) with text, for the choice at index.
	lone  bool
	kind  provider.DeltaKind
	index int
	// text aliases the chunk's buffer, valid until the next decode.
	text []byte
}

// piece classifies the chunk as queueChunk would turn it into deltas.
func (c *chunk) piece() piece {
	if c.failed || c.hasUsage {
		return piece{}
	}
	var p piece
	for i := range c.choices {
		ch := &c.choices[i]
		if ch.finish != "" {
			return piece{}
		}
		for _, f := range ch.calls {
			if f.ID != "" || f.Name != "" || f.Arguments != "" {
				return piece{}
			}
		}
		if r := ch.reasoningText(); len(r) > 0 {
			if p.lone {
				return piece{} // a second piece, of another choice
			}
			p = piece{lone: true, kind: provider.DeltaReasoning, index: ch.index, text: r}
		}
		for _, t := range [2][]byte{ch.content, ch.refusal} {
			if len(t) == 0 {
				continue
			}
			if p.lone {
				return piece{} // a second piece
			}
			p = piece{lone: true, kind: provider.DeltaText, index: ch.index, text: t}
		}
	}
	if !p.lone {
		return piece{empty: true}
	}
	return p
}

// maxKept bounds a buffer the stream keeps from event to event (a chunk's
// texts, a joined burst, the decoder's envelope and layout): one grown by
// a huge event is dropped once used, so an open stream does not hold
// copies of that event besides the line it was read as. Twice the line
// buffer, so that a burst, which is at most what that buffer holds, never
// needs a new buffer.
const maxKept = 2 * readBufferSize

// small returns b to be reused, or nil when it is larger than maxKept.
func small(b []byte) []byte {
	if cap(b) > maxKept {
		return nil
	}
	return b
}

// shrink drops the chunk's buffers that a huge event grew.
func (c *chunk) shrink() {
	for i := range c.choices {
		ch := &c.choices[i]
		ch.content, ch.reasoning = small(ch.content), small(ch.reasoning)
		ch.reasoningAlt, ch.refusal = small(ch.reasoningAlt), small(ch.refusal)
	}
}
