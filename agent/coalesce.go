package agent

import "strings"

// bufferedStream is a provider.Stream that can tell whether its next delta
// has already been received (provider/openai's can), so that Next will not
// wait for the network.
type bufferedStream interface {
	Buffered() bool
}

// textHold joins the text (or reasoning) pieces of one burst into one event.
// A gateway sends a token per event; a provider that reads the network in
// batches hands over tens of them at once, and an event per piece would wake
// every consumer (the session recorder, the interface) once per token. The
// pieces are held only while the stream says more is already buffered, so
// no event waits for the network: the hold is emitted before anything else
// (a tool call, the end of the answer) and whenever Next would block.
type textHold struct {
	kind EventKind
	// one is the piece held while it is the only one: a provider that
	// joins a burst itself (provider/openai) hands over one delta a burst,
	// whose text is emitted as it came, without a copy.
	one string
	b   strings.Builder
}

// add holds a piece of kind EventTextDelta or EventReasoningDelta, emitting
// what is held first when it is of the other kind.
func (h *textHold) add(t *turn, kind EventKind, text string) {
	if h.held() && h.kind != kind {
		h.flush(t)
	}
	h.kind = kind
	switch {
	case h.b.Len() > 0:
		h.b.WriteString(text)
	case h.one == "":
		h.one = text
	default:
		h.b.Grow(len(h.one) + len(text))
		h.b.WriteString(h.one)
		h.b.WriteString(text)
		h.one = ""
	}
}

// held reports whether anything is held.
func (h *textHold) held() bool { return h.one != "" || h.b.Len() > 0 }

// flush emits what is held, if anything.
func (h *textHold) flush(t *turn) {
	switch {
	case h.b.Len() > 0:
		t.emit(Event{Kind: h.kind, Text: h.b.String()})
		h.b.Reset()
	case h.one != "":
		t.emit(Event{Kind: h.kind, Text: h.one})
		h.one = ""
	}
}
