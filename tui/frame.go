package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/agent"
)

// maxBatch bounds the events one Update applies.
const maxBatch = 512

// listen arms the subscription to the agent's events after a batch. While
// text streams and a frame is due soon anyway, nobody waits on the channel:
// the frame takes what arrived in the meantime (catchUp), so a streamed
// answer wakes the interface once per frame instead of once per event. Any
// other event (a tool call, an approval, the end of the turn) brings the
// waiting subscription back, and so does a frame further away than
// frameMin (rendering is slow), so no event is held longer than frameMin.
func (m *model) listen(evs []agent.Event) tea.Cmd {
	if m.frameArmed && !m.frameDue.After(m.rc.now.Add(frameMin)) && len(evs) > 0 && onlyStreamed(evs) {
		m.deferred = true
		return nil
	}
	m.deferred = false
	return m.waitEvents()
}

// catchUp applies the events that arrived since the last batch when the
// subscription was deferred; a frame calls it before drawing. When nothing
// arrived the stream has paused and the subscription waits again.
func (m *model) catchUp() tea.Cmd {
	if !m.deferred {
		return nil
	}
	m.deferred = false
	evs, closed := takeEvents(m.be.Events(), nil)
	if len(evs) == 0 && !closed {
		return m.waitEvents()
	}
	if closed || !onlyStreamed(evs) {
		m.inputViewOK = false // the end of a turn may give the input back a queued message
	}
	return m.onEvents(eventsMsg{events: evs, closed: closed})
}

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
