package tui

import "time"

// wheelBurst separates a wheel notch from typed arrows. With mouse capture
// off the terminal turns a wheel notch into several ↑ or ↓ keys sent
// together (alternate scroll mode), so they reach tern within a millisecond
// or two of each other; a held key repeats at 30 a second at most.
const wheelBurst = 12 * time.Millisecond

// arrows is what the last ↑/↓ press did, so that the next press can tell a
// wheel notch from a typed arrow.
type arrows struct {
	at       time.Time // when the last ↑ or ↓ came
	recalled bool      // it recalled a prompt into an empty input
	wheel    bool      // it was taken as part of a wheel notch
}

// onArrow handles ↑ (dy < 0) and ↓ (dy > 0) when they do not move the
// cursor inside a multi-line draft: ↑ on an empty input recalls the last
// prompt and then walks the history back, ↓ walks it forward and back to
// the draft, and a burst of them (the wheel) scrolls the transcript. It
// reports whether it used the key.
func (m *model) onArrow(dy int) bool {
	last := m.arrow
	m.arrow = arrows{at: m.rc.now}
	empty := m.input.Value() == ""
	burst := !m.mouse && !last.at.IsZero() && m.rc.now.Sub(last.at) < wheelBurst
	if burst && (last.wheel || last.recalled || (empty && !m.hist.browsing())) {
		if last.recalled {
			// The press before was the notch's first arrow, not a recall.
			m.input.Reset()
			m.hist.reset()
			dy *= 2
		}
		m.scrollBy(dy)
		m.arrow.wheel = true
		return true
	}
	switch {
	case dy < 0 && empty && len(m.queued) > 0:
		m.unqueue()
		return true
	case dy < 0 && (empty || m.onFirstLine()):
		m.arrow.recalled = empty && !m.hist.browsing()
		m.historyPrev()
		return true
	case dy > 0 && empty && !m.hist.browsing():
		m.scrollBy(dy)
		return true
	case dy > 0 && m.onLastLine() && m.hist.browsing():
		m.historyNext()
		return true
	}
	return false
}
