package tui

import (
	"errors"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/internal/sanitize"
)

// diffMsg carries the session's changes for /diff.
type diffMsg struct {
	diff string
	err  error
}

// undoMsg carries what /undo did.
type undoMsg struct {
	summary string
	err     error
	force   bool
}

func (m *model) cmdExport(args string) tea.Cmd {
	if !m.be.Recorded() {
		m.setNotice("export: this session is not recorded", true)
		return nil
	}
	be := m.be
	m.setNotice("exporting…", false)
	return func() tea.Msg {
		path, err := be.Export(args)
		if err != nil {
			return noticeMsg{text: "export: " + sanitize.Clean(err.Error()), bad: true}
		}
		return noticeMsg{text: "exported to " + sanitize.Clean(path)}
	}
}

func (m *model) cmdDiff(string) tea.Cmd {
	if !m.be.Recorded() {
		m.setNotice("diff: this session is not recorded", true)
		return nil
	}
	be, ctx := m.be, m.ctx
	m.setNotice("collecting changes…", false)
	return func() tea.Msg {
		d, err := be.Diff(ctx)
		return diffMsg{diff: d, err: err}
	}
}

// onDiff shows the session's changes as a card.
func (m *model) onDiff(msg diffMsg) {
	switch {
	case msg.err != nil:
		m.setNotice("diff: "+sanitize.Clean(msg.err.Error()), true)
	case strings.TrimSpace(msg.diff) == "":
		m.setNotice("no files changed in this session", false)
	default:
		m.notice = ""
		m.tr.end()
		m.tr.add(&changesBlock{diff: sanitize.Clean(msg.diff)})
	}
}

func (m *model) cmdUndo(args string) tea.Cmd {
	if !m.be.Recorded() {
		m.setNotice("undo: this session is not recorded", true)
		return nil
	}
	force := strings.EqualFold(args, "force")
	if args != "" && !force {
		m.setNotice("undo takes no argument but force", true)
		return nil
	}
	if m.busy {
		m.setNotice("the agent is working: press "+firstKey(m.keys.Interrupt)+" first, then /undo", true)
		return nil
	}
	be, ctx := m.be, m.ctx
	m.busy = true // nothing may start while files are put back
	m.turnStart = m.rc.now
	m.setNotice("undoing the last turn's file changes…", false)
	return func() tea.Msg {
		s, err := be.Undo(ctx, force)
		return undoMsg{summary: s, err: err, force: force}
	}
}

// onUndo says what /undo did, or which files stopped it.
func (m *model) onUndo(msg undoMsg) tea.Cmd {
	m.busy = false
	var uc *app.UndoConflicts
	switch {
	case errors.As(msg.err, &uc):
		m.setNotice("undo stopped: "+sanitize.Clean(strings.Join(uc.Paths, ", "))+
			" changed outside tern; /undo force overwrites them", true)
	case msg.err != nil:
		m.setNotice(sanitize.Clean(msg.err.Error()), true) // Undo's errors say what failed
	default:
		m.setNotice(sanitize.Clean(msg.summary), false)
	}
	return m.sendQueued()
}

// changesBlock is /diff's card: each changed file's unified diff under its
// path, coloured like the tool cards' diffs.
type changesBlock struct {
	cache
	// title heads the card; "" is /diff's.
	title string
	diff  string
}

func (b *changesBlock) cacheRef() *cache { return &b.cache }

func (b *changesBlock) render(rc *renderCtx) []string {
	title := b.title
	if title == "" {
		title = "Changes in this session"
	}
	out := []string{rc.th.bold.Render(title)}
	for _, f := range splitFiles(b.diff) {
		out = append(out, "", "  "+rc.th.bold.Render(f.path))
		if f.body == "" {
			continue
		}
		lines, _ := renderDiff(rc, f.body, rc.width-4, 0, false)
		for _, l := range lines {
			out = append(out, "  "+l)
		}
	}
	return append(out, "")
}

// fileDiff is one file's part of a concatenated diff.
type fileDiff struct {
	path, body string
}

// splitFiles cuts a concatenation of unified diffs at its "--- " headers.
// Lines outside any diff (e.g. "Binary file x changed") become a file of
// their own with no body.
func splitFiles(d string) []fileDiff {
	var out []fileDiff
	var cur *fileDiff
	var body strings.Builder
	flush := func() {
		if cur != nil {
			cur.body = body.String()
			out = append(out, *cur)
		}
		cur = nil
		body.Reset()
	}
	for l := range strings.SplitSeq(strings.TrimRight(d, "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "--- "):
			flush()
			cur = &fileDiff{path: strings.TrimPrefix(strings.TrimPrefix(l, "--- "), "a/")}
		case strings.HasPrefix(l, "+++ ") && cur != nil && body.Len() == 0:
			if p := strings.TrimPrefix(strings.TrimPrefix(l, "+++ "), "b/"); p != "/dev/null" {
				cur.path = p
			}
		case cur == nil:
			if strings.TrimSpace(l) != "" {
				out = append(out, fileDiff{path: l})
			}
		default:
			body.WriteString(l + "\n")
		}
	}
	flush()
	return out
}
