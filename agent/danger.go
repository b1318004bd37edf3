package agent

import (
	"path/filepath"
	"strings"
)

// dangerCheck holds what the always-ask check needs to know about where a
// command runs.
type dangerCheck struct {
	// root is the workspace's real path; workdir the directory the command starts in.
	root, workdir string
	// home is the user's home directory ("" when unknown).
	home string
}

// reason returns why a shell command must ask under every policy (rm -r
// reaching outside the workspace, force pushes, hard resets, mkfs, dd onto a
// device, a download piped into a shell, a write to a protected path; see
// protect.go), or "" when it need not. Every
// command of a compound line is checked, including nested ones.
func (d dangerCheck) reason(line string) string {
	cmds := parseShell(line)
	// cwds are the directories later commands may run in. Only "cd dir &&"
	// at the top level moves for sure; any other cd (in a subshell, a
	// pipeline, or one that may fail before ";") adds a possibility.
	cwds := []string{d.workdir}
	for i, c := range cmds {
		words := c.words[programIndex(c.words):]
		if r := d.writeReason(c, words, cwds); r != "" {
			return r
		}
		if len(words) == 0 {
			continue
		}
		if r := d.commandReason(words, cwds); r != "" {
			return r
		}
		if isShell(words) && c.piped && downloadBefore(cmds[:i]) {
			return "pipes a download into a shell"
		}
		if programName(words[0]) == "cd" && !c.nested {
			to := d.cdTarget(words[1:], cwds[len(cwds)-1])
			if c.sep == "&&" && !c.subshell && !c.piped && len(cwds) == 1 {
				// cd dir && ...: what follows runs in dir, or not at all.
				cwds = []string{to}
			} else {
				cwds = append(cwds, to)
			}
		}
	}
	return ""
}

// commandReason checks one simple command (without its env assignments).
func (d dangerCheck) commandReason(words []shellWord, cwds []string) string {
	words, fromXargs := unwrap(words)
	if len(words) == 0 {
		return ""
	}
	prog := programName(words[0])
	args := words[1:]
	switch {
	case prog == "rm":
		return d.rmReason(args, cwds, fromXargs)
	case prog == "git":
		return gitReason(args)
	case strings.HasPrefix(prog, "mkfs") || prog == "mke2fs":
		return "formats a file system (" + prog + ")"
	case prog == "dd":
		for _, a := range args {
			if dev, ok := strings.CutPrefix(a.val, "of=/dev/"); ok && !harmlessDevice(dev) {
				return "writes onto a device (dd of=/dev/" + dev + ")"
			}
		}
	case isShellName(prog) || prog == "eval":
		// bash -c '...' and eval run their argument as a command line of its own.
		script := ""
		if prog == "eval" {
			for _, a := range args {
				script += a.val + " "
			}
		} else {
			for i, a := range args {
				// -c, or a cluster holding it such as -lc.
				if len(a.val) > 1 && a.val[0] == '-' && a.val[1] != '-' && strings.Contains(a.val, "c") && i+1 < len(args) {
					script = args[i+1].val
					break
				}
			}
			for _, a := range args {
				if a.expand && (strings.Contains(a.val, "curl") || strings.Contains(a.val, "wget")) {
					return "runs a downloaded script in a shell"
				}
			}
		}
		if script != "" {
			return dangerCheck{root: d.root, workdir: cwds[len(cwds)-1], home: d.home}.reason(script)
		}
	}
	return ""
}

// unwrap skips programs that run their arguments as a command (sudo, env,
// nice, timeout, xargs, ...) with their options; xargs is true when the
// command gets more arguments from its input.
func unwrap(words []shellWord) (rest []shellWord, xargs bool) {
	for len(words) > 0 {
		prog := programName(words[0])
		withArg, ok := wrappers[prog]
		if !ok {
			return words, xargs
		}
		if prog == "xargs" {
			xargs = true
		}
		words = words[1:]
		for len(words) > 0 {
			w := words[0].val
			switch {
			case isAssignment(words[0]) && (prog == "env" || prog == "sudo"):
				words = words[1:]
				continue
			case w == "--":
				words = words[1:]
			case strings.HasPrefix(w, "-") && len(w) > 1:
				words = words[1:]
				if strings.Contains(withArg, " "+w+" ") && len(words) > 0 {
					words = words[1:]
				}
				continue
			case prog == "timeout":
				// The first operand of timeout is the duration.
				words = words[1:]
			}
			break
		}
	}
	return words, xargs
}

// wrappers maps programs that run another command to their options that take
// a separate argument (space-delimited, with spaces around).
var wrappers = map[string]string{
	"sudo":    " -u -g -C -D -h -p -r -t -U ",
	"doas":    " -u -C ",
	"env":     " -u -C -S ",
	"command": " ",
	"builtin": " ",
	"exec":    " -a ",
	"nohup":   " ",
	"time":    " -f -o ",
	"nice":    " -n ",
	"ionice":  " -c -n -p ",
	"timeout": " -s -k ",
	"stdbuf":  " -i -o -e ",
	"xargs":   " -I -n -P -L -s -d -E -a ",
}

// rmReason checks rm: recursive removal of anything outside the workspace,
// the home directory, / or the whole workspace always asks.
func (d dangerCheck) rmReason(args []shellWord, cwds []string, fromXargs bool) string {
	recursive := false
	var operands []shellWord
	opts := true
	for _, a := range args {
		switch {
		case opts && a.val == "--":
			opts = false
		case opts && strings.HasPrefix(a.val, "--"):
			if a.val == "--recursive" {
				recursive = true
			}
		case opts && strings.HasPrefix(a.val, "-") && len(a.val) > 1:
			if strings.ContainsAny(a.val, "rR") {
				recursive = true
			}
		default:
			operands = append(operands, a)
		}
	}
	if !recursive {
		return ""
	}
	if fromXargs {
		return "rm -r on paths read by xargs, which cannot be checked beforehand"
	}
	for _, op := range operands {
		for _, cwd := range cwds {
			if r := d.rmTarget(op, cwd); r != "" {
				return "rm -r " + r
			}
		}
	}
	return ""
}

// rmTarget says why removing one operand (relative to cwd) is dangerous, or "".
func (d dangerCheck) rmTarget(op shellWord, cwd string) string {
	v, ok := d.expandHome(op.val)
	switch {
	case !ok:
		return "reaching the home directory (" + op.val + ")"
	case strings.ContainsAny(v, "$`"):
		return "on a path that depends on a variable or command (" + op.val + "), so where it points cannot be checked"
	case cwd == "" && !filepath.IsAbs(v):
		return "on " + op.val + " after a cd that cannot be followed"
	}
	glob := ""
	if op.glob {
		// Check the directory the pattern expands in; a pattern made only of
		// wildcards and dots removes everything in it.
		v, glob = splitGlob(v)
	}
	p := v
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	p = resolveParent(filepath.Clean(p), strings.HasSuffix(v, "/") || glob != "")
	switch {
	case p == "/":
		return "reaching the root directory (" + op.val + ")"
	case p == d.root:
		if glob == "" || strings.Trim(glob, "*?.") == "" {
			return "removing the whole workspace (" + op.val + ")"
		}
	case p == d.home:
		return "reaching the home directory (" + op.val + ")"
	case !isInside(d.root, p):
		return "reaching outside the workspace (" + op.val + ")"
	}
	return ""
}

// expandHome replaces a leading ~, $HOME or ${HOME} with the home directory;
// ok is false when the word names a home directory that is not known (~user,
// or no home at all).
func (d dangerCheck) expandHome(v string) (string, bool) {
	for _, pre := range []string{"~", "$HOME", "${HOME}"} {
		if v == pre || strings.HasPrefix(v, pre+"/") {
			if d.home == "" {
				return v, false
			}
			return d.home + v[len(pre):], true
		}
	}
	if strings.HasPrefix(v, "~") {
		return v, false
	}
	return v, true
}

// splitGlob splits a pattern into the directory before its first wildcard and
// the path element holding it: "build/*.o" → ("build", "*.o").
func splitGlob(v string) (dir, elem string) {
	first := strings.IndexAny(v, "*?[")
	slash := strings.LastIndexByte(v[:first], '/')
	dir = "."
	if slash >= 0 {
		dir = v[:slash]
		if dir == "" {
			dir = "/"
		}
	}
	elem = v[slash+1:]
	if end := strings.IndexByte(elem, '/'); end >= 0 {
		elem = elem[:end]
	}
	return dir, elem
}

// resolveParent follows symlinks in p's parent directories (and in p itself
// when whole is set): rm -r removes a symlink, not what it points at, unless
// the path ends in a slash.
func resolveParent(p string, whole bool) string {
	if whole {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
	}
	dir, base := filepath.Dir(p), filepath.Base(p)
	if dir == p {
		return p
	}
	for d, rest := dir, ""; ; {
		if r, err := filepath.EvalSymlinks(d); err == nil {
			return filepath.Join(r, rest, base)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return p
		}
		rest = filepath.Join(filepath.Base(d), rest)
		d = parent
	}
}

// isInside reports whether p lies strictly inside dir.
func isInside(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// cdTarget returns where cd args leads from cwd, or "" when that cannot be told.
func (d dangerCheck) cdTarget(args []shellWord, cwd string) string {
	if len(args) > 0 && (args[0].val == "-P" || args[0].val == "-L") {
		args = args[1:]
	}
	if len(args) == 0 {
		return d.home
	}
	v, ok := d.expandHome(args[0].val)
	if !ok || args[0].glob || v == "-" || strings.ContainsAny(v, "$`") || cwd == "" && !filepath.IsAbs(v) {
		return ""
	}
	if filepath.IsAbs(v) {
		return filepath.Clean(v)
	}
	return filepath.Join(cwd, v)
}

// gitReason checks git: force pushes and hard resets always ask.
func gitReason(args []shellWord) string {
	sub, rest := gitSubcommand(args)
	switch sub {
	case "push":
		for _, a := range rest {
			v := a.val
			switch {
			case v == "--force" || v == "--force-if-includes" || strings.HasPrefix(v, "--force-with-lease"):
				return "force-pushes (git push " + v + ")"
			case strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Contains(v, "f"):
				return "force-pushes (git push " + v + ")"
			case strings.HasPrefix(v, "+") && len(v) > 1:
				return "force-pushes (git push " + v + ")"
			}
		}
	case "reset":
		for _, a := range rest {
			if a.val == "--hard" {
				return "discards uncommitted changes (git reset --hard)"
			}
		}
	}
	return ""
}

// gitSubcommand skips git's global options (-C dir, -c key=value, ...) and
// returns the subcommand and its arguments.
func gitSubcommand(args []shellWord) (string, []shellWord) {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i].val, "-") {
		switch args[i].val {
		case "-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--exec-path":
			i++
		}
		i++
	}
	if i >= len(args) {
		return "", nil
	}
	return args[i].val, args[i+1:]
}

// harmlessDevice reports whether dd writing to /dev/<dev> destroys nothing.
func harmlessDevice(dev string) bool {
	switch dev {
	case "null", "zero", "stdout", "stderr":
		return true
	}
	return strings.HasPrefix(dev, "fd/")
}

// isShellName reports whether prog is a shell that runs scripts.
func isShellName(prog string) bool {
	switch prog {
	case "sh", "bash", "zsh", "dash", "ksh", "fish", "ash":
		return true
	}
	return false
}

// isShell reports whether a command (after wrappers such as sudo) is a shell.
func isShell(words []shellWord) bool {
	w, _ := unwrap(words)
	return len(w) > 0 && isShellName(programName(w[0]))
}

// downloadBefore reports whether the pipeline ending just before the last of
// cmds holds a download (curl, wget).
func downloadBefore(cmds []shellCommand) bool {
	for i := len(cmds) - 1; i >= 0; i-- {
		c := cmds[i]
		if c.nested {
			continue
		}
		w, _ := unwrap(c.words[programIndex(c.words):])
		if len(w) > 0 {
			switch programName(w[0]) {
			case "curl", "wget", "fetch", "aria2c":
				return true
			}
		}
		if !c.piped {
			return false
		}
	}
	return false
}
