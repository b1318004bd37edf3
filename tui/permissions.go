package tui

import (
	"cmp"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/sanitize"
	"github.com/ternhq/tern/tools/hooks"
)

// PermissionsInfo is what /permissions shows beside the session's own
// state: where the settings came from, and the shell sandbox.
type PermissionsInfo struct {
	// Policy is the policy the session started with and PolicySource where
	// it came from ("--approval", "config.toml (path)", "default"); a
	// different policy now was chosen with /approval.
	Policy       agent.Policy
	PolicySource string
	// RulesSource is where the allow and deny rules came from (the config
	// file); "" when there are none.
	RulesSource string
	Sandbox     SandboxInfo
}

// SandboxInfo is the state of the shell sandbox.
type SandboxInfo struct {
	// Active is true when commands (the model's and `!` ones) run confined.
	Active bool
	// Summary says in one line whether commands are confined, and how or
	// why not (sandbox.Status.Summary).
	Summary string
	// NetworkBlocked is true when confined commands have no network.
	NetworkBlocked bool
	// Writable are the folders confined commands may write besides the
	// workspace, the session's TMPDIR and the toolchain caches.
	Writable []string
	// DenyRead are the paths confined commands may not read.
	DenyRead []string
}

// permissionsTitle heads the grants list.
const permissionsTitle = "Session grants"

// cmdPermissions shows what decides whether a call asks, and lists the
// session grants so one can be revoked.
func (m *model) cmdPermissions(string) tea.Cmd {
	p := m.be.Permissions()
	info := m.opts.Permissions
	th := m.rc.th
	const col = 20
	row := func(label, value string) string {
		return "  " + label + strings.Repeat(" ", max(1, col-len(label))) + value
	}
	lines := []string{th.bold.Render("Permissions")}
	src := ""
	switch {
	case info.Policy != 0 && p.Policy != info.Policy:
		src = "changed in this session with /approval"
	case info.PolicySource != "":
		src = "from " + sanitize.Clean(info.PolicySource)
	}
	if src != "" {
		src = th.dim.Render(" (" + src + ")")
	}
	lines = append(lines, row("approval policy", p.Policy.String()+" — "+policyDesc(p.Policy)+src))
	if p.SkipApprovals {
		lines = append(lines, row("skip approvals", th.bad.Render("on (--dangerously-skip-approvals): even always-ask commands run unasked")))
	}
	if p.Policy != agent.PolicyReadOnly {
		lines = append(lines, row("read-only commands", "run unasked (ls, cat, head, wc, grep, rg, find, git status/log/diff/show/blame, …)"))
	}
	rules := func(label string, list []string) {
		if len(list) == 0 {
			lines = append(lines, row(label, th.dim.Render("none")))
			return
		}
		from := ""
		if info.RulesSource != "" {
			from = th.dim.Render("  from " + sanitize.Clean(info.RulesSource))
		}
		for i, r := range list {
			l := label
			if i > 0 {
				l = ""
			}
			v := sanitize.Clean(r)
			if i == 0 {
				v += from
			}
			lines = append(lines, row(l, v))
		}
	}
	rules("allow rules", p.Allow)
	rules("deny rules", p.Deny)
	if len(p.Grants) == 0 {
		lines = append(lines, row("session grants", th.dim.Render("none (answer a in an approval dialog to add one)")))
	} else {
		lines = append(lines, row("session grants", itoa(len(p.Grants))+th.dim.Render(" — listed below: d revokes one")))
	}
	lines = append(lines, m.sandboxLines(row)...)
	lines = append(lines, hookLines(p.Hooks, row, th.dim.Render)...)
	m.tr.end()
	m.tr.add(&noticeBlock{lines: lines, hangs: slices.Repeat([]int{col + 2}, len(lines))})
	m.openGrants(p.Grants)
	return nil
}

// sandboxLines describe the shell sandbox.
func (m *model) sandboxLines(row func(label, value string) string) []string {
	sb := m.opts.Permissions.Sandbox
	th := m.rc.th
	// The summary says on or off itself, with why.
	state := cmp.Or(sanitize.Clean(sb.Summary), "off")
	if sb.Active {
		state = th.ok.Render(cmp.Or(sanitize.Clean(sb.Summary), "on"))
	} else {
		state = th.warn.Render(state)
	}
	out := []string{row("sandbox", state)}
	if !sb.Active {
		return out
	}
	net := "allowed"
	if sb.NetworkBlocked {
		net = "blocked"
	}
	writable := "the workspace, the session's TMPDIR, the toolchain caches"
	for _, w := range sb.Writable {
		writable += ", " + sanitize.Clean(w)
	}
	out = append(out, row("network", net), row("writable", writable))
	if len(sb.DenyRead) > 0 {
		out = append(out, row("unreadable", sanitize.Clean(strings.Join(sb.DenyRead, ", "))))
	}
	return out
}

// openGrants lists the session grants in a picker where d or delete
// revokes the selected one; nothing opens when there are none.
func (m *model) openGrants(grants []agent.Grant) {
	if len(grants) == 0 {
		return
	}
	items := make([]pickItem, 0, len(grants))
	for _, g := range grants {
		key, label := g.Key, sanitize.Clean(g.Label)
		items = append(items, pickItem{
			label: label,
			desc:  sanitize.Clean(key),
			run:   func(*model) tea.Cmd { return nil },
			del:   func(m *model) tea.Cmd { return m.revokeGrant(key, label) },
		})
	}
	m.openPicker(newPicker(permissionsTitle, firstKey(m.keys.Picker.Remove)+" revokes · "+firstKey(m.keys.Cancel)+" closes", items, false))
}

// revokeGrant takes a grant back and shows what is left.
func (m *model) revokeGrant(key, label string) tea.Cmd {
	if !m.be.Revoke(key) {
		m.setNotice("that grant was already gone", true)
	} else {
		m.setNotice("revoked: "+label+" — they ask again", false)
	}
	m.openGrants(m.be.Permissions().Grants)
	return nil
}

// hookLines list the user's hooks, if any: event (and tool glob), command,
// and the file and line that configure it; they run outside the sandbox.
func hookLines(hs []hooks.Hook, row func(label, value string) string, dim func(...string) string) []string {
	var out []string
	for i, h := range hs {
		label := ""
		if i == 0 {
			label = "hooks"
		}
		on := string(h.Event)
		if h.Match != "" {
			on += " " + h.Match
		}
		out = append(out, row(label, sanitize.Clean(on+": "+h.Command)+dim("  "+sanitize.Clean(h.Where())+" · outside the sandbox")))
	}
	return out
}
