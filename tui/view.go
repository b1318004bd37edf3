package tui

import (
	"fmt"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/ternhq/tern/internal/sanitize"
)

// maxQueuedShown bounds the queued-message lines under the transcript.
const maxQueuedShown = 3

// layout brings everything View shows up to date: the dialog's preview and
// the visible transcript blocks. It runs at the end of every Update.
func (m *model) layout() {
	if m.dlg != nil && (m.dlg.lines == nil || m.dlg.width != m.width) {
		m.dlg.width = m.width
		m.dlg.lines = m.renderPreview(m.width - 4)
		m.dlg.scroll = max(0, min(m.dlg.scroll, len(m.dlg.lines)-m.previewHeight()))
	}
	if m.layoutTranscriptView() {
		return
	}
	m.laidOut = m.transcriptHeight()
	m.tr.ensure(&m.rc, m.laidOut)
}

// chromeHeight is the number of rows below the transcript.
func (m *model) chromeHeight() int {
	h := 1 + 1 + m.input.Height() // status, rule, input
	if m.search != nil {
		h += 1 - m.input.Height() // the search line stands in for the input
	}
	if m.notice != "" || m.remember != "" {
		h++
	}
	h += min(len(m.queued), maxQueuedShown+1)
	if m.queuePaused() {
		h++
	}
	h += m.todoHeight()
	h += len(m.planOfferView())
	if m.pal != nil {
		h += len(m.paletteView())
	}
	if m.pick != nil {
		h += len(m.pickerView())
	}
	if m.dlg != nil && m.dlg.lines != nil {
		h += strings.Count(m.dialogView(), "\n") + 1
	}
	return h
}

// transcriptHeight is the number of rows left for the transcript.
func (m *model) transcriptHeight() int { return max(1, m.height-m.chromeHeight()) }

// View returns the screen, composed again only when something changed.
func (m *model) View() tea.View {
	if !m.viewValid {
		m.view, m.viewValid = m.compose(), true
	}
	v := m.view
	if v.Cursor != nil {
		c := *v.Cursor
		v.Cursor = &c
	}
	return v
}

// compose builds the screen from cached pieces; it renders nothing heavy.
func (m *model) compose() tea.View {
	if m.quitting {
		v := tea.NewView("")
		v.AltScreen = true
		return v
	}
	if m.tv.isOpen() {
		return m.composeTranscriptView()
	}
	th := m.rc.th
	var b strings.Builder
	b.Grow(len(m.view.Content) + 256) // about the last screen's size: no regrowing
	rows := m.transcriptHeight()
	lines := m.tr.view(rows)
	for i := 0; i < rows; i++ {
		if i == rows-1 && m.tr.below {
			b.WriteString(th.warn.Render(truncate("  "+m.keys.followHint(), m.width)))
		} else if i < len(lines) {
			b.WriteString(lines[i])
		}
		b.WriteByte('\n')
	}
	if m.queuePaused() {
		b.WriteString(th.warn.Render(truncate("  ⏸ paused: "+firstKey(m.keys.Send)+" sends, ↑ edits", m.width)) + "\n")
	}
	for i, q := range m.queued {
		if i == maxQueuedShown {
			b.WriteString(th.dim.Render(fmt.Sprintf("  … %d more queued", len(m.queued)-maxQueuedShown)) + "\n")
			break
		}
		b.WriteString(th.dim.Render(truncate("  ⏳ queued: "+strings.ReplaceAll(q, "\n", " ⏎ "), m.width)) + "\n")
	}
	if m.pal != nil {
		for _, l := range m.paletteView() {
			b.WriteString(l + "\n")
		}
	}
	if m.pick != nil {
		for _, l := range m.pickerView() {
			b.WriteString(l + "\n")
		}
	}
	if m.dlg != nil && m.dlg.lines != nil {
		b.WriteString(m.dialogView() + "\n")
	}
	for _, l := range m.todoView() {
		b.WriteString(l + "\n")
	}
	for _, l := range m.planOfferView() {
		b.WriteString(l + "\n")
	}
	if m.ruleWidth != m.width || m.ruleGen != m.rc.gen || m.rule == "" {
		m.rule, m.ruleWidth, m.ruleGen = th.rule.Render(strings.Repeat("─", m.width)), m.width, m.rc.gen
	}
	b.WriteString(m.rule)
	b.WriteByte('\n')
	inputTop := strings.Count(b.String(), "\n")
	if !m.inputViewOK {
		m.drawInput()
	}
	var searchX int
	if m.search != nil {
		var line string
		line, searchX = m.searchView()
		b.WriteString(line + "\n")
	} else {
		b.WriteString(m.inputView)
		b.WriteByte('\n')
	}
	switch {
	case m.remember != "":
		b.WriteString(th.warn.Render(truncate("  "+m.rememberPrompt(), m.width)) + "\n")
	case m.notice != "":
		st := th.info
		if m.noticeBad {
			st = th.bad
		}
		// A notice may quote outside text (a model id, an error): cleaned
		// here, where it is drawn, whoever set it.
		b.WriteString(st.Render(truncate("  "+sanitize.Clean(m.notice), m.width)) + "\n")
	}
	if !m.statusOK {
		m.status, m.statusOK = m.statusLine(), true
		m.statusQuit = m.rc.now.Sub(m.quitAt) < quitWindow
	}
	b.WriteString(m.status)
	v := tea.NewView(b.String())
	v.AltScreen = true
	if m.mouse {
		v.MouseMode = tea.MouseModeCellMotion
	}
	v.WindowTitle = "tern"
	if m.inputCursor != nil && m.dlg == nil && m.pick == nil {
		c := new(*m.inputCursor)
		c.Y += inputTop
		if m.search != nil {
			c.X, c.Y = searchX, inputTop
		}
		v.Cursor = c
	}
	return v
}

// drawInput draws the input into inputView and inputCursor: from the
// textarea's state when it can (inputdraw.go), else by its View.
func (m *model) drawInput() {
	v, c, ok := m.inputDraw.draw(&m.input, m.rc.gen)
	if !ok {
		v, c = m.input.View(), m.input.Cursor()
	}
	m.inputView, m.inputCursor, m.inputViewOK = v, c, true
}

// statusPart is one piece of the status line; when the line is too narrow
// the pieces with the lowest keep value go first.
type statusPart struct {
	text  string
	keep  int
	right bool
	// short replaces text before any part is dropped, when set.
	short string
}

// keepFigures is the keep value from which a part is a figure (token
// counts, context use) or more important: parts that have a short form
// take it before one of those is dropped.
const keepFigures = 3

// shorten replaces the parts that have a short form by it, and reports
// whether there was any.
func shorten(parts []statusPart) bool {
	done := false
	for i, p := range parts {
		if p.short != "" {
			parts[i].text, parts[i].short, done = p.short, "", true
		}
	}
	return done
}

// busyHint is the status line's word, while the agent works, on how to
// stop it or answer the dialog that waits.
func (m *model) busyHint() string {
	km, dk := &m.keys, &m.keys.Dialog
	interrupts := firstKey(km.Clear) + " interrupts"
	switch {
	case m.tv.isOpen():
		return interrupts // esc leaves the transcript view
	case m.dlg == nil:
		return firstKey(km.Interrupt) + " interrupts"
	case m.dlg.req.Keep:
		return firstKey(dk.Allow) + " keeps · " + firstKey(dk.Deny) + " reverts"
	case !offersSession(m.dlg.req):
		return firstKey(dk.Allow) + "/" + firstKey(dk.Deny) + "/" + firstKey(dk.Tell) + " · " + interrupts
	}
	return firstKey(dk.Allow) + "/" + firstKey(dk.Session) + "/" + firstKey(dk.Deny) + "/" + firstKey(dk.Tell) + " · " + interrupts
}

// statusLine shows the model, policy, workspace, usage and activity.
func (m *model) statusLine() string {
	th := m.rc.th
	var parts []statusPart
	if m.opts.Offline {
		parts = append(parts, statusPart{text: m.styled(&th.badge, "offline"), keep: 9})
	}
	parts = append(parts,
		statusPart{text: m.styled(&th.accent, sanitize.Clean(m.be.Model())) + m.effortStatus(), keep: 8},
		statusPart{text: m.policyLabel(), keep: 6},
		statusPart{text: shortPath(m.opts.Workspace, m.getenv("HOME"), 30), keep: 2},
	)
	if p, ok := m.lspBadge(); ok {
		parts = append(parts, p)
	}
	if p, ok := m.mcpStatus(); ok {
		parts = append(parts, p)
	}
	if u := m.usage; u.PromptTokens+u.CompletionTokens > 0 {
		est := m.meter.anyEstimated()
		s := "↑" + approx(est, kilo(u.PromptTokens)) + " ↓" + approx(est, kilo(u.CompletionTokens))
		if u.CachedPromptTokens > 0 {
			s += " (" + kilo(u.CachedPromptTokens) + " cached)"
		}
		parts = append(parts, statusPart{text: s, keep: 3, right: true})
	}
	if c := m.costStatus(); c != "" {
		parts = append(parts, statusPart{text: c, keep: 2, right: true})
	}
	if m.lastIn > 0 {
		parts = append(parts, statusPart{text: m.contextStatus(), keep: 5, right: true})
	}
	switch {
	case m.busy:
		wait, waitShort := m.waitText()
		if waitShort != "" {
			waitShort = m.styled(&th.info, m.rc.spin+" "+waitShort)
		}
		hint := m.busyHint()
		parts = append(parts,
			statusPart{text: m.styled(&th.info, m.rc.spin+" "+wait), short: waitShort, keep: 10, right: true},
			statusPart{text: hint, keep: 2, right: true})
	case m.rc.now.Sub(m.quitAt) < quitWindow:
		parts = append(parts, statusPart{text: m.styled(&th.warn, firstKey(m.keys.Clear)+" again to quit"), keep: 10, right: true})
	default:
		parts = append(parts, statusPart{text: "/help", keep: 1, right: true})
	}
	if m.latest != nil && m.dlg == nil && !m.tv.isOpen() {
		parts = append(parts, statusPart{text: firstKey(m.keys.Transcript) + " transcript", keep: 0, right: true})
	}
	sep := m.styled(&th.status, " · ")
	for {
		var l, r []string
		for _, p := range parts {
			if p.right {
				r = append(r, p.text)
			} else {
				l = append(l, p.text)
			}
		}
		ls, rs := strings.Join(l, sep), strings.Join(r, sep)
		gap := m.width - stringWidth(ls) - stringWidth(rs) - 2
		if gap >= 1 || len(parts) == 1 {
			return m.styled(&th.status, " "+truncate(ls+strings.Repeat(" ", max(1, gap))+rs, m.width-2))
		}
		drop := 0
		for i, p := range parts {
			if p.keep < parts[drop].keep {
				drop = i
			}
		}
		if parts[drop].keep >= keepFigures && shorten(parts) {
			continue // a shorter state before a figure goes
		}
		parts = append(parts[:drop], parts[drop+1:]...)
	}
}

// styled is st.Render(s) for the status line, from its memo.
func (m *model) styled(st *lipgloss.Style, s string) string { return m.memo.render(m.rc.gen, st, s) }

// kilo formats a token count compactly.
func kilo(n int) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 10_000:
		return fmt.Sprintf("%dk", n/1000)
	case n >= 1000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	}
	return fmt.Sprint(n)
}

// shortPath abbreviates a path: ~ for home, and only the last parts when long.
func shortPath(p, home string, maxLen int) string {
	if p == "" {
		return ""
	}
	if home != "" && (p == home || strings.HasPrefix(p, home+string(filepath.Separator))) {
		p = "~" + p[len(home):]
	}
	if len(p) <= maxLen {
		return p
	}
	parts := strings.Split(p, string(filepath.Separator))
	out := parts[len(parts)-1]
	for i := len(parts) - 2; i >= 0; i-- {
		next := parts[i] + string(filepath.Separator) + out
		if len(next)+2 > maxLen {
			break
		}
		out = next
	}
	return "…" + string(filepath.Separator) + out
}

// welcome is the first block: where we are and how to start.
func (m *model) welcome() block {
	th := m.rc.th
	lines := []string{
		th.accent.Render("◆ tern") + th.dim.Render(" · "+shortPath(m.opts.Workspace, m.getenv("HOME"), 60)),
		"Ask for a change, a fix or an explanation of this code.",
		th.dim.Render("/ commands · @ files · ! shell · " + firstKey(m.keys.Interrupt) + " interrupts · /help for keys"),
	}
	if m.opts.Offline {
		lines = append(lines, th.warn.Render("Offline: a scripted provider answers. Set LLM_API_KEY (and LLM_BASE_URL) to use a real model."))
	}
	for _, n := range m.opts.Notices {
		lines = append(lines, th.warn.Render(sanitize.Clean(n)))
	}
	return &noticeBlock{lines: lines}
}
