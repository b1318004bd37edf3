package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tools/hooks"
)

// setPerms gives the fake backend's policy, rules and grants.
func (f *fakeBackend) setPerms(p agent.Permissions) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.perms = p
}

// permsInfo is a configuration with a sandbox and rules from a file.
var permsInfo = PermissionsInfo{
	Policy: agent.PolicyAsk, PolicySource: "flag --approval", RulesSource: "config /home/u/.tern/config.toml",
	Sandbox: SandboxInfo{Active: true, Summary: "on (Landlock ABI 5): commands write only in the workspace", NetworkBlocked: true,
		Writable: []string{"/srv/cache"}, DenyRead: []string{"/home/u/.ssh"}},
}

// twoGrants are the grants of the tests.
var twoGrants = []agent.Grant{
	{Key: "edit", Label: "edits inside this workspace"},
	{Key: "run_shell:go test", Label: "commands starting with `go test`"},
}

// TestPermissionsCommand: /permissions shows the policy and where it came
// from, the rules and their file, the grants and the sandbox, and lists
// the grants so d or delete revokes one through the backend.
func TestPermissionsCommand(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		policy  agent.Policy
		info    PermissionsInfo
		grants  []agent.Grant
		keys    []tea.KeyPressMsg
		want    []string
		not     []string
		left    int  // grants the backend holds after the keys
		picking bool // the grants list is still open
	}{
		{"everything shown", agent.PolicyAsk, permsInfo, twoGrants, nil,
			[]string{"approval policy", "ask — ask before edits and commands (from flag --",
				"make *", "from config /home/u/.tern/config.toml", "rm -rf *", "read-only commands",
				"session grants", "2 — listed below: d revokes one", "sandbox", "on (Landlock ABI 5): commands write",
				"network", "blocked", "/srv/cache", "unreadable", "/home/u/.ssh",
				"Session grants", "edits inside this workspace", "commands starting with `go test`"},
			nil, 2, true},
		{"d revokes the selected grant", agent.PolicyAsk, permsInfo, twoGrants, []tea.KeyPressMsg{{Code: 'd', Text: "d"}},
			[]string{"revoked: edits inside this workspace", "Session grants", "run_shell:go test"}, nil, 1, true},
		{"delete revokes, down moves", agent.PolicyAsk, permsInfo, twoGrants, []tea.KeyPressMsg{{Code: tea.KeyDown}, {Code: tea.KeyDelete}},
			[]string{"revoked: commands starting with `go test`"}, nil, 1, true},
		{"the last revoked closes the list", agent.PolicyAsk, permsInfo, twoGrants,
			[]tea.KeyPressMsg{{Code: 'd', Text: "d"}, {Code: 'd', Text: "d"}}, []string{"revoked: commands starting with `go test`"}, nil, 0, false},
		{"esc closes without revoking", agent.PolicyAsk, permsInfo, twoGrants, []tea.KeyPressMsg{{Code: tea.KeyEscape}}, nil, nil, 2, false},
		{"no grants, no list", agent.PolicyAsk, permsInfo, nil, nil,
			[]string{"none (answer a in an approval dialog to add one)"}, []string{"Session grants"}, 0, false},
		{"policy changed with /approval", agent.PolicyFullAuto, permsInfo, nil, nil,
			[]string{"full-auto", "changed in this session with /approval"}, nil, 0, false},
		{"sandbox off", agent.PolicyAsk, PermissionsInfo{PolicySource: "default", Sandbox: SandboxInfo{Summary: "unavailable: no Landlock"}}, nil, nil,
			[]string{"unavailable: no Landlock", "allow rules", "none"}, []string{"network", "writable"}, 0, false},
		{"read-only policy", agent.PolicyReadOnly, PermissionsInfo{Policy: agent.PolicyReadOnly}, nil, nil,
			[]string{"read-only — edits and commands are refused"}, []string{"read-only commands"}, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, fb := newTestModel(t, Options{Permissions: tc.info})
			fb.SetPolicy(tc.policy)
			p := agent.Permissions{Allow: []string{"run_shell:make *"}, Deny: []string{"run_shell:rm -rf *"},
				Grants: append([]agent.Grant(nil), tc.grants...)}
			if tc.info.RulesSource == "" {
				p.Allow, p.Deny = nil, nil
			}
			fb.setPerms(p)
			typeText(m, "/permissions")
			press(m, keyEnter)
			for _, k := range tc.keys {
				press(m, k)
			}
			s := screen(m)
			for _, want := range tc.want {
				if !strings.Contains(s, want) {
					t.Errorf("lacks %q:\n%s", want, s)
				}
			}
			for _, not := range tc.not {
				if strings.Contains(s, not) {
					t.Errorf("shows %q:\n%s", not, s)
				}
			}
			if got := len(fb.Permissions().Grants); got != tc.left {
				t.Errorf("%d grants left, want %d", got, tc.left)
			}
			if got := m.pick != nil; got != tc.picking {
				t.Errorf("grants list open: %v, want %v", got, tc.picking)
			}
			if len(fb.sent()) != 0 {
				t.Errorf("/permissions went to the model: %q", fb.sent())
			}
		})
	}
}

// TestGoldenPermissions: the /permissions block and its grants list.
func TestGoldenPermissions(t *testing.T) {
	t.Parallel()
	goldenRun(t, 80, 24, Options{Permissions: permsInfo}, func(tm *teatest.TestModel, fb *fakeBackend) {
		fb.setPerms(agent.Permissions{Allow: []string{"run_shell:make *"}, Deny: []string{"run_shell:rm -rf *"}, Grants: twoGrants})
		tm.Type("/permissions")
		tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
		waitFor(t, tm, "d revokes · esc closes")
	})
}

func TestPermissionsListsHooks(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	fb.setPerms(agent.Permissions{Hooks: []hooks.Hook{
		{Event: hooks.BeforeTool, Match: "run_shell", Command: "./scripts/guard.sh", Source: "/home/u/.tern/config.toml", Line: 12},
		{Event: hooks.AfterTool, Match: "edit_*", Command: "gofmt -l .", Source: "/repo/.tern/config.toml", Line: 3},
	}})
	typeText(m, "/permissions")
	press(m, keyEnter)
	s := screen(m)
	for _, want := range []string{"hooks", "before_tool run_shell: ./scripts/guard.sh", "/home/u/.tern/config.toml:12", "after_tool edit_*: gofmt -l .", "/repo/.tern/config.toml:3"} {
		if !strings.Contains(s, want) {
			t.Errorf("lacks %q:\n%s", want, s)
		}
	}
}
