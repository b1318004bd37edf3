package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"image"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tui"
)

// The exit coverage tests: every way content leaves the workspace (to the
// model, to the screen, to a file) goes through the workspace guard and the
// secret-file filter. They enumerate what tern wires, so a tool added to
// the registry, or a hook added to the interface's options, without a case
// here fails them by itself.

// Markers: text that must never leave by any exit.
const (
	markEnv     = "ENV_SECRET_8f3a"   // in the workspace's .env
	markKey     = "KEY_SECRET_41c9"   // in the workspace's id_rsa
	markLocal   = "LOCAL_SECRET_77d2" // in config/.env.local
	markSSH     = "SSH_SECRET_c0de"   // in ~/.ssh/id_ed25519, outside
	markOutside = "OUTSIDE_DATA_5b1e" // in a directory beside the workspace
	markPlain   = "remember the milk" // in notes.txt: this one may leave
)

// leakMarkers are the markers no exit may show.
var leakMarkers = []string{markEnv, markKey, markLocal, markSSH, markOutside, tmuxKey}

// exitFixture is tern wired as `tern` wires it, in a workspace holding
// secrets and symbolic links out, beside a directory and a home that must
// stay unseen.
type exitFixture struct {
	root, home, ws, outside string
	env                     map[string]string
	app                     *wired
}

func newExitFixture(t *testing.T, gatewayURL string) *exitFixture {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &exitFixture{
		root: root, home: filepath.Join(root, "home"), ws: filepath.Join(root, "ws"), outside: filepath.Join(root, "outside"),
	}
	for path, content := range map[string]string{
		filepath.Join(f.ws, "notes.txt"):                markPlain + "\n",
		filepath.Join(f.ws, ".env"):                     "TOKEN=" + markEnv + "\n",
		filepath.Join(f.ws, "id_rsa"):                   markKey + "\n",
		filepath.Join(f.ws, "config", ".env.local"):     "X=" + markLocal + "\n",
		filepath.Join(f.outside, "data.txt"):            markOutside + "\n",
		filepath.Join(f.home, ".ssh", "id_ed25519"):     markSSH + "\n",
		filepath.Join(f.home, ".tern", "keep-home.txt"): "",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"link-out":     filepath.Join(f.outside, "data.txt"), // a file outside
		"link-dir":     f.outside,                            // a directory outside
		"innocent.txt": ".env",                               // a secret under a plain name
		"link-ssh":     filepath.Join(f.home, ".ssh"),
		"CLAUDE.md":    filepath.Join(f.outside, "data.txt"), // a memory file (system prompt) linked out
	} {
		if err := os.Symlink(target, filepath.Join(f.ws, link)); err != nil {
			t.Fatal(err)
		}
	}
	f.env = map[string]string{
		"PATH": os.Getenv("PATH"), "HOME": f.home, "TERN_HOME": filepath.Join(f.home, ".tern"),
		"LLM_BASE_URL": gatewayURL + "/v1", "LLM_API_KEY": tmuxKey, "LLM_MODEL": tmuxModel,
		"OPENAI_API_KEY": tmuxKey,
	}
	c := f.cli(&bytes.Buffer{}, &bytes.Buffer{})
	fs, flags := newFlagSet("tern")
	if err := fs.Parse([]string{"--approval", "full-auto"}); err != nil {
		t.Fatal(err)
	}
	cfg, err := c.loadConfig(flags)
	if err != nil {
		t.Fatal(err)
	}
	f.app, err = c.wire(context.Background(), cfg, wireOptions{notices: &bytes.Buffer{}, session: app.Choice{Mode: app.ResumeNone}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.app.Close() })
	return f
}

// cli is a tern process in the fixture's workspace with its environment.
func (f *exitFixture) cli(stdout, stderr *bytes.Buffer) *cli {
	var environ []string
	for k, v := range f.env {
		environ = append(environ, k+"="+v)
	}
	slices.Sort(environ)
	return &cli{
		stdin: strings.NewReader(""), stdout: stdout, stderr: stderr,
		getenv: func(k string) string { return f.env[k] }, environ: environ, userHome: f.home, cwd: f.ws,
	}
}

// sandboxed reports whether run_shell confines its commands here.
func (f *exitFixture) sandboxed() bool { return f.app.Sandbox.Active }

// noLeak fails when out shows a marker that must stay unseen.
func noLeak(t *testing.T, what, out string) {
	t.Helper()
	for _, m := range leakMarkers {
		if strings.Contains(out, m) {
			t.Errorf("%s leaked %q:\n%s", what, m, out)
		}
	}
}

// Paths every file exit must refuse, or answer without their content.
var (
	// outsidePaths lie outside the workspace, directly or through a link.
	outsidePaths = []string{"../outside/data.txt", "OUTSIDE/data.txt", "link-out", "link-dir/data.txt", "link-ssh/id_ed25519", "../home/.ssh/id_ed25519"}
	// secretPaths are secret files inside it, by name or through a link.
	secretPaths = []string{".env", "id_rsa", "config/.env.local", "innocent.txt"}
)

// paths returns outsidePaths and secretPaths with OUTSIDE made absolute.
func (f *exitFixture) paths() []string {
	var out []string
	for _, p := range append(slices.Clone(outsidePaths), secretPaths...) {
		out = append(out, strings.Replace(p, "OUTSIDE", f.outside, 1))
	}
	return out
}

// toolProbe checks one registered tool: run calls it with JSON arguments.
// Each probe also makes one call that must succeed, so a probe that stopped
// reaching its tool fails.
type toolProbe func(t *testing.T, f *exitFixture, run func(args string) tools.Result)

// toolProbes has a probe for every tool tern registers, by name.
var toolProbes = map[string]toolProbe{
	"read_file": func(t *testing.T, f *exitFixture, run func(string) tools.Result) {
		for _, p := range f.paths() {
			r := run(jsonArgs("path", p))
			refused(t, "read_file "+p, r)
		}
		if r := run(jsonArgs("path", "notes.txt")); r.Status != tools.StatusOK || !strings.Contains(r.Output, markPlain) {
			t.Errorf("read_file notes.txt: %v %q", r.Status, r.Output)
		}
	},
	"grep": func(t *testing.T, f *exitFixture, run func(string) tools.Result) {
		for _, p := range append(f.paths(), ".", "link-dir", "config") {
			r := run(jsonArgs("pattern", "SECRET|DATA", "path", p))
			noLeak(t, "grep in "+p, r.Output+r.Summary)
		}
		if r := run(jsonArgs("pattern", "milk")); r.Status != tools.StatusOK || !strings.Contains(r.Output, "notes.txt") {
			t.Errorf("grep milk: %v %q", r.Status, r.Output)
		}
	},
	"list_files": func(t *testing.T, f *exitFixture, run func(string) tools.Result) {
		for _, p := range []string{"../outside", f.outside, "link-dir", "link-ssh"} {
			r := run(jsonArgs("path", p))
			if strings.Contains(r.Output, "data.txt") || strings.Contains(r.Output, "id_ed25519") {
				t.Errorf("list_files %s listed outside the workspace:\n%s", p, r.Output)
			}
		}
		r := run(`{}`)
		if r.Status != tools.StatusOK || !strings.Contains(r.Output, "notes.txt") {
			t.Errorf("list_files: %v %q", r.Status, r.Output)
		}
		for _, line := range strings.Split(r.Output, "\n") {
			for _, name := range []string{".env", "id_rsa", ".env.local", "data.txt", "id_ed25519"} {
				if line == name || strings.HasSuffix(line, "/"+name) {
					t.Errorf("list_files shows %s:\n%s", line, r.Output)
				}
			}
		}
	},
	"edit_file": func(t *testing.T, f *exitFixture, run func(string) tools.Result) {
		for _, p := range f.paths() {
			r := run(jsonArgs("path", p, "old_string", "SECRET", "new_string", "x"))
			refused(t, "edit_file "+p, r)
		}
		f.unchanged(t)
		// Edits need a read first.
		if r := mustTool(t, f, "read_file").Run(context.Background(), json.RawMessage(jsonArgs("path", "notes.txt")), nil); r.Status != tools.StatusOK {
			t.Fatalf("read_file notes.txt: %v %q", r.Status, r.Output)
		}
		if r := run(jsonArgs("path", "notes.txt", "old_string", "milk", "new_string", "bread")); r.Status != tools.StatusOK {
			t.Errorf("edit_file notes.txt: %v %q", r.Status, r.Output)
		}
	},
	"write_file": func(t *testing.T, f *exitFixture, run func(string) tools.Result) {
		for _, p := range outsidePaths {
			p = strings.Replace(p, "OUTSIDE", f.outside, 1)
			r := run(jsonArgs("path", p, "content", "overwritten\n"))
			refused(t, "write_file "+p, r)
		}
		for _, p := range []string{"../outside/new.txt", "link-dir/new.txt", f.outside + "/new.txt"} {
			refused(t, "write_file "+p, run(jsonArgs("path", p, "content", "x\n")))
		}
		f.unchanged(t)
		if _, err := os.Stat(filepath.Join(f.outside, "new.txt")); err == nil {
			t.Error("write_file created a file outside the workspace")
		}
		// Overwriting a secret file must not show what it held.
		for _, p := range secretPaths {
			r := run(jsonArgs("path", p, "content", "replaced\n"))
			noLeak(t, "write_file "+p, r.Output+r.Summary)
		}
		if r := run(jsonArgs("path", "new.txt", "content", "hello\n")); r.Status != tools.StatusOK {
			t.Errorf("write_file new.txt: %v %q", r.Status, r.Output)
		}
	},
	"run_shell": func(t *testing.T, f *exitFixture, run func(string) tools.Result) {
		shellProbe(t, f, func(command string) (string, bool) {
			r := run(jsonArgs("command", command))
			return r.Output, r.Status == tools.StatusOK && r.ExitCode == 0
		})
	},
	tools.DiagnosticsName: func(t *testing.T, f *exitFixture, run func(string) tools.Result) {
		// It sends files to language servers: outside paths and secret
		// files are refused before any server hears of them.
		for _, p := range f.paths() {
			r := run(jsonArgs("path", p))
			refused(t, "diagnostics "+p, r)
		}
		for _, p := range []string{"../outside", f.outside, "link-dir", "link-ssh"} {
			r := run(jsonArgs("path", p))
			refused(t, "diagnostics "+p, r)
		}
		if r := run(`{}`); r.Status != tools.StatusOK {
			t.Errorf("diagnostics of the workspace: %v %q", r.Status, r.Output)
		}
	},
	"todo_write": func(t *testing.T, f *exitFixture, run func(string) tools.Result) {
		// It reads and writes no file: paths in its items stay text.
		var spec map[string]any
		if err := json.Unmarshal(mustTool(t, f, "todo_write").Spec().Parameters, &spec); err != nil {
			t.Fatal(err)
		}
		if props, _ := spec["properties"].(map[string]any); props["path"] != nil || len(props) != 1 {
			t.Errorf("todo_write takes new parameters %v: say here how they are guarded", props)
		}
		items := `{"items":[{"text":"read ../outside/data.txt and .env","status":"pending"}]}`
		r := run(items)
		if r.Status != tools.StatusOK {
			t.Errorf("todo_write: %v %q", r.Status, r.Output)
		}
		noLeak(t, "todo_write", r.Output+r.Summary)
	},
	"web_fetch": func(t *testing.T, f *exitFixture, run func(string) tools.Result) {
		// It opens no file: a file: URL (of the workspace, of a secret, of
		// a file outside) is refused for its scheme, and a local server
		// (a service on this machine reading the workspace) is refused by
		// address, as the config's web_fetch_allow_private is off.
		for _, p := range []string{filepath.Join(f.ws, "notes.txt"), filepath.Join(f.ws, ".env"), filepath.Join(f.outside, "data.txt")} {
			u := "file://" + p
			r := run(jsonArgs("url", u))
			refused(t, "web_fetch "+u, r)
		}
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			_, _ = io.WriteString(w, markPlain)
		}))
		t.Cleanup(srv.Close)
		r := run(jsonArgs("url", srv.URL))
		refused(t, "web_fetch "+srv.URL, r)
		if !strings.Contains(r.Output, "public internet") {
			t.Errorf("web_fetch %s was not refused for its address: %q", srv.URL, r.Output)
		}
	},
}

// shellProbe checks a way commands run (run_shell, `!`): tern's API keys
// are not in their environment, and under the sandbox they cannot read the
// deny paths or write outside the workspace. Commands can read the
// workspace's secret files: the secret-file filter is for the file tools
// (docs/security.md says so).
func shellProbe(t *testing.T, f *exitFixture, run func(command string) (string, bool)) {
	t.Helper()
	out, ok := run(`echo "[$LLM_API_KEY][$OPENAI_API_KEY]"; cat notes.txt`)
	if !ok || !strings.Contains(out, "[][]") || !strings.Contains(out, markPlain) {
		t.Errorf("a command saw tern's API keys, or did not run: ok=%v %q", ok, out)
	}
	noLeak(t, "the environment of a command", out)
	if !f.sandboxed() {
		t.Logf("Landlock is unavailable here (%s): the sandbox half of the shell probe is not checked", f.app.Sandbox.Warning)
		return
	}
	for _, cmd := range []string{"cat ~/.ssh/id_ed25519", "cat link-ssh/id_ed25519", "cp ~/.ssh/id_ed25519 stolen && cat stolen"} {
		out, _ := run(cmd)
		noLeak(t, "command "+cmd, out)
	}
	for _, cmd := range []string{"echo x > ../outside/new.txt", "echo x > link-dir/new.txt", "echo x >> ~/.bashrc"} {
		if _, ok := run(cmd); ok {
			t.Errorf("command %q succeeded under the sandbox", cmd)
		}
	}
	if _, err := os.Stat(filepath.Join(f.outside, "new.txt")); err == nil {
		t.Error("a command created a file outside the workspace")
	}
}

// unchanged fails when a file outside the workspace or a secret changed.
func (f *exitFixture) unchanged(t *testing.T) {
	t.Helper()
	for path, want := range map[string]string{
		filepath.Join(f.outside, "data.txt"):        markOutside + "\n",
		filepath.Join(f.home, ".ssh", "id_ed25519"): markSSH + "\n",
	} {
		if b, err := os.ReadFile(path); err != nil || string(b) != want {
			t.Errorf("%s changed: %q, %v", path, b, err)
		}
	}
}

// refused fails unless r is a refusal that shows nothing it guards.
func refused(t *testing.T, what string, r tools.Result) {
	t.Helper()
	if r.Status == tools.StatusOK {
		t.Errorf("%s was allowed: %q", what, r.Output)
	}
	noLeak(t, what, r.Output+r.Summary)
}

func jsonArgs(kv ...string) string {
	m := make(map[string]string, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err) // strings only: cannot fail
	}
	return string(b)
}

func mustTool(t *testing.T, f *exitFixture, name string) tools.Tool {
	t.Helper()
	tool, ok := f.app.Registry.Get(name)
	if !ok {
		t.Fatalf("no tool %s", name)
	}
	return tool
}

// TestEveryToolIsGuarded runs each registered tool's probe; a tool without
// one fails, as does a probe for a tool tern no longer registers.
func TestEveryToolIsGuarded(t *testing.T) {
	g := newSSEGateway(t, func(s *sse, _ chatRequest, _ *http.Request) { s.finish("stop") })
	names := newExitFixture(t, g.srv.URL).app.Registry.Names()
	for _, name := range names {
		probe, ok := toolProbes[name]
		if !ok {
			t.Errorf("tool %s has no probe: add one to toolProbes that checks it refuses paths outside the workspace and secret files (or says why it touches none)", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newExitFixture(t, g.srv.URL)
			tool := mustTool(t, f, name)
			calls := 0
			probe(t, f, func(args string) tools.Result {
				calls++
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				return tool.Run(ctx, json.RawMessage(args), nil)
			})
			if calls == 0 {
				t.Errorf("the probe for %s never called it", name)
			}
		})
	}
	for name := range toolProbes {
		if !slices.Contains(names, name) {
			t.Errorf("toolProbes has a probe for %s, which tern no longer registers: remove it", name)
		}
	}
}

// interfaceHooks classifies every function and interface the interface's
// options hand it; serviceMethods does the same for each method of the
// session service, which is how the interface reaches the session. An exit
// has a probe in TestOtherExitsAreGuarded; the rest say why no workspace
// content leaves through them. A new hook or method fails
// TestEveryInterfaceHookIsClassified until it is added here.
var (
	interfaceHooks = map[string]string{
		"App":    "the session service: each of its methods is classified in serviceMethods",
		"Replay": "a resumed session's recorded events, drawn on screen only; what they hold passed the exits when it was recorded",
	}
	serviceMethods = map[string]string{
		"MCP": "the MCP servers' states, and their prompts and resources (/mcp__… commands, @server:uri): only what the user " +
			"typed goes out to a server; workspace content reaches servers only through MCP tool calls, which the approval " +
			"engine judges (approval/external_test.go, agent/external_test.go)",
		"LanguageServers":    "names, roots and states of the language servers, on screen only; their diagnostics reach the model through the guarded edit and diagnostics tools",
		"Events":             "exit: the conversation, fed by the tools, each guarded (TestEveryToolIsGuarded)",
		"Shell":              "exit: `!` commands, through run_shell (probe \"! shell\")",
		"Attach":             "exit: @-mentions, through read_file (probe \"@-mention\")",
		"AttachImage":        "exit: @-mentioned and pasted pictures, through Workspace.ReadImage with read_file's guards (probe \"@-mention image\")",
		"Export":             "exit: /export (probe \"/export\")",
		"Files":              "exit: the @-mention picker's file names (probe \"@-mention picker\")",
		"Run":                "drives the agent; its output is Events",
		"Submit":             "sends the user's text to the model; nothing is read",
		"SubmitImages":       "sends the user's text and pictures to the model; it reads nothing itself: its callers read the pictures (--image, a path the user names; @-mentions through AttachImage's guard)",
		"SubmitAs":           "SubmitImages for one turn to another model the user's own command file names; it reads nothing itself",
		"Cancel":             "stops a turn",
		"Compact":            "the model summarises the conversation it already holds",
		"Reset":              "starts a new conversation and log",
		"Context":            "sizes of the context window's parts; no content",
		"SetBudget":          "limits of the next turns",
		"Model":              "the model id",
		"SetModel":           "switches the model id",
		"Models":             "the gateway's model ids; no workspace content",
		"ContextWindow":      "a model's context window from the config or the gateway; no workspace content",
		"ModelInfo":          "the embedded model database's figures for a model id; no workspace content",
		"Prices":             "a model's configured or list prices; no workspace content",
		"Effort":             "the reasoning effort chosen",
		"SetEffort":          "switches the reasoning effort sent to models that reason",
		"RememberModel":      "writes the model id the user picked to TERN_HOME/state.json; no workspace content",
		"Policy":             "the approval policy",
		"SetPolicy":          "switches the approval policy",
		"Permissions":        "the policy, rules and grants; no workspace content",
		"Revoke":             "takes a grant back",
		"EnterPlan":          "plan mode",
		"LeavePlan":          "plan mode",
		"Planning":           "plan mode",
		"PlanPolicy":         "plan mode",
		"AcceptPlan":         "plan mode, then a message the user accepted",
		"Remember":           "writes a line the user typed to AGENTS.md in the workspace; nothing is read",
		"Diff":               "the session's own file changes, on screen only; they were written by the guarded edit tools",
		"Undo":               "puts back files the session changed, inside the workspace",
		"ID":                 "the session's id",
		"Recorded":           "whether the session has a log",
		"List":               "this workspace's session logs in TERN_HOME: titles and counts",
		"Open":               "this workspace's session logs, reopened; what they hold passed the exits when it was recorded",
		"Fork":               "a copy of the running session's log",
		"Turns":              "the running session's prompts, for the rewind list",
		"Rewind":             "puts back files and conversation the session recorded, inside the workspace",
		"UndoRewind":         "reverses a rewind, inside the workspace",
		"ContinueUnrecorded": "turns recording off after the log failed; nothing is read or shown",
		"Rename":             "records the title the user typed in the session log; nothing is read",
		"Commands":           "custom command files the user or project wrote (.tern/commands, TERN_HOME/commands): regular files only, never links; their @-mentions go through Attach",
	}
)

func TestEveryInterfaceHookIsClassified(t *testing.T) {
	t.Parallel()
	check := func(what string, names []string, table map[string]string) {
		t.Helper()
		for _, name := range names {
			if _, ok := table[name]; !ok {
				t.Errorf("%s.%s is new: if content can leave the workspace through it, give it a probe in TestOtherExitsAreGuarded; either way, classify it", what, name)
			}
		}
		for name := range table {
			if !slices.Contains(names, name) {
				t.Errorf("%s has no %s any more: remove it from the table", what, name)
			}
		}
	}
	typ := reflect.TypeFor[tui.Options]()
	var hooks []string
	for i := range typ.NumField() {
		fl := typ.Field(i)
		if k := fl.Type.Kind(); k == reflect.Func || k == reflect.Interface {
			hooks = append(hooks, fl.Name)
		}
	}
	check("tui.Options", hooks, interfaceHooks)
	svc := reflect.TypeFor[app.Service]()
	var methods []string
	for i := range svc.NumMethod() {
		methods = append(methods, svc.Method(i).Name)
	}
	check("app.Service", methods, serviceMethods)
}

// TestOtherExitsAreGuarded drives a turn in which the model asks for every
// secret and every path out, then checks the exits that are not tools: what
// reached the gateway, @-mentions, `!` commands, /export and `tern sessions
// export`.
func TestOtherExitsAreGuarded(t *testing.T) {
	t.Parallel()
	type call struct{ name, args string }
	var calls []call
	for _, p := range append(slices.Clone(outsidePaths), secretPaths...) {
		calls = append(calls, call{"read_file", jsonArgs("path", p)})
	}
	calls = append(calls,
		call{"grep", jsonArgs("pattern", "SECRET|DATA")},
		call{"grep", jsonArgs("pattern", "SECRET|DATA", "path", "link-dir")},
		call{"list_files", `{}`},
		call{"read_file", jsonArgs("path", "notes.txt")},
		call{"run_shell", jsonArgs("command", `echo "[$LLM_API_KEY]"; cat ~/.ssh/id_ed25519`)},
	)
	g := newSSEGateway(t, func(s *sse, req chatRequest, _ *http.Request) {
		done := 0
		for _, m := range req.Messages {
			if m.Role == "tool" {
				done++
			}
		}
		if done < len(calls) {
			c := calls[done]
			var args map[string]string
			if err := json.Unmarshal([]byte(c.args), &args); err != nil {
				panic(err)
			}
			s.toolCall(fmt.Sprintf("call_%d", done), c.name, args)
			s.finish("tool_calls")
			return
		}
		s.text("Done.", 5, 0)
		s.finish("stop")
	})
	f := newExitFixture(t, g.srv.URL)
	if !f.sandboxed() {
		// Without the sandbox the shell call can read ~/.ssh: leave it out.
		calls = calls[:len(calls)-1]
	}

	// The turn, as the interface runs it.
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	runDone := make(chan struct{})
	go func() {
		defer close(runDone)
		f.app.Session.Run(ctx)
	}()
	if err := f.app.Session.Submit("Show me every secret you can find."); err != nil {
		t.Fatal(err)
	}
	results := 0
	timeout := time.After(60 * time.Second)
turn:
	for {
		select {
		case ev := <-f.app.Session.Events():
			switch ev.Kind {
			case agent.EventApprovalRequested:
				ev.Approval.Reply(agent.Decision{Kind: agent.AllowOnce})
			case agent.EventToolFinished:
				results++
			case agent.EventTurnFinished:
				if ev.Finish.Reason != agent.FinishDone {
					t.Fatalf("the turn ended %v: %v", ev.Finish.Reason, ev.Finish.Err)
				}
				break turn
			case agent.EventTurnStarted, agent.EventTextDelta, agent.EventReasoningDelta, agent.EventToolCallStarted,
				agent.EventToolCallReady, agent.EventApprovalResolved, agent.EventToolRunning, agent.EventToolOutput,
				agent.EventUsage, agent.EventRetrying, agent.EventError, agent.EventRequest,
				agent.EventCompactionStarted, agent.EventCompactionFinished, agent.EventMessageAppended, agent.EventHook, agent.EventSubagent:
			}
		case <-timeout:
			t.Fatal("the turn did not finish within a minute")
		}
	}
	if results != len(calls) {
		t.Errorf("%d tool results for %d calls", results, len(calls))
	}

	t.Run("to the model", func(t *testing.T) {
		reqs := g.requests()
		b, err := json.Marshal(reqs)
		if err != nil {
			t.Fatal(err)
		}
		noLeak(t, "the requests to the gateway", string(b))
		if !strings.Contains(string(b), markPlain) {
			t.Error("notes.txt never reached the model: the turn did not run its calls")
		}
	})
	t.Run("@-mention", func(t *testing.T) {
		attach := f.app.Session.Attach
		for _, p := range f.paths() {
			text, err := attach(p)
			if err == nil {
				t.Errorf("@%s was attached: %q", p, text)
				continue
			}
			noLeak(t, "@"+p, text+err.Error())
		}
		if text, err := attach("notes.txt"); err != nil || !strings.Contains(text, markPlain) {
			t.Errorf("@notes.txt: %q, %v", text, err)
		}
	})
	t.Run("@-mention image", func(t *testing.T) {
		var pic bytes.Buffer
		if err := png.Encode(&pic, image.NewGray(image.Rect(0, 0, 4, 4))); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{filepath.Join(f.outside, "pic.png"), filepath.Join(f.ws, "shot.png")} {
			if err := os.WriteFile(p, pic.Bytes(), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		for _, p := range append(f.paths(), filepath.Join(f.outside, "pic.png")) {
			img, err := f.app.Session.AttachImage(p)
			if err == nil {
				t.Errorf("@%s was attached as an image of %d bytes", p, len(img.Data))
				continue
			}
			noLeak(t, "@"+p, err.Error())
		}
		if img, err := f.app.Session.AttachImage("shot.png"); err != nil || !bytes.Equal(img.Data, pic.Bytes()) {
			t.Errorf("@shot.png: %v", err)
		}
	})
	t.Run("@-mention picker", func(t *testing.T) {
		var names []string
		err := f.app.Session.Files(ctx, 0, func(batch []string) { names = append(names, batch...) })
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(names, "notes.txt") {
			t.Errorf("the picker lacks notes.txt: %q", names)
		}
		for _, name := range names {
			base := filepath.Base(name)
			if slices.Contains([]string{".env", "id_rsa", ".env.local", "data.txt", "id_ed25519"}, base) {
				t.Errorf("the picker offers %s", name)
			}
		}
	})
	t.Run("! shell", func(t *testing.T) {
		sh := f.app.Session.Shell
		shellProbe(t, f, func(command string) (string, bool) {
			var out strings.Builder
			code, err := sh(ctx, command, func(s string, _ bool) { out.WriteString(s) })
			if err != nil {
				out.WriteString(err.Error())
			}
			return out.String(), err == nil && code == 0
		})
	})
	t.Run("/export", func(t *testing.T) {
		path, err := f.app.Session.Export("")
		if err != nil {
			t.Fatal(err)
		}
		if want := filepath.Join(f.home, ".tern", "exports"); filepath.Dir(path) != want {
			t.Errorf("/export wrote %s, not in %s", path, want)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		noLeak(t, "/export", string(b))
		if !strings.Contains(string(b), markPlain) {
			t.Error("/export lacks the notes.txt the model read: the session was not recorded")
		}
	})

	stop()
	<-runDone
	for range f.app.Session.Events() {
	}
	id := f.app.Session.ID()
	if err := f.app.Close(); err != nil {
		t.Fatal(err)
	}
	t.Run("tern sessions export", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if code := f.cli(&stdout, &stderr).main(context.Background(), []string{"sessions", "export", id}); code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		noLeak(t, "tern sessions export", stdout.String()+stderr.String())
		if !strings.Contains(stdout.String(), markPlain) {
			t.Errorf("the export lacks notes.txt:\n%s", stdout.String())
		}
	})
	t.Run("the session log", func(t *testing.T) {
		// Not an exit, but where every exit's content is kept: the key
		// must not be in it either.
		logs := 0
		err := filepath.WalkDir(filepath.Join(f.home, ".tern"), func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			logs += strings.Count(string(b), markPlain)
			noLeak(t, path, string(b))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if logs == 0 {
			t.Error("no session log under TERN_HOME holds the turn")
		}
	})
}

// TestLauncherRunsFirst: run_shell confines its commands by starting this
// binary in launcher mode, which must happen before main does anything
// else (opening files, reading the configuration, drawing the screen); the
// test binary must do the same in TestMain for the in-process probes.
func TestLauncherRunsFirst(t *testing.T) {
	t.Parallel()
	for file, fn := range map[string]string{"main.go": "main", "e2e_test.go": "TestMain"} {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Name.Name != fn || fd.Recv != nil {
				continue
			}
			found = true
			var first string
			if len(fd.Body.List) > 0 {
				if es, ok := fd.Body.List[0].(*ast.ExprStmt); ok {
					if call, ok := es.X.(*ast.CallExpr); ok {
						if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
							if id, ok := sel.X.(*ast.Ident); ok {
								first = id.Name + "." + sel.Sel.Name
							}
						}
					}
				}
			}
			if first != "sandbox.MaybeRunLauncher" {
				t.Errorf("%s: the first statement of %s is not sandbox.MaybeRunLauncher()", file, fn)
			}
		}
		if !found {
			t.Errorf("%s has no func %s", file, fn)
		}
	}
}
