package approval

import (
	"path/filepath"
	"strings"

	"github.com/ternhq/tern/tools"
)

// Protected paths are written only after asking, under every policy, even
// with a grant or an allow rule (only --dangerously-skip-approvals skips the
// question): .git/ (its hooks and config run code), .tern/ (tern's own
// settings), .husky/ and the core.hooksPath folder (git hooks), the memory
// files tern reads (AGENTS.md, CLAUDE.md), all in any letter case, and the dotfiles of the home directory (shell rc files,
// ~/.gitconfig, ~/.npmrc, ~/.ssh, ...), where a change outlives the
// session and reaches every later shell or tool the user runs.

// protectedEdit returns why a file tool writing the workspace-relative
// path rel must ask, or "".
func (d dangerCheck) protectedEdit(rel string) string {
	if rel == "" {
		return ""
	}
	return d.protectedPath(filepath.Join(d.root, filepath.FromSlash(rel)))
}

// protectedPath returns why writing the file at the absolute path p must
// ask, or "". Symbolic links are followed as far as they exist, so a link in
// the workspace pointing at ~/.bashrc is caught too.
func (d dangerCheck) protectedPath(p string) string {
	p = filepath.Clean(p)
	if why := d.protectedLiteral(p); why != "" {
		return why
	}
	if real := resolveParent(p, true); real != p {
		return d.protectedLiteral(real)
	}
	return ""
}

// protectedLiteral checks p as written, without following links.
func (d dangerCheck) protectedLiteral(p string) string {
	inside := p == d.root || isInside(d.root, p)
	parts := p
	if inside {
		// Only the part below the workspace counts: the workspace itself may
		// live anywhere.
		parts = strings.TrimPrefix(strings.TrimPrefix(p, d.root), "/")
	}
	for _, part := range strings.Split(parts, "/") {
		// Any letter case: on macOS and Windows .GIT is .git.
		switch strings.ToLower(part) {
		case ".git":
			return "writes into .git/ (" + d.display(p) + "), where git keeps its configuration and hooks"
		case ".tern":
			return "writes into .tern/ (" + d.display(p) + "), tern's own settings"
		}
	}
	// .husky/, the core.hooksPath folder, the memory files (see protectedin.go).
	if why := protectedIn(p, tools.ListProtected(d.root, ""), d.display); why != "" {
		return why
	}
	for _, home := range d.homes() {
		if !isInside(home, p) {
			continue
		}
		first, _, _ := strings.Cut(strings.TrimPrefix(p, home+"/"), "/")
		if !strings.HasPrefix(first, ".") {
			continue
		}
		// A workspace inside a dot directory (~/.dotfiles, ~/.config/nvim)
		// was chosen by the user: writes inside it are ordinary edits.
		dot := filepath.Join(home, first)
		if inside && d.root != home && (d.root == dot || isInside(dot, d.root)) {
			continue
		}
		return "writes to " + d.display(p) + ", a dotfile in the home directory"
	}
	return ""
}

// homes returns the home directory as known and as its real path.
func (d dangerCheck) homes() []string {
	if d.home == "" {
		return nil
	}
	h := filepath.Clean(d.home)
	if real := resolveParent(h, true); real != h {
		return []string{h, real}
	}
	return []string{h}
}

// display renders p for a reason: relative to the workspace inside it,
// with ~ for the home directory, else absolute.
func (d dangerCheck) display(p string) string {
	if isInside(d.root, p) {
		return strings.TrimPrefix(p, d.root+"/")
	}
	for _, home := range d.homes() {
		if isInside(home, p) {
			return "~/" + strings.TrimPrefix(p, home+"/")
		}
	}
	return p
}

// writeReason returns why a command, through its output redirections or
// its arguments, writes a protected path, or "".
func (d dangerCheck) writeReason(c shellCommand, words []shellWord, cwds []string) string {
	targets := append([]shellWord(nil), c.writes...)
	if len(words) > 0 {
		if w, _ := unwrap(words); len(w) > 0 {
			if why := settingsWrite(w, d); why != "" {
				return why
			}
			targets = append(targets, writtenOperands(w)...)
		}
	}
	for _, t := range targets {
		for _, cwd := range cwds {
			if why := d.protectedTarget(t, cwd); why != "" {
				return why
			}
		}
	}
	return ""
}

// protectedTarget checks one written path as the command wrote it,
// relative to cwd ("" when the directory is not known).
func (d dangerCheck) protectedTarget(w shellWord, cwd string) string {
	v, ok := d.expandHome(w.val)
	if !ok {
		// ~user/... or no known home: judge the path as written.
		if rest, found := strings.CutPrefix(v, "~"); found {
			if _, after, _ := strings.Cut(rest, "/"); strings.HasPrefix(after, ".") {
				return "writes to " + w.val + ", a dotfile in a home directory"
			}
		}
		return d.protectedParts(w.val)
	}
	if strings.ContainsAny(v, "$`") || cwd == "" && !filepath.IsAbs(v) {
		// Where it points is only known when the command runs.
		return d.protectedParts(v)
	}
	if !filepath.IsAbs(v) {
		v = filepath.Join(cwd, v)
	}
	if w.glob {
		return d.protectedGlob(v)
	}
	return d.protectedPath(v)
}

// protectedParts checks a path that cannot be resolved for a .git or .tern
// element.
func (d dangerCheck) protectedParts(v string) string {
	for _, part := range strings.Split(v, "/") {
		switch strings.ToLower(part) {
		case ".git":
			return "writes into .git/ (" + v + "), where git keeps its configuration and hooks"
		case ".tern":
			return "writes into .tern/ (" + v + "), tern's own settings"
		}
	}
	return ""
}

// writtenOperands returns the arguments a command writes to: all operands
// of tee, touch, rm, mv and the like, the destination of cp, install and ln,
// the files of sed -i and perl -i, and dd's of=.
func writtenOperands(words []shellWord) []shellWord {
	prog := programName(words[0])
	args := words[1:]
	ops, target := operands(args)
	switch prog {
	case "tee", "touch", "truncate", "rm", "unlink", "rmdir", "shred", "mkdir", "mv",
		"chmod", "chown", "chgrp", "mkfifo":
		return ops
	case "cp", "install", "ln", "rsync":
		if target != nil {
			return []shellWord{*target}
		}
		if len(ops) > 0 {
			return ops[len(ops)-1:]
		}
	case "sed", "perl", "ruby":
		for _, a := range args {
			if strings.HasPrefix(a.val, "--in-place") || len(a.val) > 1 && a.val[0] == '-' && a.val[1] != '-' && strings.Contains(a.val, "i") {
				return ops
			}
		}
	case "dd":
		for _, a := range args {
			if of, ok := strings.CutPrefix(a.val, "of="); ok {
				return []shellWord{{val: of, expand: a.expand, glob: a.glob}}
			}
		}
	}
	return nil
}

// operands returns the words of args that are not options, and the value
// of -t/--target-directory when given.
func operands(args []shellWord) (ops []shellWord, target *shellWord) {
	opts := true
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case opts && a.val == "--":
			opts = false
		case opts && (a.val == "-t" || a.val == "--target-directory") && i+1 < len(args):
			i++
			target = &args[i]
		case opts && strings.HasPrefix(a.val, "--target-directory="):
			t := a
			t.val = strings.TrimPrefix(a.val, "--target-directory=")
			target = &t
		case opts && strings.HasPrefix(a.val, "-") && len(a.val) > 1:
		default:
			ops = append(ops, a)
		}
	}
	return ops, target
}

// settingsWrite returns why a command changes a settings file through its
// own subcommand: `git config` writing .git/config or ~/.gitconfig (where
// hooks, aliases and helpers that run code are configured), `npm config
// set` writing ~/.npmrc.
func settingsWrite(words []shellWord, d dangerCheck) string {
	switch programName(words[0]) {
	case "git":
		sub, rest := gitSubcommand(words[1:])
		if sub != "config" || !gitConfigWrites(rest) {
			return ""
		}
		for i, a := range rest {
			switch {
			case a.val == "--global":
				return "changes git's settings in ~/.gitconfig (git config --global)"
			case a.val == "--system":
				return "changes git's system-wide settings (git config --system)"
			case (a.val == "-f" || a.val == "--file") && i+1 < len(rest):
				if why := d.protectedTarget(rest[i+1], d.workdir); why != "" {
					return why
				}
				return ""
			case strings.HasPrefix(a.val, "--file="):
				t := a
				t.val = strings.TrimPrefix(a.val, "--file=")
				return d.protectedTarget(t, d.workdir)
			}
		}
		return "changes the repository's settings in .git/config (git config), where hooks and commands can be configured"
	case "npm", "pnpm", "yarn":
		ops, _ := operands(words[1:])
		if len(ops) == 0 {
			return ""
		}
		write := ops[0].val == "set" || ops[0].val == "config" && len(ops) > 1 && (ops[1].val == "set" || ops[1].val == "delete" || ops[1].val == "edit")
		for _, a := range words[1:] {
			if a.val == "--location=project" || a.val == "--location" || a.val == "-L" {
				return "" // ./.npmrc in the project, an ordinary file
			}
		}
		if write {
			label := programName(words[0]) + " " + ops[0].val
			if ops[0].val == "config" {
				label += " " + ops[1].val
			}
			return "changes ~/.npmrc (" + label + ")"
		}
	}
	return ""
}

// gitConfigWrites reports whether `git config` with these arguments writes
// (set, unset, add, edit, rename or remove) rather than reads.
func gitConfigWrites(args []shellWord) bool {
	var ops []string
	for i := 0; i < len(args); i++ {
		v := args[i].val
		switch v {
		case "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool", "--list", "-l":
			return false
		case "--unset", "--unset-all", "--add", "--replace-all", "--rename-section", "--remove-section", "-e", "--edit":
			return true
		case "-f", "--file", "--blob", "--type", "--default", "--comment":
			i++
			continue
		}
		if !strings.HasPrefix(v, "-") {
			ops = append(ops, v)
		}
	}
	if len(ops) == 0 {
		return false
	}
	switch ops[0] {
	case "get", "list":
		return false
	case "set", "unset", "rename-section", "remove-section", "edit":
		return true
	}
	// git config name value
	return len(ops) >= 2
}
