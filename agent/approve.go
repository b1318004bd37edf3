package agent

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/ternhq/tern/tools"
)

// verdict is what happens to a call before it runs.
type verdict int

const (
	// verdictRun runs the call without asking.
	verdictRun verdict = iota + 1
	// verdictDeny refuses the call without asking.
	verdictDeny
	// verdictAsk asks the user.
	verdictAsk
)

// ruling is the outcome of the approval check for one call.
type ruling struct {
	verdict verdict
	// decision is the automatic decision (Auto set) reported for verdictRun
	// and verdictDeny; its Kind is 0 for reads, which run without an event.
	decision Decision
	// denial is the tool result text for verdictDeny.
	denial string
	// scope is what AllowSession remembers; grants are the keys it records.
	scope  Scope
	grants []string
	// always and reason are set for commands that ask under every policy.
	always bool
	reason string
}

// editScope is the grant for all edits inside the workspace.
var editScope = Scope{Key: "edit", Label: "edits inside this workspace"}

// judge decides whether a call runs, is refused or must ask, from (in this
// order) the deny rules, a read-only policy, --dangerously-skip-approvals,
// the always-ask commands, the allow rules, the session's grants, the
// read-only commands (readonly.go) and the policy. Reads inside the
// workspace never ask.
func (a *Agent) judge(t tools.Tool, name string, args json.RawMessage, policy Policy) ruling {
	kind := t.Kind()
	tg := a.target(kind, name, args)
	if r, ok := denies(a.deny, tg); ok {
		return ruling{
			verdict:  verdictDeny,
			decision: Decision{Kind: Deny, Auto: true, Message: "denied by the rule " + r.raw},
			denial: "The user's rule `" + r.raw + "` denies this call, so it was not run. " +
				"Do not retry it; find another way or explain in your answer what you need.",
		}
	}
	read, edit := false, false
	switch kind {
	case tools.KindRead:
		read = true
	case tools.KindEdit:
		edit = true
	case tools.KindShell:
	}
	if read {
		return ruling{verdict: verdictRun}
	}
	if policy == PolicyReadOnly {
		return ruling{
			verdict:  verdictDeny,
			decision: Decision{Kind: Deny, Auto: true, Message: "the read-only policy refuses " + name},
			denial: "This session is read-only: " + name + " is not allowed, so the call was not run. " +
				"Do not retry it. Describe the change you propose in your answer instead (for example as a " +
				"unified diff or the exact commands to run) so the user can apply it.",
		}
	}
	if a.opts.SkipApprovals {
		return ruling{verdict: verdictRun, decision: Decision{Kind: AllowOnce, Auto: true,
			Message: "approvals are skipped (--dangerously-skip-approvals)"}}
	}
	ask := ruling{verdict: verdictAsk}
	if edit {
		ask.scope, ask.grants = editScope, []string{editScope.Key}
		if why := a.protectedEditReason(a.danger(args), tg.rel); why != "" {
			ask.always, ask.reason = true, "This call "+why+"."
			return ask
		}
	} else {
		ask.scope, ask.grants = shellScope(name, tg.commands)
		if tg.shell {
			if why := a.danger(args).treeReason(tg.tree); why != "" {
				ask.always, ask.reason = true, "This command "+why+"."
				return ask
			}
		}
	}
	if r, ok := allows(a.allow, tg); ok {
		return ruling{verdict: verdictRun, decision: Decision{Kind: AllowOnce, Auto: true,
			Message: "allowed by the rule " + r.raw}}
	}
	if a.granted(ask.grants, tg) {
		return ruling{verdict: verdictRun, decision: Decision{Kind: AllowSession, Auto: true,
			Message: "allowed for this session: " + ask.scope.Label}}
	}
	if a.readOnly(tg, a.danger(args)) {
		return ruling{verdict: verdictRun, decision: Decision{Kind: AllowOnce, Auto: true, Message: readOnlyMessage}}
	}
	switch policy {
	case PolicyFullAuto:
		return ruling{verdict: verdictRun, decision: Decision{Kind: AllowOnce, Auto: true,
			Message: "the full-auto policy allows " + name}}
	case PolicyAutoEdit:
		if edit {
			return ruling{verdict: verdictRun, decision: Decision{Kind: AllowOnce, Auto: true,
				Message: "the auto-edit policy allows edits inside the workspace"}}
		}
	case PolicyAsk, PolicyReadOnly:
	}
	return ask
}

// granted reports whether the session's grants cover the call. Commands
// rules cannot vouch for (a substitution, a command name made by an
// expansion, eval, ...; see shellTree.unsure) are never covered: what they
// run is not known.
func (a *Agent) granted(keys []string, tg target) bool {
	if len(keys) == 0 || tg.shell && tg.unsure != "" {
		return false
	}
	for _, c := range tg.commands {
		if c.envUnsafe {
			return false // a grant is for the command, not for what a variable makes it run
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, k := range keys {
		if !a.grants[k] {
			return false
		}
	}
	return true
}

// grant remembers an AllowSession answer.
func (a *Agent) grant(keys []string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, k := range keys {
		a.grants[k] = true
	}
}

// callArgs are the argument fields the approval checks look at.
type callArgs struct {
	Path    string `json:"path"`
	Command string `json:"command"`
	Workdir string `json:"workdir"`
}

func parseCallArgs(args json.RawMessage) callArgs {
	var c callArgs
	_ = json.Unmarshal(args, &c) // the schema check already passed; missing fields stay empty
	return c
}

// target collects what rules match against for a call.
func (a *Agent) target(kind tools.Kind, name string, args json.RawMessage) target {
	ca := parseCallArgs(args)
	tg := target{tool: name}
	switch kind {
	case tools.KindShell:
		tg.shell = true
		tg.command = ca.Command
		tree := readShell(ca.Command, a.danger(args))
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
	case tools.KindRead, tools.KindEdit:
		p := ca.Path
		if p == "" {
			p = "."
		}
		if _, rel, err := a.opts.Workspace.Resolve(p); err == nil {
			tg.rel = rel
		}
	}
	return tg
}

// danger returns the always-ask check for a shell call's working directory.
func (a *Agent) danger(args json.RawMessage) dangerCheck {
	root := a.opts.Workspace.Root
	wd := root
	if d := parseCallArgs(args).Workdir; d != "" {
		if filepath.IsAbs(d) {
			wd = filepath.Clean(d)
		} else {
			wd = filepath.Join(root, d)
		}
	}
	return dangerCheck{root: root, workdir: wd, home: a.home}
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
