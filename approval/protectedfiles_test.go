package approval

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ternhq/tern/tools/toolstest"
)

// TestProtectedFileTools checks that the file tools ask, under full-auto
// with an allow rule and a grant, for the protected names in any letter
// case: hooks folders, memory files, .git and .tern.
func TestProtectedFileTools(t *testing.T) {
	t.Parallel()
	ws := toolstest.ProtectedWorkspace(t)
	_, edit, _ := fakeTools()
	a, err := newSession(Config{Workspace: ws, Home: "/home/tester",
		Rules: Rules{Allow: []string{"edit_file"}}, TernHome: filepath.Join(ws.Root, "th")})
	if err != nil {
		t.Fatal(err)
	}
	a.grant([]string{editScope.Key})
	for _, tc := range []struct {
		path   string
		always bool
	}{
		{".husky/pre-commit", true},
		{".Husky/pre-commit", true},
		{"scripts/hooks/post-checkout", true},
		{"Scripts/Hooks/post-checkout", true},
		{"AGENTS.md", true},
		{"agents.md", true},
		{"CLAUDE.md", true},
		{"Claude.MD", true},
		{".GIT/config", true},
		{".Git/hooks/pre-commit", true},
		{".TERN/config.toml", true},
		{"th/AGENTS.md", true},
		{"docs/AGENTS.md", false}, // tern does not read memory below the workspace root
		{"scripts/build.sh", false},
		{"main.go", false},
	} {
		args, _ := json.Marshal(map[string]string{"path": tc.path})
		r := a.judge(edit, "edit_file", args, PolicyFullAuto)
		if got := r.Verdict == Ask && r.Always; got != tc.always {
			t.Errorf("%s: verdict %v always %v (%s), want always-ask %v", tc.path, r.Verdict, r.Always, r.Reason, tc.always)
		}
	}
}

// TestProtectedFileToolsIncluded checks that the file tools ask before
// writing a file .git/config includes, a submodule's config or hooks, and
// a protected file named another way: through a link, ./, //, or "..".
func TestProtectedFileToolsIncluded(t *testing.T) {
	t.Parallel()
	ws := toolstest.ProtectedWorkspace(t)
	if err := os.Remove(filepath.Join(ws.Root, "CLAUDE.md")); err != nil {
		t.Fatal(err)
	}
	for _, l := range [][2]string{{".git/config", "x"}, {"AGENTS.md", "y"}, {".git/hooks", "hk"}, {"docs/claude-rules.md", "CLAUDE.md"}} {
		if err := os.Symlink(l[0], filepath.Join(ws.Root, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	for rel, data := range map[string]string{
		".git/config":             "[include]\n\tpath = ../shared.gitconfig\n[submodule \"lib\"]\n\turl = x\n",
		"shared.gitconfig":        "[core]\n\thooksPath = githooks\n",
		".git/modules/lib/config": "\n",
		"docs/claude-rules.md":    "# rules\n",
	} {
		p := filepath.Join(ws.Root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, edit, _ := fakeTools()
	a, err := newSession(Config{Workspace: ws,
		Rules: Rules{Allow: []string{"edit_file"}}})
	if err != nil {
		t.Fatal(err)
	}
	a.grant([]string{editScope.Key})
	for path, always := range map[string]bool{
		"shared.gitconfig":       true,
		"Shared.GitConfig":       true,
		"githooks/pre-commit":    true, // hooksPath set in the included file
		"scripts/hooks/pre-push": false,
		"docs/claude-rules.md":   true, // CLAUDE.md links to it
		"x":                      true, // links to .git/config
		"y":                      true, // links to AGENTS.md
		"hk/post-commit":         true,
		"./AGENTS.md":            true,
		"sub/../AGENTS.md":       true,
		".//.git//config":        true,
		"lib/../.git/config":     true,
		"main.go":                false,
	} {
		args, _ := json.Marshal(map[string]string{"path": path})
		r := a.judge(edit, "edit_file", args, PolicyFullAuto)
		if got := r.Verdict == Ask && r.Always; got != always {
			t.Errorf("%s: verdict %v always %v (%s), want always-ask %v", path, r.Verdict, r.Always, r.Reason, always)
		}
	}
}
