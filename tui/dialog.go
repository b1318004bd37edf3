package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/sanitize"
	"github.com/ternhq/tern/tools"
)

// The dialog's choices, in the order they are shown.
const (
	optYes = iota
	optSession
	optNo
	optTell
	numOptions
)

// dialog asks the user to approve one tool call.
type dialog struct {
	req     *agent.ApprovalRequest
	shown   time.Time // keys typed right after this were meant for the input
	sel     int
	scroll  int      // first preview line shown
	lines   []string // rendered preview for width; nil when stale
	width   int
	telling bool // typing the message for "deny and tell the model"
}

// nextDialog shows the oldest waiting request, ringing the bell.
func (m *model) nextDialog() tea.Cmd {
	if m.dlg != nil || len(m.pending) == 0 {
		return nil
	}
	m.dlg = &dialog{req: m.pending[0], shown: m.rc.now}
	return tea.Raw("\a")
}

// dropRequest forgets a request that was answered elsewhere.
func (m *model) dropRequest(r *agent.ApprovalRequest) tea.Cmd {
	for i, p := range m.pending {
		if p == r {
			m.pending = append(m.pending[:i], m.pending[i+1:]...)
			break
		}
	}
	if m.dlg != nil && m.dlg.req == r {
		m.closeDialog()
		return m.nextDialog()
	}
	return nil
}

// closeDialog hides the dialog and gives the keyboard back to the input.
func (m *model) closeDialog() {
	m.dlg = nil
	m.deny.Blur()
	m.deny.Reset()
}

// reply answers to the request on screen and moves to the next one.
func (m *model) reply(d agent.Decision) tea.Cmd {
	if m.dlg == nil {
		return nil
	}
	r := m.dlg.req
	r.Reply(d)
	// A subagent's call has no card of its own (its task's card shows it,
	// from the resolved event), and its id may be one of the session's.
	if c, ok := m.cards[r.Call.ID]; ok && r.Subagent == "" && r.Keep {
		keepCardState(c, d)
		m.tr.changed(c)
	} else if ok && r.Subagent == "" {
		switch d.Kind {
		case agent.AllowOnce, agent.AllowSession:
			c.state = cardReady
		case agent.Deny:
			c.state = cardDenied
			c.note = "you denied it"
		case agent.DenyWithMessage:
			c.state = cardDenied
			c.note = "you denied it: " + d.Message
		case agent.Cancelled:
			c.state = cardCancelled
		}
		m.tr.changed(c)
	}
	for i, p := range m.pending {
		if p == r {
			m.pending = append(m.pending[:i], m.pending[i+1:]...)
			break
		}
	}
	m.closeDialog()
	return tea.Batch(m.nextDialog(), m.input.Focus())
}

// choose acts on one of the dialog's options.
func (m *model) choose(opt int) tea.Cmd {
	switch opt {
	case optYes:
		return m.reply(agent.Decision{Kind: agent.AllowOnce})
	case optSession:
		return m.reply(agent.Decision{Kind: agent.AllowSession})
	case optNo:
		return m.reply(agent.Decision{Kind: agent.Deny})
	case optTell:
		m.dlg.telling, m.dlg.sel = true, optTell
		m.input.Blur()
		return m.deny.Focus()
	}
	return nil
}

// onDialogKey handles a key while the dialog is up. Space does nothing:
// approving must be a deliberate key.
func (m *model) onDialogKey(k tea.KeyPressMsg) tea.Cmd {
	d := m.dlg
	km, dk := &m.keys, &m.keys.Dialog
	if d.telling {
		switch {
		case key.Matches(k, km.Send):
			msg := strings.TrimSpace(m.deny.Value())
			if msg == "" {
				return m.reply(agent.Decision{Kind: agent.Deny})
			}
			return m.reply(agent.Decision{Kind: agent.DenyWithMessage, Message: msg})
		case key.Matches(k, km.Cancel):
			d.telling = false
			m.deny.Blur()
			return m.input.Focus()
		}
		var cmd tea.Cmd
		m.deny, cmd = m.deny.Update(k)
		return cmd
	}
	page := max(1, m.previewHeight()-1)
	if m.rc.now.Sub(d.shown) < m.keyGuard && key.Matches(k, dk.Allow, dk.Session, dk.Deny, dk.Tell, km.Choose) {
		// The dialog just appeared, maybe under the fingers of someone typing
		// a message: an answer must not be a stray keystroke.
		return nil
	}
	switch {
	case key.Matches(k, dk.Allow):
		return m.choose(optYes)
	case key.Matches(k, dk.Session):
		if !offersSession(d.req) {
			return nil
		}
		return m.choose(optSession)
	case key.Matches(k, dk.Deny, km.Cancel):
		return m.choose(optNo)
	case key.Matches(k, dk.Tell):
		return m.choose(optTell)
	case key.Matches(k, dk.Left):
		d.sel = stepOption(d.req, d.sel, -1)
	case key.Matches(k, dk.Right):
		d.sel = stepOption(d.req, d.sel, 1)
	case key.Matches(k, km.Choose):
		return m.choose(d.sel)
	case key.Matches(k, km.Up, dk.Up):
		d.scroll--
	case key.Matches(k, km.Down, dk.Down):
		d.scroll++
	case key.Matches(k, km.PageUp):
		d.scroll -= page
	case key.Matches(k, km.PageDown):
		d.scroll += page
	case key.Matches(k, km.Home):
		d.scroll = 0
	case key.Matches(k, km.End):
		d.scroll = len(d.lines)
	}
	d.scroll = max(0, min(d.scroll, len(d.lines)-m.previewHeight()))
	return nil
}

// dialogTitle says what the call will do.
func dialogTitle(r *agent.ApprovalRequest) string {
	if r.Subagent != "" {
		// A subagent's call: say which one asks.
		return "[" + sanitize.Visible(r.Subagent) + "] " + callTitle(r)
	}
	return callTitle(r)
}

// callTitle says what the call will do.
func callTitle(r *agent.ApprovalRequest) string {
	name := sanitize.Visible(r.Call.Name)
	if t := sanitize.Visible(r.Preview.Title); t != "" {
		return t
	}
	switch r.Kind {
	case tools.KindEdit:
		return "edit " + sanitize.Visible(r.Preview.Path)
	case tools.KindShell:
		return "run " + firstLine(sanitize.Visible(r.Preview.Command))
	case tools.KindNetwork:
		return "fetch " + firstLine(sanitize.Visible(r.Preview.URL))
	case tools.KindRead, tools.KindExternal:
		return name
	}
	return name
}

// renderPreview draws the whole preview (diff or command) for width.
func (m *model) renderPreview(width int) []string {
	r := m.dlg.req
	th := m.rc.th
	var out []string
	if u := sanitize.Visible(r.Preview.URL); u != "" {
		// The whole URL, wrapped, never cut: a secret in its query string
		// must be visible before the user approves.
		for _, l := range wrap(u, width-2) {
			out = append(out, th.bold.Render(l))
		}
	}
	if r.Preview.Command != "" {
		for i, l := range wrap(sanitize.Visible(r.Preview.Command), width-2) {
			p := "$ "
			if i > 0 {
				p = "  "
			}
			out = append(out, th.dim.Render(p)+th.bold.Render(l))
		}
		if wd := sanitize.Visible(r.Preview.Workdir); wd != "" && wd != "." {
			out = append(out, th.dim.Render("in "+wd))
		}
	}
	switch {
	case r.Preview.Diff != "" && r.Keep:
		out = append(out, keepDiff(&m.rc, sanitize.Visible(r.Preview.Diff), width)...)
	case r.Preview.Diff != "":
		lines, _ := renderDiff(&m.rc, sanitize.Visible(r.Preview.Diff), width, 0, true)
		out = append(out, lines...)
	}
	if len(out) == 0 && len(r.Call.Args) > 0 {
		for _, l := range strings.Split(prettyArgs(r.Call.Args), "\n") {
			out = append(out, wrap(sanitize.Visible(l), width)...)
		}
	}
	return out
}

// previewHeight is how many preview lines fit: the dialog may take the
// screen down to three transcript lines.
func (m *model) previewHeight() int {
	if m.dlg == nil {
		return 0
	}
	fixed := 1 + 3 + m.input.Height() + 1 + 6 // status, rule+notice, input, borders/title/options/hint
	if m.dlg.req.Always {
		fixed += 2
	}
	return max(3, min(len(m.dlg.lines), m.height-fixed-3))
}

// dialogView draws the dialog; the preview must be rendered (layout does it).
func (m *model) dialogView() string {
	d := m.dlg
	th := m.rc.th
	inner := m.width - 4
	var b strings.Builder
	title := "Allow " + th.cardTitle.Render(sanitize.Visible(d.req.Call.Name)) + ": " + th.cardArg.Render(truncate(dialogTitle(d.req), inner-20)) + "?"
	if d.req.Keep {
		title = keepTitle(d.req, th)
	}
	b.WriteString(title)
	if d.req.Always {
		reason := alwaysReason(d.req)
		for _, l := range wrap("⚠ "+reason, inner) {
			b.WriteString("\n" + th.bad.Render(l))
		}
	}
	h := m.previewHeight()
	end := min(len(d.lines), d.scroll+h)
	for _, l := range d.lines[d.scroll:end] {
		b.WriteString("\n" + l)
	}
	if len(d.lines) > h {
		b.WriteString("\n" + th.dim.Render(fmt.Sprintf("lines %d–%d of %d · %s %s to scroll", d.scroll+1, end, len(d.lines), m.keys.Up.Help().Key, m.keys.PageUp.Help().Key)))
	}
	b.WriteString("\n")
	if d.telling {
		b.WriteString(th.warn.Render("Tell the model what to do instead ("+m.keys.Send.Help().Key+" sends, "+m.keys.Cancel.Help().Key+" goes back):") + "\n" + m.deny.View())
	} else {
		scope := sanitize.Visible(d.req.Scope.Label)
		if scope == "" {
			scope = "this kind of call"
		}
		dk := &m.keys.Dialog
		opts := [numOptions]string{
			"Yes (" + firstKey(dk.Allow) + ")",
			"Yes, and allow " + scope + " for this session (" + firstKey(dk.Session) + ")",
			"No (" + firstKey(dk.Deny) + ")",
			"No, and tell the model… (" + firstKey(dk.Tell) + ")",
		}
		switch {
		case d.req.Keep:
			opts = keepOptions(dk)
		case d.req.Always:
			opts[optSession] = ""
		}
		var parts []string
		for i, o := range opts {
			if o == "" {
				continue
			}
			st := th.option
			if i == d.sel {
				st = th.optionSel
			}
			parts = append(parts, st.Render(o))
		}
		b.WriteString(strings.Join(wrapJoin(parts, inner), "\n"))
	}
	return th.dialogBorder.Width(m.width).Render(b.String())
}

// alwaysReason says why a request asks under every policy; for a command
// it starts "always asks:", in place of the session grant it cannot offer.
func alwaysReason(r *agent.ApprovalRequest) string {
	reason := sanitize.Visible(r.Reason)
	if r.Keep {
		return reason
	}
	if reason == "" {
		return "always asks"
	}
	if rest, ok := strings.CutPrefix(reason, "This "); ok {
		reason = "this " + rest
	}
	return "always asks: " + reason
}

// wrapJoin lays out styled pieces left to right, starting a new line when
// the next one does not fit.
func wrapJoin(parts []string, width int) []string {
	var lines []string
	cur, curW := "", 0
	for _, p := range parts {
		w := stringWidth(p)
		if curW > 0 && curW+1+w > width {
			lines = append(lines, cur)
			cur, curW = "", 0
		}
		if curW > 0 {
			cur += " "
			curW++
		}
		cur += p
		curW += w
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}
