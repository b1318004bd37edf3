package tui

import (
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tui/sanitize"
)

// Sessions is the saved-session side of the interface, for /resume, /fork
// and /rewind. cmd/tern implements it on the session log, so the interface
// knows nothing of how sessions are stored. Every method but List changes
// what the agent holds; the interface calls them only while no turn runs.
type Sessions interface {
	// List returns this workspace's sessions, the most recently used first.
	List(ctx context.Context) ([]SessionInfo, error)
	// Open switches to the session id: the agent takes its history, model,
	// policy, grants and system prompt, and the log appends to it (or, with
	// fork, to a new session copied from it).
	Open(ctx context.Context, id string, fork bool) (*Switch, error)
	// Fork continues the running session in a new one holding its history
	// through turn (0: all of it), with a pointer to its parent.
	Fork(ctx context.Context, turn int) (*Switch, error)
	// Turns lists the user turns a rewind can go back to.
	Turns(ctx context.Context) (*Turns, error)
	// Rewind goes back to the start of turn: the files, the conversation or
	// both, as mode says. With ConflictsAsk it changes nothing when files
	// changed outside tern since tern wrote them, and returns
	// *RewindConflicts.
	Rewind(ctx context.Context, turn int, mode RewindMode, conflicts ConflictChoice) (*Switch, error)
	// UndoRewind reverses the last rewind (or /undo); conflicts as for Rewind.
	UndoRewind(ctx context.Context, conflicts ConflictChoice) (*Switch, error)
}

// SessionInfo is one row of the session picker.
type SessionInfo struct {
	ID string
	// Updated is when the session was last used; Created when it started.
	// They are shown in their own location (give local times).
	Updated, Created time.Time
	// Title is the first prompt, shortened; Prompt more of it.
	Title, Prompt string
	Messages      int
	Model         string
	// Parent is the session a fork came from.
	Parent string
	// Current marks the session the interface runs in.
	Current bool
}

// Switch is what the interface shows after the session it runs in changed
// (resumed, forked, rewound).
type Switch struct {
	// ID is the session now recorded.
	ID string
	// Replay are the new transcript's events (session State.Replay): the
	// transcript is replaced by them. nil keeps the transcript (a rewind
	// of the files only).
	Replay []agent.Event
	// Notices are shown at the top of the new transcript: what the resume
	// had to adapt, e.g. a model that is gone.
	Notices []string
	// Summary is the one-line notice saying what happened.
	Summary string
	// Prompt goes back into the input for editing (the prompt of the turn a
	// conversation was rewound to).
	Prompt string
}

// switchMsg carries a finished session switch, or why it failed.
type switchMsg struct {
	sw   *Switch
	err  error
	what string // the command, for the error notice
	// retry asks again how to handle conflicting files (rewinds only).
	retry func(ConflictChoice) tea.Cmd
}

// sessionsMsg carries the session list for the picker.
type sessionsMsg struct {
	list []SessionInfo
	err  error
	fork bool
	// start says the picker was asked for by tern --resume: an empty list
	// is then only a notice that a new session started.
	start bool
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
	if m.opts.Sessions == nil {
		m.setNotice("resume: this session is not recorded", true)
		return nil
	}
	if m.busy {
		m.setNotice("the agent is working: press "+firstKey(m.keys.Interrupt)+" first, then /resume", true)
		return nil
	}
	s, ctx := m.opts.Sessions, m.ctx
	m.setNotice("listing sessions…", false)
	return func() tea.Msg {
		list, err := s.List(ctx)
		return sessionsMsg{list: list, err: err, fork: fork, start: start}
	}
}

// onSessions opens the session picker.
func (m *model) onSessions(msg sessionsMsg) tea.Cmd {
	m.notice = ""
	if msg.err != nil {
		m.setNotice("resume: "+sanitize.Clean(msg.err.Error()), true)
		return nil
	}
	var items []pickItem
	first := -1 // the first session that is not the running one
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

// sessionItem is a picker row: when it was used, its title, how many
// messages, the model; the detail line holds more of the first prompt.
func (m *model) sessionItem(s SessionInfo, fork bool) pickItem {
	title := sanitize.Clean(s.Title)
	if title == "" {
		title = "(no prompt)"
	}
	when := s.Updated
	if when.IsZero() {
		when = s.Created
	}
	desc := plural(s.Messages, "message") + " · " + sanitize.Clean(s.Model)
	if s.Current {
		desc += " · current"
	}
	detail := sanitize.Clean(s.Prompt)
	if detail == "" {
		detail = title
	}
	detail = s.ID + " · " + detail
	if s.Parent != "" {
		detail += " · forked from " + s.Parent
	}
	id := s.ID
	it := pickItem{
		label:  when.Format("Jan _2 15:04") + "  " + title,
		desc:   desc,
		detail: detail,
		match:  title + " " + sanitize.Clean(s.Prompt) + " " + s.ID + " " + s.Model,
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
	if m.opts.Sessions == nil {
		m.setNotice("resume: this session is not recorded", true)
		return nil
	}
	if m.busy {
		m.setNotice("the agent is working: press "+firstKey(m.keys.Interrupt)+" first", true)
		return nil
	}
	s, ctx := m.opts.Sessions, m.ctx
	what := "resume"
	if fork {
		what = "fork"
	}
	m.busy = true // nothing may start while the agent changes sessions
	m.turnStart = m.rc.now
	m.setNotice("opening session "+sanitize.Clean(id)+"…", false)
	return func() tea.Msg {
		sw, err := s.Open(ctx, id, fork)
		return switchMsg{sw: sw, err: err, what: what}
	}
}

// onSwitch shows the session the interface switched to: the transcript is
// replaced by the new one's, and the token totals are its own.
func (m *model) onSwitch(msg switchMsg) tea.Cmd {
	m.busy, m.stopping = false, false
	var rc *RewindConflicts
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
func (m *model) showSession(sw *Switch) tea.Cmd {
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

// startResume opens the session picker as the interface starts (tern
// --resume without an id).
func (m *model) startResume() tea.Cmd {
	if !m.opts.ResumeAtStart || m.opts.Sessions == nil {
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
