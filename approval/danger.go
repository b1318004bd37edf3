package approval

import (
	"os"
	"path"
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
// reaching outside the workspace, its root or .git, find -delete, git clean
// -fdx, force pushes, hard resets, mkfs, dd onto a device, downloaded code
// reaching an interpreter, a command name made by an expansion, a write to
// a protected path (see protect.go), or a line bash's parser rejects), or
// "" when it need not. The line is read by a real bash parser (see
// shelltree.go) and every command of it is checked, including nested ones.
func (d dangerCheck) reason(line string) string {
	return d.treeReason(readShell(line, d))
}

// treeReason is reason for a line already read.
func (d dangerCheck) treeReason(tr shellTree) string {
	if tr.err != nil {
		return "could not be read as bash (" + tr.err.Error() + "), so what it runs cannot be checked"
	}
	if tr.download != "" {
		return tr.download
	}
	cmds := tr.cmds
	// cwds are the directories later commands may run in. Only "cd dir &&"
	// at the top level moves for sure; any other cd (in a subshell, a
	// pipeline, or one that may fail before ";") adds a possibility.
	cwds := []string{d.workdir}
	for _, c := range cmds {
		if c.viaShell {
			continue // commandReason reads bash -c scripts with the right directory
		}
		words := c.words[programIndex(c.words):]
		if len(words) > 0 {
			if r := expandedName(words); r != "" {
				return r
			}
			if r := d.commandReason(words, cwds); r != "" {
				return r
			}
			if r := d.stdinReason(c, words, cwds); r != "" {
				return r
			}
		}
		if r := deviceReason(c, words); r != "" {
			return r
		}
		if r := d.writeReason(c, words, cwds); r != "" {
			return r
		}
		if len(words) == 0 {
			continue
		}
		// cd, also as builtin cd or command cd, and pushd move; popd goes
		// back to a directory the line may not show.
		if cw, _ := unwrap(words); len(cw) > 0 && !c.nested && isCd(programName(cw[0])) {
			to := ""
			if programName(cw[0]) != "popd" {
				to = d.cdTarget(pushdArgs(cw[1:]), cwds[len(cwds)-1])
			}
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

// expandedName returns why a command whose name (or the name a wrapper
// such as sudo runs) comes from an expansion or a glob must ask: what it
// runs is only known when it runs ($(echo rm) -rf .git, $cmd, /bin/r?).
func expandedName(words []shellWord) string {
	// env -S "cmd args" (also after sudo and the like) splits a string into
	// the command it runs.
	for i := range words {
		if programName(words[i]) != "env" {
			continue
		}
		for _, w := range words[i+1:] {
			if !strings.HasPrefix(w.val, "-") && !isAssignment(w) {
				break
			}
			if strings.HasPrefix(w.val, "-S") || strings.HasPrefix(w.val, "--sp") {
				return "runs a command line given as a string (env " + w.val + "), which cannot be checked"
			}
		}
		break
	}
	known := func(w shellWord) bool { return !w.expand && !w.glob && w.val != "" }
	if w, _ := unwrap(words); len(w) > 0 && !known(w[0]) || !known(words[0]) {
		name := words[0].val
		if len(w) > 0 {
			name = w[0].val
		}
		return "runs a command whose name is only known when it runs (" + name + ")"
	}
	return ""
}

// commandReason checks one simple command (without its env assignments).
func (d dangerCheck) commandReason(words []shellWord, cwds []string) string {
	if script, ok := stringCommand(words); ok {
		return dangerCheck{root: d.root, workdir: cwds[len(cwds)-1], home: d.home}.reason(script)
	}
	words, fromXargs := unwrap(words)
	if len(words) == 0 {
		return ""
	}
	if script, ok := stringCommand(words); ok {
		return dangerCheck{root: d.root, workdir: cwds[len(cwds)-1], home: d.home}.reason(script)
	}
	prog := programName(words[0])
	args := words[1:]
	switch {
	case prog == "rm":
		return d.rmReason(args, cwds, fromXargs)
	case prog == "git":
		return gitReason(args)
	case prog == "find":
		return d.findReason(args, cwds)
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
			if len(args) > 0 && args[0].val == "--" {
				args = args[1:]
			}
			for _, a := range args {
				script += a.val + " "
			}
		} else {
			if s, ok := shellScript(args); ok {
				script = s.val
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
			case wrapperOperands[prog] > 0:
				// timeout's duration, chrt's priority, taskset's mask, flock's lock file.
				words = words[min(wrapperOperands[prog], len(words)):]
			}
			break
		}
	}
	return words, xargs
}

// wrappers maps programs that run another command to their options that take
// a separate argument (space-delimited, with spaces around).
var wrappers = map[string]string{
	"sudo":     " -u -g -C -D -h -p -r -t -U ",
	"doas":     " -u -C ",
	"env":      " -u -C -S ",
	"command":  " ",
	"builtin":  " ",
	"exec":     " -a ",
	"nohup":    " ",
	"time":     " -f -o ",
	"nice":     " -n ",
	"ionice":   " -c -n -p ",
	"timeout":  " -s -k ",
	"stdbuf":   " -i -o -e ",
	"xargs":    " -I -n -P -L -s -d -E -a ",
	"setsid":   " ",
	"busybox":  " ",
	"toybox":   " ",
	"pkexec":   " --user ",
	"chronic":  " ",
	"unbuffer": " ",
	"chrt":     " ",
	"taskset":  " ",
	"flock":    " -w -E ",
	"strace":   " -o -e -p -s -u -E -a -b -I -O -P -X ",
	"ltrace":   " -o -e -p -s -u -E -a -n ",
	"unshare":  " -S -G -R -w ",
	"valgrind": " ",
	"firejail": " ",
}

// wrapperOperands are how many operands a wrapper takes before the
// command it runs.
var wrapperOperands = map[string]int{"timeout": 1, "chrt": 1, "taskset": 1, "flock": 1}

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
			if longOpt(a.val, "--recursive") { // GNU rm takes any unique prefix
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
		return "runs rm -r on paths read by xargs, which cannot be checked beforehand"
	}
	for _, op := range operands {
		for _, cwd := range cwds {
			if r := d.rmTarget(op, cwd); r != "" {
				return "runs rm -r, " + r
			}
		}
	}
	return ""
}

// rmTarget says why removing one operand (relative to cwd) is dangerous, or "".
func (d dangerCheck) rmTarget(op shellWord, cwd string) string {
	if op.glob && strings.Contains(op.val, "{") {
		// A brace expansion removes each of its alternatives.
		for _, alt := range expandBraces(op.val) {
			if r := d.rmTarget(shellWord{val: alt, expand: op.expand, glob: true}, cwd); r != "" {
				return r
			}
		}
		return ""
	}
	v, ok := d.expandHome(op.val)
	switch {
	case !ok:
		return "reaching the home directory (" + op.val + ")"
	case strings.ContainsAny(v, "$`") || op.expand && strings.ContainsAny(v, "()"):
		return "on a path that depends on a variable or command (" + op.val + "), so where it points cannot be checked"
	case cwd == "" && !filepath.IsAbs(v):
		return "on " + op.val + " after a cd that cannot be followed"
	}
	glob := ""
	if op.glob && strings.ContainsAny(v, "*?[") {
		// Check the directory the pattern expands in, and what the pattern
		// could match there.
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
		if glob == "" || globCoversAll(glob) {
			return "removing the whole workspace (" + op.val + ")"
		}
	case p == d.home:
		return "reaching the home directory (" + op.val + ")"
	case !isInside(d.root, p):
		return "reaching outside the workspace (" + op.val + ")"
	}
	if glob != "" && globMatches(glob, ".git") && (p == d.root || exists(filepath.Join(p, ".git"))) ||
		hasGitElem(strings.TrimPrefix(p, d.root)) {
		return "removing the repository's .git (" + op.val + "), its whole history"
	}
	return ""
}

// exists reports whether a file exists at p (a link counts).
func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// hasGitElem reports whether a path has a .git element (in any case).
func hasGitElem(p string) bool {
	for _, part := range strings.Split(filepath.ToSlash(p), "/") {
		if strings.EqualFold(part, ".git") {
			return true
		}
	}
	return false
}

// globMatches reports whether a bash pattern (one path element) could
// match name. It ignores bash's rule that * and ? do not match a leading
// dot, since dotglob may be set; a pattern Go cannot read matches.
func globMatches(pattern, name string) bool {
	ok, err := path.Match(strings.ReplaceAll(pattern, "[!", "[^"), name)
	return ok || err != nil
}

// globCoversAll reports whether a pattern matches any name at all, as *,
// ?*, [!.]* or .* do, so removing it empties the directory.
func globCoversAll(pattern string) bool {
	if strings.Trim(pattern, "*?.") == "" {
		return true
	}
	for _, name := range []string{"a", "src", "main.go", "Makefile", "README.md", "_x", "1"} {
		if !globMatches(pattern, name) {
			return false
		}
	}
	return true
}

// expandBraces expands the first brace expansion of a word and recurses:
// "{a,b}/c" → "a/c", "b/c". A sequence ({1..9}) becomes a *.
func expandBraces(v string) []string {
	open := strings.IndexByte(v, '{')
	if open < 0 {
		return []string{v}
	}
	if strings.Count(v, ",")+strings.Count(v, "..") > maxBraceAlts {
		// Too many to list (each group multiplies them): stand for every
		// alternative with a * instead.
		return []string{bracesToStar(v)}
	}
	depth, end := 0, -1
	var commas []int
	for i := open; i < len(v) && end < 0; i++ {
		switch v[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				end = i
			}
		case ',':
			if depth == 1 {
				commas = append(commas, i)
			}
		}
	}
	if end < 0 {
		return []string{v}
	}
	inner := v[open+1 : end]
	var alts []string
	switch {
	case len(commas) > 0:
		from := open + 1
		for _, c := range append(commas, end) {
			alts = append(alts, v[from:c])
			from = c + 1
		}
	case strings.Contains(inner, ".."):
		alts = []string{"*"}
	default:
		// Not an expansion: keep the braces and expand what follows.
		var out []string
		for _, rest := range expandBraces(v[end+1:]) {
			out = append(out, v[:end+1]+rest)
		}
		return out
	}
	var out []string
	for _, a := range alts {
		out = append(out, expandBraces(v[:open]+a+v[end+1:])...)
	}
	if len(out) > 64 {
		out = out[:64]
	}
	return out
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
	if !ok || v == "-" || strings.ContainsAny(v, "$`") || cwd == "" && !filepath.IsAbs(v) {
		return ""
	}
	if args[0].glob {
		// cd takes the glob's one match; more or none fail.
		if !filepath.IsAbs(v) {
			v = filepath.Join(cwd, v)
		}
		if m, err := filepath.Glob(v); err == nil && len(m) == 1 {
			return m[0]
		}
		return ""
	}
	if filepath.IsAbs(v) {
		return filepath.Clean(v)
	}
	return filepath.Join(cwd, v)
}

// gitReason checks git: force pushes, hard resets and git clean removing
// untracked directories or ignored files always ask. Long options are
// matched as git matches them, by any unique prefix (--force-w is
// --force-with-lease, --har is --hard); an ambiguous prefix makes git fail,
// so treating it as the dangerous option only asks once too often.
func gitReason(args []shellWord) string {
	sub, rest := gitSubcommand(args)
	switch sub {
	case "push":
		for _, a := range rest {
			v := a.val
			switch {
			case longOpt(v, "--force", "--force-with-lease", "--force-if-includes"):
				return "force-pushes (git push " + v + ")"
			case gitShortOpt(v, 'f'):
				return "force-pushes (git push " + v + ")"
			case strings.HasPrefix(v, "+") && len(v) > 1:
				return "force-pushes (git push " + v + ")"
			case longOpt(v, "--mirror", "--delete", "--prune") || gitShortOpt(v, 'd'):
				return "deletes or overwrites branches of the remote (git push " + v + ")"
			case strings.HasPrefix(v, ":") && len(v) > 1:
				return "deletes a branch of the remote (git push " + v + ")"
			}
		}
	case "reset":
		for _, a := range rest {
			if longOpt(a.val, "--hard") {
				return "discards uncommitted changes (git reset " + a.val + ")"
			}
		}
	case "checkout", "restore", "switch":
		return gitDiscardReason(sub, rest)
	case "clean":
		force, wide := false, ""
		for _, a := range rest {
			v := a.val
			if v == "--" {
				break
			}
			if longOpt(v, "--force") || gitShortOpt(v, 'f') {
				force = true
			}
			if gitShortOpt(v, 'd') || gitShortOpt(v, 'x') || gitShortOpt(v, 'X') {
				wide = v
			}
		}
		if force && wide != "" {
			return "deletes untracked directories or ignored files (git clean " + wide + ")"
		}
	}
	return ""
}

// longOpt reports whether v (--name or --name=value) names one of the long
// options, or an abbreviation of one, by the prefix rule git and GNU
// getopt share.
func longOpt(v string, names ...string) bool {
	name, _, _ := strings.Cut(v, "=")
	if len(name) < 3 || !strings.HasPrefix(name, "--") {
		return false
	}
	for _, n := range names {
		if strings.HasPrefix(n, name) {
			return true
		}
	}
	return false
}

// gitShortOpt reports whether v is a cluster of short options holding c
// (-f, -fu, -fdx).
func gitShortOpt(v string, c byte) bool {
	return len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.IndexByte(v[1:], c) >= 0
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
	case "null", "zero", "stdout", "stderr", "stdin", "tty", "full", "random", "urandom", "ptmx":
		return true
	}
	return strings.HasPrefix(dev, "fd/") || strings.HasPrefix(dev, "pts/") || strings.HasPrefix(dev, "shm/")
}

// isShellName reports whether prog is a shell that runs scripts.
func isShellName(prog string) bool {
	switch prog {
	case "sh", "bash", "zsh", "dash", "ksh", "fish", "ash", "mksh", "ksh93", "oksh", "loksh", "yash", "posh",
		"rbash", "csh", "tcsh", "elvish", "nu", "xonsh":
		return true
	}
	return false
}

// isCd reports whether prog changes the shell's working directory.
func isCd(prog string) bool { return prog == "cd" || prog == "pushd" || prog == "popd" }

// pushdArgs drops pushd's -n, which cd does not take.
func pushdArgs(args []shellWord) []shellWord {
	if len(args) > 0 && args[0].val == "-n" {
		return args[1:]
	}
	return args
}

// maxBraceAlts bounds the commas and ranges of a word whose brace
// expansions are listed one by one; {a,b}{a,b}... grows exponentially.
const maxBraceAlts = 16

// bracesToStar replaces each outermost {...} of v with *.
func bracesToStar(v string) string {
	var sb strings.Builder
	depth := 0
	for i := 0; i < len(v); i++ {
		switch {
		case v[i] == '{':
			if depth == 0 {
				sb.WriteByte('*')
			}
			depth++
		case v[i] == '}' && depth > 0:
			depth--
		case depth == 0:
			sb.WriteByte(v[i])
		}
	}
	return sb.String()
}
