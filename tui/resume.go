package tui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/internal/sanitize"
	"github.com/ternhq/tern/provider"
)

// switchMsg carries a finished session switch, or why it failed.
type switchMsg struct {
	sw   *app.Switch
	err  error
	what string // the command, for the error notice
	// retry asks again how to handle conflicting files (rewinds only).
	retry func(app.ConflictChoice) tea.Cmd
}

// sessionsMsg carries the session list for the picker.
type sessionsMsg struct {
	list []app.SessionInfo
	err  error
	fork bool
	// start says the picker was asked for by tern --resume: an empty list
	// is then only a notice that a new session started.
	start bool
	// indexed marks the list from the session index alone, shown while the
	// checked list comes (which then replaces its rows); then lists it.
	indexed bool
	then    tea.Cmd
}

// indexedLister is a session service that can list the sessions from its
// index at once, unchecked (app.Session.ListIndexed).
type indexedLister interface {
	ListIndexed(context.Context) ([]app.SessionInfo, error)
}

func (m *model) cmdResume(args string) tea.Cmd {
	if args != "" {
		return m.openSession(args, false)
	}
	return m.listSessions(false, false)
}

// listSessions loads the list for the session picker; fork makes enter
// fork the chosen session.
func (m *model) listSessions(fork, start bool) tea.Cmd {
	if !m.be.Recorded() {
		m.setNotice("resume: this session is not recorded", true)
		return nil
	}
	if m.busy {
		m.setNotice("the agent is working: press "+firstKey(m.keys.Interrupt)+" first, then /resume", true)
		return nil
	}
	be, ctx := m.be, m.ctx
	m.setNotice("listing sessions…", false)
	m.sessionsPick = nil
	full := func() tea.Msg {
		list, err := be.List(ctx)
		return sessionsMsg{list: list, err: err, fork: fork, start: start}
	}
	il, ok := be.(indexedLister)
	if !ok {
		return full
	}
	// The index's rows first: checking 10,000 logs takes longer than the
	// picker should (a stat each). The checked list replaces them.
	return func() tea.Msg {
		list, err := il.ListIndexed(ctx)
		return sessionsMsg{list: list, err: err, fork: fork, start: start, indexed: true, then: full}
	}
}

// onSessions opens the session picker.
func (m *model) onSessions(msg sessionsMsg) tea.Cmd {
	if msg.indexed {
		if msg.err == nil && len(msg.list) > 0 {
			m.onSessions(sessionsMsg{list: msg.list, fork: msg.fork, start: msg.start})
			if m.pick != nil {
				m.sessionsPick = m.pick
				m.setNotice("listing sessions…", false)
			}
		}
		return msg.then // without an index yet, the checked list opens the picker
	}
	if !msg.indexed && m.sessionsPick != nil {
		return m.refreshSessions(msg)
	}
	m.notice = ""
	if msg.err != nil {
		m.setNotice("resume: "+sanitize.Clean(msg.err.Error()), true)
		return nil
	}
	items := make([]pickItem, 0, len(msg.list)) // sized: growing 10,000 rows was a third of opening the picker (pprof)
	first := -1                                 // the first session that is not the running one
	for _, s := range msg.list {
		if s.Current && s.Messages == 0 {
			continue // the session just started: nothing to resume
		}
		if first < 0 && !s.Current {
			first = len(items)
		}
		items = append(items, m.sessionItem(s, msg.fork))
	}
	if len(items) == 0 {
		if msg.start {
			m.setNotice("no saved sessions in this workspace yet: this is a new one", false)
		} else {
			m.setNotice("no other saved sessions in this workspace", false)
		}
		return nil
	}
	km := &m.keys
	hint := km.Up.Help().Key + " · " + firstKey(km.Choose) + " resume · " + helpText(km.Picker.Alt) + " · " + helpText(km.Cancel)
	if msg.fork {
		hint = km.Up.Help().Key + " · " + firstKey(km.Choose) + " fork · " + helpText(km.Cancel)
	}
	p := newPicker("Resume a session", hint, items, true)
	p.sel = max(0, first) // newest-used first: the running session is usually on top
	if msg.start {
		p.cancel = func(m *model) tea.Cmd {
			m.setNotice("new session", false)
			return nil
		}
	}
	m.openPicker(p)
	return nil
}

// refreshSessions puts the checked list in the picker opened with the
// index's rows, keeping the query and the selected session; when that
// picker was closed already, the list is dropped.
func (m *model) refreshSessions(msg sessionsMsg) tea.Cmd {
	p := m.sessionsPick
	m.sessionsPick = nil
	if m.pick != p {
		return nil // chosen or dismissed: what was chosen is found again on opening
	}
	m.notice = ""
	if msg.err != nil {
		m.setNotice("resume: "+sanitize.Clean(msg.err.Error()), true)
		return nil
	}
	selected := ""
	if it, ok := p.selected(); ok {
		selected = it.key
	}
	items := make([]pickItem, 0, len(msg.list))
	for _, s := range msg.list {
		if s.Current && s.Messages == 0 {
			continue
		}
		items = append(items, m.sessionItem(s, msg.fork))
	}
	if len(items) == 0 {
		m.pick = nil
		m.setNotice("no other saved sessions in this workspace", false)
		return nil
	}
	p.items = items
	p.filter()
	for i, k := range p.shown {
		if p.items[k].key == selected {
			p.sel = i
			break
		}
	}
	return nil
}

// sessionItem is a picker row: when it was used, its title, how many
// messages, the model; the detail line holds more of the first prompt.
// Its four texts are cut from one string: built apart, they were most of
// opening the picker over 10,000 sessions (pprof: string concatenation
// 45%).
func (m *model) sessionItem(s app.SessionInfo, fork bool) pickItem {
	title := sanitize.Clean(s.Title)
	if title == "" {
		title = "(no prompt)"
	}
	when := s.Updated
	if when.IsZero() {
		when = s.Created
	}
	modelName, prompt := sanitize.Clean(s.Model), sanitize.Clean(s.Prompt)
	detail := prompt
	if detail == "" {
		detail = title
	}
	var stamp [32]byte
	date := when.AppendFormat(stamp[:0], "Jan _2 15:04")
	messages := plural(s.Messages, "message")
	var sb strings.Builder
	sb.Grow(len(date) + 2*len(title) + 2*len(prompt) + len(detail) + 2*len(s.ID) + len(messages) + len(modelName) + len(s.Model) + len(s.Parent) + 48)
	sb.Write(date)
	sb.WriteString("  ")
	sb.WriteString(title)
	endLabel := sb.Len()
	sb.WriteString(messages)
	sb.WriteString(" · ")
	sb.WriteString(modelName)
	if s.Current {
		sb.WriteString(" · current")
	}
	endDesc := sb.Len()
	sb.WriteString(s.ID)
	sb.WriteString(" · ")
	sb.WriteString(detail)
	if s.Parent != "" {
		sb.WriteString(" · forked from ")
		sb.WriteString(s.Parent)
	}
	endDetail := sb.Len()
	for _, part := range [...]string{title, " ", prompt, " ", s.ID, " ", s.Model} {
		sb.WriteString(part)
	}
	all := sb.String()
	id := s.ID
	it := pickItem{
		key:    id,
		label:  all[:endLabel],
		desc:   all[endLabel:endDesc],
		detail: all[endDesc:endDetail],
		match:  all[endDetail:],
		run:    func(m *model) tea.Cmd { return m.openSession(id, fork) },
		alt:    func(m *model) tea.Cmd { return m.openSession(id, true) },
	}
	if s.Current && !fork {
		it.run = func(m *model) tea.Cmd {
			m.setNotice("already in this session", false)
			return nil
		}
	}
	return it
}

// plural says "1 message" or "3 messages".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return itoa(n) + " " + what + "s"
}

// openSession switches to a saved session.
func (m *model) openSession(id string, fork bool) tea.Cmd {
	if !m.be.Recorded() {
		m.setNotice("resume: this session is not recorded", true)
		return nil
	}
	if m.busy {
		m.setNotice("the agent is working: press "+firstKey(m.keys.Interrupt)+" first", true)
		return nil
	}
	be, ctx := m.be, m.ctx
	what := "resume"
	if fork {
		what = "fork"
	}
	m.busy = true // nothing may start while the agent changes sessions
	m.turnStart = m.rc.now
	m.setNotice("opening session "+sanitize.Clean(id)+"…", false)
	return func() tea.Msg {
		sw, err := be.Open(ctx, id, fork)
		return switchMsg{sw: sw, err: err, what: what}
	}
}

// onSwitch shows the session the interface switched to: the transcript is
// replaced by the new one's, and the token totals are its own.
func (m *model) onSwitch(msg switchMsg) tea.Cmd {
	m.busy, m.stopping = false, false
	if m.continuing {
		return m.onContinued(msg)
	}
	var rc *app.RewindConflicts
	switch {
	case asConflicts(msg.err, &rc) && msg.retry != nil:
		m.notice = ""
		m.askConflicts(rc, msg.retry)
		return nil
	case msg.err != nil:
		m.setNotice(msg.what+": "+sanitize.Clean(msg.err.Error()), true)
		return m.sendQueued()
	case msg.sw == nil:
		return m.sendQueued()
	}
	sw := msg.sw
	// The session switched to may be in plan mode, or the one left was.
	m.planning, m.planOffer = m.be.Planning(), false
	var cmd tea.Cmd
	if sw.Replay != nil {
		cmd = m.showSession(sw)
	}
	if sw.Prompt != "" {
		m.input.SetValue(sw.Prompt)
		m.pal = nil
	}
	m.setNotice(sanitize.Clean(sw.Summary), false)
	return cmd
}

// showSession replaces the transcript and the session's figures with those
// of sw, rendering its events as a resumed session's are at start.
func (m *model) showSession(sw *app.Switch) tea.Cmd {
	m.tr.clear()
	m.cards = map[string]*toolCard{}
	m.streamed = map[block]bool{}
	m.answer, m.thinking, m.latest = nil, nil, nil
	m.usage, m.lastIn = provider.Usage{}, 0
	m.meter = meter{}
	m.queued, m.shellContext = nil, nil
	m.pending, m.dlg = nil, nil
	m.todo = nil
	m.tr.add(m.welcome())
	if len(sw.Notices) > 0 {
		lines := make([]string, len(sw.Notices))
		for i, n := range sw.Notices {
			lines[i] = m.rc.th.warn.Render(sanitize.Clean(n))
		}
		m.tr.add(&noticeBlock{lines: lines})
	}
	cmd := m.replay(sw.Replay)
	m.busy, m.stopping = false, false
	m.tr.end()
	return cmd
}

// startContinue opens the session of Options.Continue as the interface
// starts; the first frame, with its preview, does not wait for it.
func (m *model) startContinue() tea.Cmd {
	if m.opts.Continue == "" {
		return nil
	}
	m.continuing = true
	return m.openSession(m.opts.Continue, m.opts.ContinueFork)
}

// onContinued finishes opening the session of Options.Continue: the
// figures that came from the session at start (its model's prices, its
// approval policy for /permissions) are its own, the preview makes way for
// the whole transcript, and what was typed meanwhile is sent. A session
// that could not be opened ends the interface.
func (m *model) onContinued(msg switchMsg) tea.Cmd {
	m.continuing = false
	if msg.err != nil || msg.sw == nil {
		err := msg.err
		if err == nil {
			err = fmt.Errorf("session %s was not opened", m.opts.Continue)
		}
		m.continueErr = &ContinueError{Err: err}
		m.quitting = true
		return tea.Quit
	}
	m.pricedModel, m.opts.Prices = m.be.Model(), nil
	if p, src := m.be.Prices(m.pricedModel); src != app.PricesNone {
		m.opts.Prices = &p
	}
	m.opts.Permissions.Policy = m.be.Policy()
	m.planning, m.planOffer = m.be.Planning(), false
	queued := m.queued
	cmd := m.showSession(msg.sw)
	m.queued = queued
	m.setNotice(sanitize.Clean(msg.sw.Summary), false)
	return tea.Batch(cmd, m.sendQueued())
}

// ContinueError is Run's error when the session of Options.Continue could
// not be opened (a damaged log): what tern -c would have said before
// starting the interface.
type ContinueError struct{ Err error }

// Error is the reason, as opening the session gave it.
func (e *ContinueError) Error() string { return e.Err.Error() }

// Unwrap returns the reason.
func (e *ContinueError) Unwrap() error { return e.Err }

// startResume opens the session picker as the interface starts (tern
// --resume without an id).
func (m *model) startResume() tea.Cmd {
	if !m.opts.ResumeAtStart || !m.be.Recorded() {
		return nil
	}
	return m.listSessions(m.opts.ResumeFork, true)
}

// sessionResult is a message a session command's work returns; Update
// hands it back to the model.
type sessionResult interface {
	apply(m *model) tea.Cmd
}

func (msg sessionsMsg) apply(m *model) tea.Cmd { return m.onSessions(msg) }

func (msg switchMsg) apply(m *model) tea.Cmd { return m.onSwitch(msg) }

// shortPrompt is a prompt on one line, for picker rows.
func shortPrompt(s string) string {
	return sanitize.Clean(strings.Join(strings.Fields(s), " "))
}
