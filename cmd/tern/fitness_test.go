package main

import (
	"bufio"
	"errors"
	"fmt"
	"go/build"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The architecture's fitness rules. Each says which packages may not import
// what, and why; TestArchitecture checks them over every package of the
// module, so a layer that reaches across fails the build's tests by itself.
//
// Package names are module-relative ("agent", "tools/sandbox"); an import
// named by a rule covers its sub-packages too ("tui" covers "tui/markdown",
// "net/http" covers "net/http/httputil").
//
// Rules look at production files only unless tests is set: a test may import
// an implementation to exercise the real stack end to end (the agent's soak
// test drives provider/openai through an httptest gateway), and what ships is
// what the layers promise.

// layerRule is one fitness rule.
type layerRule struct {
	name string
	// imports are the import paths the rule is about, module-relative for
	// the module's own packages (see modulePath).
	imports []string
	// applies reports whether the rule constrains the module package pkg.
	applies func(pkg string) bool
	// tests extends the rule to _test.go files.
	tests  bool
	reason string
}

// modulePrefix marks a module-relative import in a rule's imports.
const modulePrefix = "./"

var (
	bubbleTea = []string{"charm.land/bubbletea/v2", "charm.land/bubbles/v2", "charm.land/lipgloss/v2"}
	providers = []string{modulePrefix + "provider/openai", modulePrefix + "provider/mock"}
)

var layerRules = []layerRule{
	{
		name:    "os/exec only in tools, session and the TUI",
		imports: []string{"os/exec"},
		applies: func(pkg string) bool { return !under(pkg, "tools") && !under(pkg, "session") && pkg != "tui" },
		reason: "commands the model chooses must all go through tools (run_shell, the sandbox launcher in tools/sandbox), " +
			"where the workspace guard, approvals, process-group kills and the Landlock sandbox apply; a package running " +
			"commands on its own is a way around all of them. session may run git for its shadow snapshots. tui (the package " +
			"itself, not its sub-packages) runs only what the user asked for by a key: their $EDITOR and the clipboard " +
			"helper (wl-copy, xclip, pbcopy), never a model-chosen command. Another package that truly needs os/exec gets " +
			"a named exception here, with its reason",
	},
	{
		name:    "go-openai only in provider/openai",
		imports: []string{"github.com/sashabaranov/go-openai"},
		applies: except("provider/openai"),
		tests:   true,
		reason: "no vendor type crosses out of its provider package: everyone else codes against the provider package's " +
			"own types, so a gateway quirk or a library upgrade stays in one place (tests included: a test elsewhere " +
			"importing it would be the first step of a leak)",
	},
	{
		name:    "net/http only in provider/openai, tools/mcp and tools/fetch",
		imports: []string{"net/http"},
		applies: except("provider/openai", "tools/mcp", "tools/fetch"),
		reason: "tern talks to the network only to reach the model's gateway, the MCP servers the user configured " +
			"(tools/mcp, whose every call goes through approvals), and for web_fetch; a package that could make HTTP " +
			"requests on its own is a way to exfiltrate the workspace that no approval sees. tools/fetch is web_fetch's " +
			"client and nothing else: the tool asks for approval under ask and auto-edit (the dialog shows the whole URL), " +
			"and the client refuses private and metadata addresses at connect time. Tests use net/http/httptest freely",
	},
	{
		name:    "Bubble Tea only in tui and cmd/tern",
		imports: bubbleTea,
		applies: except("tui", "cmd/tern"),
		reason: "the agent knows no terminal: the same loop serves the full-screen interface, `tern run` and its " +
			"--json stream, so only the TUI (and cmd/tern, which starts it) may depend on Bubble Tea, Bubbles, Lip Gloss " +
			"or Glamour",
	},
	{
		name:    "provider implementations only in cmd/tern",
		imports: providers,
		applies: except("cmd/tern"),
		reason: "cmd/tern wires the layers and nothing else does: the agent gets a provider.Provider and never knows " +
			"which one, and the TUI never calls a provider (it renders the agent's events)",
	},
	{
		name:    "agent imports no tui",
		imports: []string{modulePrefix + "tui"},
		applies: within("agent"),
		reason:  "events flow one way, from the agent to the interface; an agent that knew the TUI could not serve `tern run` or tests",
	},
	{
		name:    "agent imports no provider implementation",
		imports: providers,
		applies: within("agent"),
		reason:  "the agent drives any provider.Provider; naming an implementation would tie the loop to one gateway or to the offline scenes",
	},
	{
		name:    "session imports no tui",
		imports: []string{modulePrefix + "tui"},
		applies: within("session"),
		reason:  "the session log records the agent's conversation and events, not what a screen showed, so `tern run` and resume work without a terminal",
	},
	{
		name: "approval imports nothing above it",
		imports: []string{modulePrefix + "agent", modulePrefix + "tui", modulePrefix + "provider", modulePrefix + "session",
			modulePrefix + "cmd"},
		applies: within("approval"),
		tests:   true,
		reason: "the approval engine is pure, a call in and a ruling out: the agent, which asks the user, records grants and " +
			"emits events, calls it and never the reverse, so it can be read and tested alone (its tests too: they judge " +
			"calls without an agent) and no session state or interface leaks into what decides whether a command runs. " +
			"It may use tools (tool kinds, the workspace, the protected paths), the layer below both",
	},
	{
		name: "tools imports nothing above it",
		imports: []string{modulePrefix + "agent", modulePrefix + "approval", modulePrefix + "tui", modulePrefix + "provider",
			modulePrefix + "cmd"},
		applies: within("tools"),
		reason: "tools is the bottom layer: the agent calls tools, never the reverse, and tools.Spec mirrors " +
			"provider.ToolSpec precisely so the tools need no provider package",
	},
	{
		name:    "internal/app imports no front end",
		imports: []string{modulePrefix + "tui", modulePrefix + "cmd", modulePrefix + "internal/acp"},
		applies: within("internal/app"),
		tests:   true,
		reason: "internal/app is the one session service that the interface, `tern run` and `tern acp` all drive; " +
			"a service that knew one of its front ends could not serve the others the same way",
	},
	{
		name:    "only front ends use internal/app",
		imports: []string{modulePrefix + "internal/app"},
		applies: within("agent", "approval", "tools", "session", "provider"),
		tests:   true,
		reason: "the layers under the session service (the agent loop, approvals, tools, the log, providers) know " +
			"nothing of sessions being created, switched or rewound; only the front ends above drive it",
	},
	{
		name:    "front ends reach the session log through internal/app",
		imports: []string{modulePrefix + "session"},
		applies: within("tui", "cmd/tern/headless", "internal/acp"),
		reason: "loading, recording, switching and rewinding a session happen in one place, internal/app, so every " +
			"front end resumes and records a session the same way; a front end reading the log itself would be a second way",
	},
	{
		name:    "nothing imports cmd/tern",
		imports: []string{modulePrefix + "cmd"},
		applies: except("cmd"),
		reason:  "cmd/tern is the top: flags, configuration and subcommands; a layer reading tern's configuration or flags directly would bypass the options the wiring passes down",
	},
	{
		name:    "provider/providertest only in tests",
		imports: []string{modulePrefix + "provider/providertest"},
		applies: except("provider/providertest"),
		reason:  "provider/providertest is the scripted fake provider the tests share; shipped code answering from scripts would be a mock, and provider/mock is the offline provider that ships",
	},
	{
		name:    "tools/toolstest only in tests",
		imports: []string{modulePrefix + "tools/toolstest"},
		applies: except("tools/toolstest"),
		reason:  "tools/toolstest builds the workspaces the tests of several packages share; shipped code has no use for a fixture",
	},
}

// except applies a rule to every package but the named ones and their sub-packages.
func except(allowed ...string) func(string) bool {
	return func(pkg string) bool {
		return !slices.ContainsFunc(allowed, func(a string) bool { return under(pkg, a) })
	}
}

// within applies a rule to the named packages and their sub-packages.
func within(pkgs ...string) func(string) bool {
	return func(pkg string) bool { return slices.ContainsFunc(pkgs, func(p string) bool { return under(pkg, p) }) }
}

// under reports whether path is base or one of its sub-packages.
func under(path, base string) bool {
	return path == base || strings.HasPrefix(path, base+"/")
}

// importEdge is one import of one file.
type importEdge struct {
	path string // module-relative with modulePrefix for the module's packages
	pos  string // file:line
	test bool
}

// violation is a rule broken by one import.
type violation struct {
	rule string
	pkg  string
	edge importEdge
}

func (v violation) String() string {
	return fmt.Sprintf("%s: package %s imports %s", v.edge.pos, v.pkg, v.edge.path)
}

// checkRules returns the violations of rules in graph, which maps a module
// package to its imports.
func checkRules(rules []layerRule, graph map[string][]importEdge) []violation {
	pkgs := make([]string, 0, len(graph))
	for p := range graph {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	var out []violation
	for _, r := range rules {
		for _, pkg := range pkgs {
			if !r.applies(pkg) {
				continue
			}
			for _, e := range graph[pkg] {
				if e.test && !r.tests {
					continue
				}
				if slices.ContainsFunc(r.imports, func(imp string) bool { return under(e.path, imp) }) {
					out = append(out, violation{rule: r.name, pkg: pkg, edge: e})
				}
			}
		}
	}
	return out
}

// fitnessPlatforms are the targets whose files count: a file built only on
// one of them still ships there.
var fitnessPlatforms = [][2]string{{"linux", "amd64"}, {"darwin", "arm64"}, {"windows", "amd64"}, {"freebsd", "amd64"}}

// loadImportGraph reads the imports of every package of the module at root,
// honouring build constraints for each of fitnessPlatforms.
func loadImportGraph(root, module string) (map[string][]importEdge, error) {
	graph := make(map[string][]importEdge)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		if path != root {
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // a nested module is not this module's package
			}
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		edges, found, err := dirImports(path, root, module)
		if err != nil {
			return err
		}
		if found {
			graph[filepath.ToSlash(rel)] = edges
		}
		return nil
	})
	return graph, err
}

// dirImports returns the imports of the package in dir on any of the
// platforms, and whether dir holds a package at all.
func dirImports(dir, root, module string) ([]importEdge, bool, error) {
	seen := make(map[importEdge]bool)
	var edges []importEdge
	found := false
	for _, pl := range fitnessPlatforms {
		ctx := build.Default
		ctx.GOOS, ctx.GOARCH = pl[0], pl[1]
		ctx.CgoEnabled = false
		p, err := ctx.ImportDir(dir, 0)
		if err != nil {
			if _, ok := errors.AsType[*build.NoGoError](err); !ok {
				return nil, false, fmt.Errorf("%s: %w", dir, err)
			}
		}
		if p == nil {
			continue
		}
		for _, set := range []struct {
			pos  map[string][]token.Position
			test bool
		}{{p.ImportPos, false}, {p.TestImportPos, true}, {p.XTestImportPos, true}} {
			for imp, poss := range set.pos {
				found = true
				path := imp
				if under(imp, module) {
					path = modulePrefix + strings.TrimPrefix(strings.TrimPrefix(imp, module), "/")
				}
				for _, ps := range poss {
					file, err := filepath.Rel(root, ps.Filename)
					if err != nil {
						file = ps.Filename
					}
					e := importEdge{path: path, pos: fmt.Sprintf("%s:%d", filepath.ToSlash(file), ps.Line), test: set.test}
					if !seen[e] {
						seen[e] = true
						edges = append(edges, e)
					}
				}
			}
		}
		if len(p.GoFiles)+len(p.TestGoFiles)+len(p.XTestGoFiles) > 0 {
			found = true
		}
	}
	sort.Slice(edges, func(i, j int) bool {
		return edges[i].pos < edges[j].pos || edges[i].pos == edges[j].pos && edges[i].path < edges[j].path
	})
	return edges, found, nil
}

// modulePath reads the module path from go.mod in root.
func modulePath(root string) (string, error) {
	f, err := os.Open(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	defer func() { _ = f.Close() }()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(m), `"`), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", errors.New("go.mod has no module line")
}

// moduleRoot finds the directory holding go.mod above the test's directory.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test directory")
		}
		dir = parent
	}
}

func TestArchitecture(t *testing.T) {
	t.Parallel()
	root := moduleRoot(t)
	module, err := modulePath(root)
	if err != nil {
		t.Fatal(err)
	}
	graph, err := loadImportGraph(root, module)
	if err != nil {
		t.Fatal(err)
	}
	// The scan must be looking at the module: the known packages are there
	// and the imports the rules allow are seen where they are allowed.
	for _, pkg := range []string{"agent", "approval", "tools", "provider", "provider/openai", "cmd/tern"} {
		if _, ok := graph[pkg]; !ok {
			t.Fatalf("package %s not found under %s: the scan is not looking at the module (found %d packages)", pkg, root, len(graph))
		}
	}
	for pkg, imp := range map[string]string{"provider/openai": "github.com/sashabaranov/go-openai", "tools": "os/exec",
		"cmd/tern": modulePrefix + "agent", "agent": modulePrefix + "approval"} {
		if !slices.ContainsFunc(graph[pkg], func(e importEdge) bool { return e.path == imp && !e.test }) {
			t.Fatalf("package %s does not seem to import %s: the scan is not reading imports", pkg, imp)
		}
	}
	byRule := make(map[string][]violation)
	for _, v := range checkRules(layerRules, graph) {
		byRule[v.rule] = append(byRule[v.rule], v)
	}
	for _, r := range layerRules {
		if vs := byRule[r.name]; len(vs) > 0 {
			lines := make([]string, len(vs))
			for i, v := range vs {
				lines[i] = "\t" + v.String()
			}
			t.Errorf("rule %q is broken:\n%s\nwhy the rule exists: %s", r.name, strings.Join(lines, "\n"), r.reason)
		}
	}
}

// TestArchitectureRulesCanFail proves every rule fires: for each, a package
// the rule constrains imports (a sub-package of) what it forbids, in a
// synthetic graph, and the checker must report exactly that rule.
func TestArchitectureRulesCanFail(t *testing.T) {
	t.Parallel()
	candidates := []string{"agent", "agent/x", "approval", "approval/x", "tools", "tools/sandbox", "session", "provider", "provider/mock",
		"provider/openai", "tui", "tui/markdown", "internal/sanitize", "cmd/tern", "cmd/tern/doctor", "cmd/tern/headless",
		"internal/app", "internal/acp", "newpkg", "internal/x"}
	for _, r := range layerRules {
		if r.reason == "" {
			t.Errorf("rule %q has no reason", r.name)
		}
		fired := 0
		for _, pkg := range candidates {
			if !r.applies(pkg) {
				continue
			}
			for _, imp := range r.imports {
				for _, path := range []string{imp, imp + "/sub"} {
					edge := importEdge{path: path, pos: pkg + "/x.go:3"}
					vs := checkRules([]layerRule{r}, map[string][]importEdge{pkg: {edge}})
					if len(vs) != 1 || vs[0].rule != r.name || vs[0].pkg != pkg {
						t.Errorf("rule %q: %s importing %s gave %v, want one violation", r.name, pkg, path, vs)
					}
					fired++
					edge.test = true
					if got := len(checkRules([]layerRule{r}, map[string][]importEdge{pkg: {edge}})); got != 0 != r.tests {
						t.Errorf("rule %q (tests %v): a test file of %s importing %s gave %d violations", r.name, r.tests, pkg, path, got)
					}
				}
			}
		}
		if fired == 0 {
			t.Errorf("rule %q applies to none of %v: it can never fail", r.name, candidates)
		}
	}
}

// TestArchitectureCases pins what the table decides for the imports that
// matter most, in both directions.
func TestArchitectureCases(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pkg, imp string
		test     bool
		want     []string // rule names, in table order
	}{
		{"provider/openai", "github.com/sashabaranov/go-openai", false, nil},
		{"provider/openai", "net/http", false, nil},
		{"tools/fetch", "net/http", false, nil},
		{"tools", "net/http", false, []string{"net/http only in provider/openai, tools/mcp and tools/fetch"}},
		{"agent", "github.com/sashabaranov/go-openai", true, []string{"go-openai only in provider/openai"}},
		{"agent", "net/http/httptest", true, nil},
		{"agent", "net/http", false, []string{"net/http only in provider/openai, tools/mcp and tools/fetch"}},
		{"agent", "os/exec", false, []string{"os/exec only in tools, session and the TUI"}},
		{"agent", "os/exec", true, nil},
		{"agent", modulePrefix + "provider/openai", false, []string{"provider implementations only in cmd/tern", "agent imports no provider implementation"}},
		{"agent", modulePrefix + "provider", false, nil},
		{"agent", modulePrefix + "tui/markdown", false, []string{"agent imports no tui"}},
		{"agent", modulePrefix + "internal/sanitize", false, nil},
		{"tools/sandbox", "os/exec", false, nil},
		{"session", "os/exec", false, nil},
		{"session", modulePrefix + "tui", false, []string{"session imports no tui"}},
		{"tui", "os/exec", false, nil},
		{"tui/markdown", "os/exec", false, []string{"os/exec only in tools, session and the TUI"}},
		{"tui/markdown", "github.com/yuin/goldmark/parser", false, nil},
		{"tui", modulePrefix + "provider/mock", false, []string{"provider implementations only in cmd/tern"}},
		{"cmd/tern", modulePrefix + "provider/mock", false, nil},
		{"cmd/tern/headless", "charm.land/lipgloss/v2", false, nil},
		{"agent", "charm.land/lipgloss/v2", false, []string{"Bubble Tea only in tui and cmd/tern"}},
		{"tools", modulePrefix + "provider", false, []string{"tools imports nothing above it"}},
		{"tools", modulePrefix + "approval", false, []string{"tools imports nothing above it"}},
		{"agent", modulePrefix + "approval", false, nil},
		{"approval", modulePrefix + "tools", false, nil},
		{"approval", "mvdan.cc/sh/v3/syntax", false, nil},
		{"approval", modulePrefix + "agent", false, []string{"approval imports nothing above it"}},
		{"approval", modulePrefix + "agent", true, []string{"approval imports nothing above it"}},
		{"approval", modulePrefix + "tui", false, []string{"approval imports nothing above it"}},
		{"approval", modulePrefix + "session", false, []string{"approval imports nothing above it"}},
		{"approval", modulePrefix + "provider", false, []string{"approval imports nothing above it"}},
		{"approval", modulePrefix + "cmd/tern/config", false, []string{"approval imports nothing above it", "nothing imports cmd/tern"}},
		{"approval", "os/exec", false, []string{"os/exec only in tools, session and the TUI"}},
		{"tools", modulePrefix + "providerx", false, nil},
		{"tui", modulePrefix + "cmd/tern/config", false, []string{"nothing imports cmd/tern"}},
		{"cmd/tern/doctor", modulePrefix + "cmd/tern/config", false, nil},
		{"agent", modulePrefix + "provider/providertest", false, []string{"provider/providertest only in tests"}},
		{"agent", modulePrefix + "provider/providertest", true, nil},
		{"tui", modulePrefix + "internal/app", false, nil},
		{"internal/app", modulePrefix + "agent", false, nil},
		{"internal/app", modulePrefix + "session", false, nil},
		{"internal/app", modulePrefix + "tui", false, []string{"internal/app imports no front end"}},
		{"agent", modulePrefix + "internal/app", false, []string{"only front ends use internal/app"}},
		{"session", modulePrefix + "internal/app", true, []string{"only front ends use internal/app"}},
		{"tui", modulePrefix + "session", false, []string{"front ends reach the session log through internal/app"}},
		{"cmd/tern", modulePrefix + "session", false, nil},
	}
	for _, tc := range tests {
		vs := checkRules(layerRules, map[string][]importEdge{tc.pkg: {{path: tc.imp, pos: "x.go:1", test: tc.test}}})
		var got []string
		for _, v := range vs {
			got = append(got, v.rule)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s importing %s (test %v): rules %q, want %q", tc.pkg, tc.imp, tc.test, got, tc.want)
		}
	}
}

// replaceLines returns the numbers of the lines of a go.mod file that open a
// replace directive, on its own or as a block.
func replaceLines(gomod string) []int {
	var lines []int
	for i, line := range strings.Split(gomod, "\n") {
		if f := strings.Fields(line); len(f) > 0 && (f[0] == "replace" || strings.HasPrefix(f[0], "replace(")) {
			lines = append(lines, i+1)
		}
	}
	return lines
}

// TestGoModHasNoReplace keeps the module installable with go install
// module@version, which refuses a go.mod with a replace directive, and keeps
// every dependency on its upstream releases, so their fixes arrive with an
// upgrade instead of being ported into a copy by hand.
func TestGoModHasNoReplace(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join(moduleRoot(t), "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if lines := replaceLines(string(data)); len(lines) > 0 {
		t.Errorf("go.mod has a replace directive on line(s) %v: depend on an upstream release instead", lines)
	}
}

// TestReplaceLinesCanFail checks that the replace check sees both forms of
// the directive and nothing else.
func TestReplaceLinesCanFail(t *testing.T) {
	t.Parallel()
	gomod := "module x\n\nrequire (\n\ta v1.0.0 // replaces b\n)\n\nreplace a => ./a\nreplace (\n\tb => ./b\n)\n// replace c => ./c\n"
	if got, want := replaceLines(gomod), []int{7, 8}; !slices.Equal(got, want) {
		t.Errorf("replace directives on lines %v, want %v", got, want)
	}
}
