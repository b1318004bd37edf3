package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/agent"
)

// maxBatch bounds the events one Update applies.
const maxBatch = 512

// listen arms the subscription to the agent's events after a batch. It
// always waits on the channel, so an event that changes more than streamed
// text (a tool call, an approval, the end of the turn) is drawn at once;
// streamed text is applied as it comes and drawn by the next frame. (The
// subscription used to be left to the next frame while text streamed,
// which held the end of an answer until then: up to frameMax. The provider
// paces text to about 20 batches a second, and a batch of streamed text
// costs an Update without a View, so waiting costs next to nothing.)
func (m *model) listen() tea.Cmd { return m.waitEvents() }

// takeEvents appends to evs the events waiting in ch, without blocking,
// up to maxBatch; closed reports that ch was closed.
func takeEvents(ch <-chan agent.Event, evs []agent.Event) (_ []agent.Event, closed bool) {
	for len(evs) < maxBatch {
		select {
		case ev, ok := <-ch:
			if !ok {
				return evs, true
			}
			evs = append(evs, ev)
		default:
			return evs, false
		}
	}
	return evs, false
}
