package approval

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/ternhq/tern/tools"
)

// Rules are allow and deny lists such as "run_shell:go test *",
// "run_shell:git status" or "edit_file:docs/**". A bare tool name matches all
// of that tool's calls. For shell commands the pattern is matched against the
// command, with * matching anything (a trailing " *" also matches the bare
// prefix); for the other tools it is a doublestar glob on the
// workspace-relative path. Deny wins over allow.
type Rules struct {
	Allow, Deny []string
}

// Validate reports the first rule with bad syntax, naming it.
func (r Rules) Validate() error {
	var errs []error
	for _, list := range []struct {
		name  string
		rules []string
	}{{"allow", r.Allow}, {"deny", r.Deny}} {
		for _, s := range list.rules {
			if _, err := parseRule(s); err != nil {
				errs = append(errs, fmt.Errorf("%s rule %q: %w", list.name, s, err))
			}
		}
	}
	return errors.Join(errs...)
}

// shellTool is the tool whose rule patterns match commands rather than paths.
const shellTool = tools.RunShellName

// rule is one parsed allow or deny entry.
type rule struct {
	raw  string
	tool string
	// pattern is "" for a bare tool name, which matches every call.
	pattern string
}

func parseRule(s string) (rule, error) {
	s = strings.TrimSpace(s)
	tool, pattern, hasPattern := strings.Cut(s, ":")
	tool = strings.TrimSpace(tool)
	if tool == "" {
		return rule{}, errors.New(`a rule needs a tool name, as in "run_shell:go test *" or "edit_file:docs/**"`)
	}
	external := strings.HasPrefix(tool, externalPrefix)
	for _, c := range tool {
		if c == '*' && external {
			continue
		}
		if c != '_' && c != '-' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			return rule{}, fmt.Errorf("tool name %q may hold only letters, digits, _ and - (and * in an MCP rule)", tool)
		}
	}
	pattern = strings.TrimSpace(pattern)
	if external && hasPattern {
		return rule{}, fmt.Errorf("MCP rule %q: name tools only, as in mcp__github__create_issue or mcp__github__*", s)
	}
	if hasPattern && pattern == "" {
		return rule{}, fmt.Errorf(`empty pattern after "%s:"; write the bare tool name to match all its calls`, tool)
	}
	if tool == shellTool {
		pattern = normalizeSpace(pattern)
	} else if pattern != "" && !doublestar.ValidatePattern(pattern) {
		return rule{}, fmt.Errorf("path pattern %q is not a valid glob", pattern)
	}
	return rule{raw: s, tool: tool, pattern: pattern}, nil
}

// parseRules parses a list, which Validate has checked.
func parseRules(list []string) ([]rule, error) {
	out := make([]rule, 0, len(list))
	for _, s := range list {
		r, err := parseRule(s)
		if err != nil {
			return nil, fmt.Errorf("rule %q: %w", s, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// target is what rules are matched against for one call.
type target struct {
	tool string
	// shell is true for command tools; command, commands, segments (the
	// commands' texts as bash runs them) and bares (the same without
	// leading assignments) are then set.
	shell    bool
	command  string
	commands []shellCommand
	segments []string
	bares    []string
	// tree is the command as read, for the always-ask check.
	tree shellTree
	// plain are the commands as run, without wrappers such as sudo or env
	// and with the program's base name ("sudo /bin/rm -rf x" → "rm -rf x"),
	// so a deny rule cannot be sidestepped by dressing a command up.
	plain []string
	// unsure says why allow rules and grants cannot vouch for the command
	// (see shellTree.unsure), or "".
	unsure string
	// rel is the workspace-relative path of a file tool's call ("" when the
	// call has none or it is outside the workspace).
	rel string
}

// matchText reports whether the rule matches s (a command or a path). A
// command also matches without its leading environment assignments.
func (r rule) matchText(t target, s string) bool {
	if t.shell {
		return matchCommand(r.pattern, s) || matchCommand(r.pattern, stripAssignments(s))
	}
	if s == "" {
		return false
	}
	ok, err := doublestar.Match(r.pattern, s)
	return err == nil && ok
}

// denies returns the first deny rule matching the call: a shell rule
// matches when it matches the whole command or any command in it.
func denies(rules []rule, t target) (rule, bool) {
	for _, r := range rules {
		if !r.matchesTool(t.tool) {
			continue
		}
		if r.pattern == "" {
			return r, true
		}
		if !t.shell {
			if r.matchText(t, t.rel) {
				return r, true
			}
			continue
		}
		if r.matchText(t, t.command) {
			return r, true
		}
		for _, s := range append(t.segments[:len(t.segments):len(t.segments)], t.plain...) {
			if r.matchText(t, s) {
				return r, true
			}
		}
	}
	return rule{}, false
}

// plainCommand renders a command as run: without environment assignments
// and wrappers, with the program's base name and unquoted words.
func plainCommand(c shellCommand) string {
	words, _ := unwrap(c.words[programIndex(c.words):])
	if len(words) == 0 {
		return ""
	}
	parts := []string{programName(words[0])}
	for _, w := range words[1:] {
		parts = append(parts, w.val)
	}
	return strings.Join(parts, " ")
}

// allows returns an allow rule matching the call: for a shell command every
// simple command in it, as bash parses it (nested ones too), must be matched
// by some allow rule, so "go test *" does not allow "go test ./... && rm -rf
// build", and no rule matches a command with an expansion that could change
// what runs (see shellTree.unsure).
func allows(rules []rule, t target) (rule, bool) {
	if !t.shell {
		for _, r := range rules {
			if r.matchesTool(t.tool) && (r.pattern == "" || r.matchText(t, t.rel)) {
				return r, true
			}
		}
		return rule{}, false
	}
	var first rule
	if len(t.segments) == 0 || t.unsure != "" {
		return rule{}, false
	}
	for i, s := range t.segments {
		found := false
		for _, r := range rules {
			if r.tool == t.tool && (r.pattern == "" || matchCommand(r.pattern, s) || matchCommand(r.pattern, t.bares[i])) {
				if i == 0 {
					first = r
				}
				found = true
				break
			}
		}
		if !found {
			return rule{}, false
		}
	}
	return first, true
}

// matchCommand matches a command against a pattern in which * matches any
// text; whitespace runs count as one space, and a pattern ending in " *" also
// matches the command without that last part ("go test *" matches "go test").
func matchCommand(pattern, cmd string) bool {
	cmd = normalizeSpace(cmd)
	if globMatch(pattern, cmd) {
		return true
	}
	if base, ok := strings.CutSuffix(pattern, " *"); ok {
		return globMatch(base, cmd)
	}
	return false
}

// globMatch matches s against a pattern where * is the only wildcard.
func globMatch(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return strings.HasSuffix(s, last)
}

// normalizeSpace collapses runs of whitespace into single spaces.
func normalizeSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// stripAssignments drops leading environment assignments (FOO=1 go test →
// go test) from a command's text.
func stripAssignments(s string) string {
	for {
		s = strings.TrimLeft(s, " \t")
		end := strings.IndexAny(s, " \t")
		if end < 0 || !isAssignment(shellWord{val: s[:end]}) {
			return s
		}
		s = s[end:]
	}
}
