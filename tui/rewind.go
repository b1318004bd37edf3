package tui

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/tui/sanitize"
)

// escWindow is how soon a second esc on an empty input must follow the
// first to open the rewind list.
const escWindow = time.Second

// RewindMode says what a rewind restores; the set is closed.
type RewindMode int

// The rewind modes, in the order the menu offers them.
const (
	// RewindAll restores the files and the conversation.
	RewindAll RewindMode = iota + 1
	// RewindConversation restores the conversation and leaves the files.
	RewindConversation
	// RewindCode restores the files and keeps the conversation.
	RewindCode
)

// ConflictChoice says what a rewind does with files changed outside tern
// since tern last wrote them; the set is closed.
type ConflictChoice int

// The choices.
const (
	// ConflictsAsk changes nothing and returns *RewindConflicts.
	ConflictsAsk ConflictChoice = iota + 1
	// ConflictsOverwrite restores those files too.
	ConflictsOverwrite
	// ConflictsKeep leaves those files as they are and restores the rest.
	ConflictsKeep
)

// RewindConflicts is the error Sessions.Rewind and UndoRewind return with
// ConflictsAsk when files changed outside tern since tern last wrote them.
type RewindConflicts struct {
	Paths []string
	// Diffs are unified diffs from what tern left to what is there now:
	// what overwriting would lose ("" when unknown).
	Diffs string
}

// Error lists the conflicting files.
func (e *RewindConflicts) Error() string {
	return "changed outside tern since tern last wrote them: " + strings.Join(e.Paths, ", ")
}

// asConflicts reports whether err is a *RewindConflicts and sets *rc.
func asConflicts(err error, rc **RewindConflicts) bool { return errors.As(err, rc) }

// TurnInfo is a user turn in the rewind and fork lists.
type TurnInfo struct {
	Turn int
	// Time is when the turn started, shown in its own location.
	Time time.Time
	// Text is the prompt.
	Text string
	// Files counts the file changes tools made in the turn; Commands the
	// shell commands that changed files.
	Files, Commands int
}

// Turns is what a rewind can go back to.
type Turns struct {
	// Turns are the user turns in the conversation, oldest first.
	Turns []TurnInfo
	// Undo describes the last rewind (or /undo), which UndoRewind reverses;
	// "" when the session has none.
	Undo string
}

// turnsMsg carries the turns for the rewind or fork list.
type turnsMsg struct {
	turns *Turns
	err   error
	fork  bool
}

func (msg turnsMsg) apply(m *model) tea.Cmd {
	if msg.fork {
		return m.onForkTurns(msg)
	}
	return m.onRewindTurns(msg)
}

func (m *model) cmdRewind(string) tea.Cmd { return m.loadTurns(false, "rewind") }

// loadTurns fetches the user turns for the rewind list (or the fork list).
func (m *model) loadTurns(fork bool, what string) tea.Cmd {
	if m.opts.Sessions == nil {
		m.setNotice(what+": this session is not recorded", true)
		return nil
	}
	if m.busy {
		m.setNotice("the agent is working: press "+firstKey(m.keys.Interrupt)+" first, then /"+what, true)
		return nil
	}
	s, ctx := m.opts.Sessions, m.ctx
	return func() tea.Msg {
		t, err := s.Turns(ctx)
		return turnsMsg{turns: t, err: err, fork: fork}
	}
}

// escEmpty handles esc on an empty input while idle: the second press
// within escWindow opens the rewind list.
func (m *model) escEmpty() tea.Cmd {
	if m.opts.Sessions == nil {
		return nil
	}
	if !m.escAt.IsZero() && m.rc.now.Sub(m.escAt) < escWindow {
		m.escAt = time.Time{}
		return m.cmdRewind("")
	}
	m.escAt = m.rc.now
	m.setNotice(firstKey(m.keys.Interrupt)+" again to rewind to an earlier turn", false)
	return nil
}

// onRewindTurns opens the rewind list: undo of the last rewind on top when
// there is one, then the turns, newest first.
func (m *model) onRewindTurns(msg turnsMsg) tea.Cmd {
	if msg.err != nil {
		m.setNotice("rewind: "+sanitize.Clean(msg.err.Error()), true)
		return nil
	}
	var items []pickItem
	if u := msg.turns.Undo; u != "" {
		items = append(items, pickItem{
			label: "↶ undo the last rewind",
			desc:  sanitize.Clean(u),
			run:   func(m *model) tea.Cmd { return m.undoRewind(ConflictsAsk) },
		})
	}
	ts := msg.turns.Turns
	for i := len(ts) - 1; i >= 0; i-- {
		t := ts[i]
		files, cmds := 0, 0
		for _, later := range ts[i:] {
			files += later.Files
			cmds += later.Commands
		}
		items = append(items, pickItem{
			label:  turnLabel(t),
			desc:   changeCount(files, cmds),
			detail: "rewind to before this prompt",
			match:  t.Text,
			run:    func(m *model) tea.Cmd { m.askRewindMode(t, files, cmds); return nil },
		})
	}
	if len(items) == 0 {
		m.setNotice("nothing to rewind: the conversation has no turn yet", false)
		return nil
	}
	m.openPicker(newPicker("Rewind", "type to filter · "+m.keys.Up.Help().Key+" · "+helpText(m.keys.Choose)+" · "+helpText(m.keys.Cancel), items, true))
	return nil
}

// turnLabel is a turn's row: its number, time and prompt.
func turnLabel(t TurnInfo) string {
	return fmt.Sprintf("#%-3d %s  %s", t.Turn, t.Time.Format("15:04"), shortPrompt(t.Text))
}

// changeCount says what changed since a turn began.
func changeCount(files, cmds int) string {
	if files == 0 && cmds == 0 {
		return "no file changes since"
	}
	var parts []string
	if files > 0 {
		parts = append(parts, plural(files, "file change"))
	}
	if cmds > 0 {
		parts = append(parts, plural(cmds, "command"))
	}
	return strings.Join(parts, " · ") + " since"
}

// askRewindMode asks what to restore: code and conversation, the
// conversation only or the code only.
func (m *model) askRewindMode(t TurnInfo, files, cmds int) {
	code := changeCount(files, cmds)
	items := []pickItem{
		{label: "Restore code and conversation", desc: code,
			run: func(m *model) tea.Cmd { return m.rewind(t.Turn, RewindAll, ConflictsAsk) }},
		{label: "Restore conversation only", desc: "the files stay as they are",
			run: func(m *model) tea.Cmd { return m.rewind(t.Turn, RewindConversation, ConflictsAsk) }},
		{label: "Restore code only", desc: "the conversation stays",
			run: func(m *model) tea.Cmd { return m.rewind(t.Turn, RewindCode, ConflictsAsk) }},
	}
	title := "Rewind to before #" + strconv.Itoa(t.Turn) + ": " + truncate(shortPrompt(t.Text), 50)
	m.openPicker(newPicker(title, m.keys.Up.Help().Key+" · "+firstKey(m.keys.Choose)+" · "+helpText(m.keys.Cancel), items, false))
}

// rewind runs a rewind in the background.
func (m *model) rewind(turn int, mode RewindMode, c ConflictChoice) tea.Cmd {
	s, ctx := m.opts.Sessions, m.ctx
	if m.busy {
		m.setNotice("the agent is working: press "+firstKey(m.keys.Interrupt)+" first, then /rewind", true)
		return nil
	}
	m.busy = true
	m.turnStart = m.rc.now
	m.setNotice("rewinding…", false)
	return func() tea.Msg {
		sw, err := s.Rewind(ctx, turn, mode, c)
		return switchMsg{sw: sw, err: err, what: "rewind", retry: func(c ConflictChoice) tea.Cmd { return m.rewind(turn, mode, c) }}
	}
}

// undoRewind reverses the last rewind in the background.
func (m *model) undoRewind(c ConflictChoice) tea.Cmd {
	s, ctx := m.opts.Sessions, m.ctx
	if m.busy {
		m.setNotice("the agent is working: press "+firstKey(m.keys.Interrupt)+" first, then /rewind", true)
		return nil
	}
	m.busy = true
	m.turnStart = m.rc.now
	m.setNotice("undoing the last rewind…", false)
	return func() tea.Msg {
		sw, err := s.UndoRewind(ctx, c)
		return switchMsg{sw: sw, err: err, what: "undo rewind", retry: func(c ConflictChoice) tea.Cmd { return m.undoRewind(c) }}
	}
}

// askConflicts shows the files changed outside tern and asks before
// overwriting them.
func (m *model) askConflicts(rc *RewindConflicts, retry func(ConflictChoice) tea.Cmd) {
	names := make([]string, len(rc.Paths))
	for i, p := range rc.Paths {
		names[i] = sanitize.Clean(p)
	}
	list := strings.Join(names, ", ")
	keep, them := "Keep them as they are", "them"
	if len(names) == 1 {
		keep, them = "Keep it as it is", "it"
	}
	items := []pickItem{
		{label: keep, desc: "restore every other file",
			run: func(*model) tea.Cmd { return retry(ConflictsKeep) }},
		{label: "Overwrite " + them, desc: "the changes made outside tern are lost (the rewind can be undone)",
			run: func(*model) tea.Cmd { return retry(ConflictsOverwrite) }},
		{label: "Cancel", desc: "change nothing",
			run: func(m *model) tea.Cmd { m.setNotice("rewind cancelled", false); return nil }},
	}
	title := "Changed outside tern since tern wrote " + them + ": " + list
	if strings.TrimSpace(rc.Diffs) != "" {
		m.tr.end()
		m.tr.add(&changesBlock{title: "Changed outside tern since tern wrote " + them + " (overwriting loses this)", diff: sanitize.Clean(rc.Diffs)})
	}
	m.openPicker(newPicker(title, m.keys.Up.Help().Key+" · "+firstKey(m.keys.Choose)+" · "+helpText(m.keys.Cancel), items, false))
}
