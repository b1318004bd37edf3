package tui

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/internal/sanitize"
)

// escWindow is how soon a second esc on an empty input must follow the
// first to open the rewind list.
const escWindow = time.Second

// asConflicts reports whether err is a *app.RewindConflicts and sets *rc.
func asConflicts(err error, rc **app.RewindConflicts) bool { return errors.As(err, rc) }

// turnsMsg carries the turns for the rewind or fork list.
type turnsMsg struct {
	turns *app.Turns
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
	if !m.be.Recorded() {
		m.setNotice(what+": this session is not recorded", true)
		return nil
	}
	if m.busy {
		m.setNotice("the agent is working: press "+firstKey(m.keys.Interrupt)+" first, then /"+what, true)
		return nil
	}
	be, ctx := m.be, m.ctx
	return func() tea.Msg {
		t, err := be.Turns(ctx)
		return turnsMsg{turns: t, err: err, fork: fork}
	}
}

// escEmpty handles esc on an empty input while idle: the second press
// within escWindow opens the rewind list.
func (m *model) escEmpty() tea.Cmd {
	if !m.be.Recorded() {
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
			run:   func(m *model) tea.Cmd { return m.undoRewind(app.ConflictsAsk) },
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
func turnLabel(t app.TurnInfo) string {
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
func (m *model) askRewindMode(t app.TurnInfo, files, cmds int) {
	code := changeCount(files, cmds)
	items := []pickItem{
		{label: "Restore code and conversation", desc: code,
			run: func(m *model) tea.Cmd { return m.rewind(t.Turn, app.RewindAll, app.ConflictsAsk) }},
		{label: "Restore conversation only", desc: "the files stay as they are",
			run: func(m *model) tea.Cmd { return m.rewind(t.Turn, app.RewindConversation, app.ConflictsAsk) }},
		{label: "Restore code only", desc: "the conversation stays",
			run: func(m *model) tea.Cmd { return m.rewind(t.Turn, app.RewindCode, app.ConflictsAsk) }},
	}
	title := "Rewind to before #" + strconv.Itoa(t.Turn) + ": " + truncate(shortPrompt(t.Text), 50)
	m.openPicker(newPicker(title, m.keys.Up.Help().Key+" · "+firstKey(m.keys.Choose)+" · "+helpText(m.keys.Cancel), items, false))
}

// rewind runs a rewind in the background.
func (m *model) rewind(turn int, mode app.RewindMode, c app.ConflictChoice) tea.Cmd {
	be, ctx := m.be, m.ctx
	if m.busy {
		m.setNotice("the agent is working: press "+firstKey(m.keys.Interrupt)+" first, then /rewind", true)
		return nil
	}
	m.busy = true
	m.turnStart = m.rc.now
	m.setNotice("rewinding…", false)
	return func() tea.Msg {
		sw, err := be.Rewind(ctx, turn, mode, c)
		return switchMsg{sw: sw, err: err, what: "rewind", retry: func(c app.ConflictChoice) tea.Cmd { return m.rewind(turn, mode, c) }}
	}
}

// undoRewind reverses the last rewind in the background.
func (m *model) undoRewind(c app.ConflictChoice) tea.Cmd {
	be, ctx := m.be, m.ctx
	if m.busy {
		m.setNotice("the agent is working: press "+firstKey(m.keys.Interrupt)+" first, then /rewind", true)
		return nil
	}
	m.busy = true
	m.turnStart = m.rc.now
	m.setNotice("undoing the last rewind…", false)
	return func() tea.Msg {
		sw, err := be.UndoRewind(ctx, c)
		return switchMsg{sw: sw, err: err, what: "undo rewind", retry: func(c app.ConflictChoice) tea.Cmd { return m.undoRewind(c) }}
	}
}

// askConflicts shows the files changed outside tern and asks before
// overwriting them.
func (m *model) askConflicts(rc *app.RewindConflicts, retry func(app.ConflictChoice) tea.Cmd) {
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
			run: func(*model) tea.Cmd { return retry(app.ConflictsKeep) }},
		{label: "Overwrite " + them, desc: "the changes made outside tern are lost (the rewind can be undone)",
			run: func(*model) tea.Cmd { return retry(app.ConflictsOverwrite) }},
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
