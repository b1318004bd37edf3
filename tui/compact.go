package tui

import (
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/sanitize"
)

// compactBlock shows a compaction: a labelled header, what it replaced,
// and the model's summary as Markdown, so the user sees what the model
// keeps of the conversation.
type compactBlock struct {
	cache
	auto    bool
	focus   string
	running bool
	// tokens and window say what started an automatic compaction.
	tokens, window int
	// summary is the model's summary; stats what was replaced; failed why
	// the conversation stayed as it was.
	summary string
	stats   string
	failed  string
}

func (b *compactBlock) cacheRef() *cache { return &b.cache }

func (b *compactBlock) render(rc *renderCtx) []string {
	th := rc.th
	title := "Conversation compacted"
	switch {
	case b.running:
		title = rc.spin + " Compacting the conversation…"
	case b.failed != "":
		title = "Compaction stopped"
	}
	switch {
	case b.auto && b.tokens > 0 && b.window > 0:
		title += fmt.Sprintf(" (automatically: the prompt reached %s of the %s-token window)", kilo(b.tokens), kilo(b.window))
	case b.auto:
		title += " (automatically: the context window was filling up)"
	}
	bar := th.accent.Render("▌") + " "
	var out []string
	for _, l := range wrap(title, rc.width-4) {
		out = append(out, bar+th.accent.Render(th.bold.Render(l)))
	}
	var notes []string
	if b.focus != "" {
		notes = append(notes, "focus: "+b.focus)
	}
	if b.stats != "" {
		notes = append(notes, b.stats)
	}
	for _, l := range wrap(strings.Join(notes, " · "), rc.width-4) {
		out = append(out, bar+th.dim.Render(l))
	}
	if b.failed != "" {
		for _, l := range wrap(b.failed, rc.width-4) {
			out = append(out, bar+th.warn.Render(l))
		}
	}
	if b.summary != "" {
		var lines []string
		var err error
		if r := rc.md(rc.width - 2); r != nil {
			lines, err = r.Lines(b.summary)
		}
		if lines == nil || err != nil {
			lines = wrap(b.summary, rc.width-4)
		}
		for _, l := range lines {
			out = append(out, bar+l)
		}
	}
	return append(out, "")
}

// cmdCompact runs /compact [focus].
func (m *model) cmdCompact(args string) tea.Cmd {
	if m.busy {
		m.setNotice("the agent is working: wait for it (or press "+firstKey(m.keys.Interrupt)+"), then /compact", true)
		return nil
	}
	if err := m.be.Compact(args); err != nil {
		m.setNotice("compact: "+err.Error(), true)
		return nil
	}
	m.busy, m.compacting = true, true
	m.turnStart = m.rc.now
	return m.scheduleFrame(spinnerEvery)
}

// onCompactionStarted shows the compaction as it starts: after /compact,
// or inside a turn when the threshold was reached.
func (m *model) onCompactionStarted(ev agent.Event) tea.Cmd {
	m.endThinking()
	end := m.endAnswer()
	b := &compactBlock{running: true}
	if c := ev.Compaction; c != nil {
		b.auto, b.focus = c.Auto, sanitize.Clean(c.Focus)
		b.tokens, b.window = c.Tokens, c.Window
	}
	m.compactB = b
	m.tr.add(b)
	return tea.Batch(end, m.scheduleFrame(spinnerEvery))
}

// onCompactionFinished shows the summary (or why there is none) and, after
// /compact, makes the interface idle again.
func (m *model) onCompactionFinished(ev agent.Event) tea.Cmd {
	b := m.compactB
	m.compactB = nil
	if b == nil { // replayed from a log, or a start we never saw
		b = &compactBlock{}
		m.tr.add(b)
	}
	b.running = false
	c := ev.Compaction
	if c == nil {
		c = &agent.Compaction{}
	}
	b.auto = c.Auto
	switch {
	case errors.Is(ev.Err, agent.ErrNothingToCompact):
		m.tr.remove(b)
		m.setNotice("nothing to compact yet: the conversation is only its last few messages", false)
	case c.Cancelled:
		b.failed = "Cancelled: the conversation is unchanged."
	case ev.Err != nil:
		b.failed = sanitize.Clean(ev.Err.Error())
	default:
		b.summary = sanitize.Clean(c.Summary)
		if c.Replaced > 0 {
			b.stats = fmt.Sprintf("%d messages replaced by this summary, %d kept as they were · %s → %s of text",
				c.Replaced, c.Kept, fmtBytes(c.BytesBefore), fmtBytes(c.BytesAfter))
		}
		// The last request's size no longer says how full the window is:
		// the agent's estimate of the next prompt does, until that request
		// reports its usage (none from a log written before it was kept).
		m.lastIn, m.lastInCompacted = c.TokensAfter, c.TokensAfter > 0
	}
	m.tr.changed(b)
	if !m.compacting {
		return nil
	}
	m.compacting, m.busy, m.stopping = false, false, false
	return m.sendQueued()
}
