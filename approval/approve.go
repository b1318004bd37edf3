package approval

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/ternhq/tern/tools"
)

// Verdict is what happens to a call before it runs.
type Verdict int

// The verdicts; the set is closed.
const (
	// Run runs the call without asking.
	Run Verdict = iota + 1
	// Deny refuses the call without asking.
	Deny
	// Ask asks the user.
	Ask
)

// Decider names who decided a call that runs or is refused without
// asking, so the agent can report the decision; the set is closed.
type Decider int

// The deciders.
const (
	// Silent is a read inside the workspace: it runs and nothing is reported.
	Silent Decider = iota
	// ByRule is a deny or allow rule, a policy, --dangerously-skip-approvals
	// or the read-only commands: the decision holds for this call only.
	ByRule
	// ByGrant is one of the session's grants.
	ByGrant
)

// Ruling is the outcome of the approval check for one call.
type Ruling struct {
	Verdict Verdict
	// By says who decided a Run or a Deny; Message says it in words
	// ("denied by the rule run_shell:rm *").
	By      Decider
	Message string
	// Denial is the tool result text the model gets for Deny.
	Denial string
	// Scope is what "allow for this session" remembers; Grants are the
	// keys it records, one per command prefix.
	Scope  Scope
	Grants []string
	// Always and Reason are set for calls that ask under every policy.
	Always bool
	Reason string
}

// Scope is what "allow for this session" will remember.
type Scope struct {
	// Key identifies the grant, e.g. "edit" or "run_shell:go test".
	Key string
	// Label says it in words for the dialog, e.g. "edits inside this workspace"
	// or "commands starting with `go test`".
	Label string
}

// editScope is the grant for all edits inside the workspace.
var editScope = Scope{Key: "edit", Label: "edits inside this workspace"}

// Call is one tool call to judge.
type Call struct {
	// Tool is the tool's name, Kind its kind.
	Tool string
	Kind tools.Kind
	// Args are the call's arguments, already checked against the tool's schema.
	Args json.RawMessage
	// Server, Remote and ReadOnlyHint describe a KindExternal call: the MCP
	// server, the tool's name there, and the server's readOnlyHint.
	Server, Remote string
	ReadOnlyHint   bool
}

// Decide decides whether a call runs, is refused or must ask, from (in
// this order) the deny rules, a read-only policy,
// --dangerously-skip-approvals, the always-ask commands, the allow rules,
// the session's grants (granted reports whether the session holds every
// key; nil holds none), the read-only commands (readonly.go) and the
// policy. Reads inside the workspace never ask.
func (j *Judge) Decide(c Call, policy Policy, granted func(keys []string) bool) Ruling {
	kind, name, args := c.Kind, c.Tool, c.Args
	tg := j.target(kind, name, args)
	if r, ok := denies(j.deny, tg); ok {
		return Ruling{
			Verdict: Deny,
			By:      ByRule,
			Message: "denied by the rule " + r.raw,
			Denial: "The user's rule `" + r.raw + "` denies this call, so it was not run. " +
				"Do not retry it; find another way or explain in your answer what you need.",
		}
	}
	read, edit, network := false, false, false
	switch kind {
	case tools.KindRead:
		read = true
	case tools.KindEdit:
		edit = true
	case tools.KindNetwork:
		network = true
	case tools.KindShell:
	case tools.KindExternal:
		return j.decideExternal(c, tg, policy, granted)
	}
	if read {
		return Ruling{Verdict: Run}
	}
	// A fetch changes nothing on the machine, so the read-only policy does
	// not refuse it outright: it asks, as under ask (what it could leak
	// is in the URL the dialog shows), and allow rules still apply.
	if policy == PolicyReadOnly && !network {
		return Ruling{
			Verdict: Deny,
			By:      ByRule,
			Message: "the read-only policy refuses " + name,
			Denial: "This session is read-only: " + name + " is not allowed, so the call was not run. " +
				"Do not retry it. Describe the change you propose in your answer instead (for example as a " +
				"unified diff or the exact commands to run) so the user can apply it.",
		}
	}
	if j.skip {
		return Ruling{Verdict: Run, By: ByRule, Message: "approvals are skipped (--dangerously-skip-approvals)"}
	}
	ask := Ruling{Verdict: Ask}
	if network {
		ask.Scope, ask.Grants = networkScope(name, tg.rel)
	} else if edit {
		ask.Scope, ask.Grants = editScope, []string{editScope.Key}
		if why := j.protectedEditReason(j.danger(args), tg.rel); why != "" {
			ask.Always, ask.Reason = true, "This call "+why+"."
			return ask
		}
	} else {
		ask.Scope, ask.Grants = shellScope(name, tg.commands)
		if tg.shell {
			if why := j.danger(args).treeReason(tg.tree); why != "" {
				ask.Always, ask.Reason = true, "This command "+why+"."
				return ask
			}
		}
	}
	if r, ok := allows(j.allow, tg); ok {
		return Ruling{Verdict: Run, By: ByRule, Message: "allowed by the rule " + r.raw}
	}
	if grantable(ask.Grants, tg) && granted != nil && granted(ask.Grants) {
		return Ruling{Verdict: Run, By: ByGrant, Message: "allowed for this session: " + ask.Scope.Label}
	}
	if j.readOnly(tg, j.danger(args)) {
		return Ruling{Verdict: Run, By: ByRule, Message: readOnlyMessage}
	}
	switch policy {
	case PolicyFullAuto:
		return Ruling{Verdict: Run, By: ByRule, Message: "the full-auto policy allows " + name}
	case PolicyAutoEdit:
		if edit {
			return Ruling{Verdict: Run, By: ByRule, Message: "the auto-edit policy allows edits inside the workspace"}
		}
	case PolicyAsk, PolicyReadOnly:
	}
	return ask
}

// grantable reports whether session grants may cover the call at all.
// Commands rules cannot vouch for (a substitution, a command name made by
// an expansion, eval, ...; see shellTree.unsure) are never covered: what
// they run is not known.
func grantable(keys []string, tg target) bool {
	if len(keys) == 0 || tg.shell && tg.unsure != "" {
		return false
	}
	for _, c := range tg.commands {
		if c.envUnsafe {
			return false // a grant is for the command, not for what a variable makes it run
		}
	}
	return true
}

// callArgs are the argument fields the approval checks look at.
type callArgs struct {
	Path    string `json:"path"`
	Command string `json:"command"`
	Workdir string `json:"workdir"`
	URL     string `json:"url"`
}

func parseCallArgs(args json.RawMessage) callArgs {
	var c callArgs
	_ = json.Unmarshal(args, &c) // the schema check already passed; missing fields stay empty
	return c
}

// target collects what rules match against for a call.
func (j *Judge) target(kind tools.Kind, name string, args json.RawMessage) target {
	ca := parseCallArgs(args)
	tg := target{tool: name}
	switch kind {
	case tools.KindShell:
		tg.shell = true
		tg.command = ca.Command
		tree := readShell(ca.Command, j.danger(args))
		tg.tree = tree
		tg.commands = tree.cmds
		tg.unsure = tree.unsure
		for _, c := range tg.commands {
			if len(c.words) == 0 && len(c.writes) == 0 {
				continue // a redirection that opens no file for writing (2>&1, < in)
			}
			tg.segments = append(tg.segments, c.text)
			tg.bares = append(tg.bares, c.bare)
			if p := plainCommand(c); p != "" {
				tg.plain = append(tg.plain, p)
			}
		}
	case tools.KindNetwork:
		tg.rel = urlHost(ca.URL)
	case tools.KindRead, tools.KindEdit:
		p := ca.Path
		if p == "" {
			p = "."
		}
		if _, rel, err := j.ws.Resolve(p); err == nil {
			tg.rel = rel
		}
	case tools.KindExternal:
	}
	return tg
}

// danger returns the always-ask check for a shell call's working directory.
func (j *Judge) danger(args json.RawMessage) dangerCheck {
	root := j.ws.Root
	wd := root
	if d := parseCallArgs(args).Workdir; d != "" {
		if filepath.IsAbs(d) {
			wd = filepath.Clean(d)
		} else {
			wd = filepath.Join(root, d)
		}
	}
	return dangerCheck{root: root, workdir: wd, home: j.home}
}

// shellScope is what "allow for this session" remembers for a command: the
// program and subcommand of each command in it ("go test", "git status"), or
// the program alone for programs without subcommands.
func shellScope(tool string, cmds []shellCommand) (Scope, []string) {
	var prefixes []string
	seen := map[string]bool{}
	for _, c := range cmds {
		p := commandPrefix(c)
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		prefixes = append(prefixes, p)
	}
	if len(prefixes) == 0 {
		return Scope{}, nil
	}
	keys := make([]string, len(prefixes))
	quoted := make([]string, len(prefixes))
	for i, p := range prefixes {
		keys[i] = tool + ":" + p
		quoted[i] = "`" + p + "`"
	}
	label := "commands starting with " + strings.Join(quoted, " or ")
	if len(prefixes) > 1 {
		label = "commands whose parts start with " + strings.Join(quoted[:len(quoted)-1], ", ") +
			" or " + quoted[len(quoted)-1]
	}
	return Scope{Key: tool + ":" + strings.Join(prefixes, "; "), Label: label}, keys
}

// commandPrefix returns the program and subcommand of a command, skipping
// environment assignments.
func commandPrefix(c shellCommand) string {
	words := c.words[programIndex(c.words):]
	if len(words) == 0 {
		return ""
	}
	prog := words[0].val
	name := programName(words[0])
	if name == "git" {
		if sub, _ := gitSubcommand(words[1:]); sub != "" && isSubcommandWord(sub) {
			return prog + " " + sub
		}
		return prog
	}
	if subcommandPrograms[name] && len(words) > 1 && !words[1].expand && !words[1].glob && isSubcommandWord(words[1].val) {
		return prog + " " + words[1].val
	}
	return prog
}

// isSubcommandWord reports whether a word looks like a subcommand (test,
// run-script, build:prod) rather than an option or a path.
func isSubcommandWord(w string) bool {
	if w == "" || w[0] == '-' {
		return false
	}
	for _, c := range w {
		if c != '-' && c != '_' && c != ':' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// subcommandPrograms are programs whose second word is a subcommand.
var subcommandPrograms = map[string]bool{
	"go": true, "npm": true, "npx": true, "pnpm": true, "yarn": true, "bun": true, "deno": true,
	"cargo": true, "rustup": true, "docker": true, "podman": true, "kubectl": true, "helm": true,
	"make": true, "just": true, "task": true, "pip": true, "pip3": true, "uv": true, "poetry": true,
	"pipenv": true, "conda": true, "gem": true, "bundle": true, "rake": true, "rails": true,
	"mix": true, "dotnet": true, "gradle": true, "gradlew": true, "mvn": true, "brew": true,
	"apt": true, "apt-get": true, "dnf": true, "yum": true, "systemctl": true, "gh": true,
	"terraform": true, "composer": true, "swift": true, "zig": true, "nix": true, "stack": true,
	"cabal": true, "dune": true, "opam": true, "aws": true, "gcloud": true, "az": true,
	"flutter": true, "dart": true, "hg": true, "svn": true, "jj": true, "buf": true, "bazel": true,
}
