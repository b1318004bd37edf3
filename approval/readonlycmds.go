package approval

import (
	"os"
	"path/filepath"
	"strings"
)

// readOnlySpec says how a command on the read-only list is checked.
type readOnlySpec struct {
	// plain: the command prints its words and opens no file (echo), so
	// they are not read as paths.
	plain bool
	// check refuses the options through which the command writes a file,
	// runs a program, waits forever or reads past what the list allows;
	// nil when it has none.
	check func(readOnlyCall) bool
}

// readOnlyCommands are the commands that run without asking under the ask
// and auto-edit policies when they only read (see readOnly). sed, awk,
// less, xargs, env, sort's -o and the like are left off on purpose:
// they write files, run programs or wait for a terminal. go list and go
// vet are left off too: a go.mod can make them download modules or a
// whole toolchain (and run it), go list -m x@latest asks the proxy, and
// go vet compiles, running the C compiler on cgo files and writing the
// build cache.
var readOnlyCommands = map[string]readOnlySpec{
	"cat": {}, "head": {}, "stat": {},
	"ls":       {check: lsReads},
	"du":       {check: duReads},
	"wc":       {check: wcReads},
	"basename": {}, "dirname": {}, "which": {},
	"pwd": {plain: true}, "echo": {plain: true}, "true": {plain: true}, "false": {plain: true},
	"printf": {plain: true, check: noOption("-v")},
	"tail":   {check: tailReads},
	"grep":   {check: grepReads}, "egrep": {check: grepReads}, "fgrep": {check: grepReads},
	"rg":   {check: rgReads},
	"find": {check: findReads},
	"sort": {check: sortReads},
	"git":  {check: gitReads},
}

// noOption refuses the given options.
func noOption(names ...string) func(readOnlyCall) bool {
	return func(c readOnlyCall) bool {
		for _, a := range c.args {
			for _, n := range names {
				if a.val == n || strings.HasPrefix(a.val, n+"=") || len(n) == 2 && strings.HasPrefix(a.val, n) {
					return false
				}
			}
		}
		return true
	}
}

// shortCluster reports whether v is a cluster of short options (-nf)
// holding one of the letters.
func shortCluster(v, letters string) bool {
	return len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.ContainsAny(v[1:], letters)
}

// The option checks below look at every word, those after -- too: a -- may
// be the value of the option before it (grep -e -- -r: the pattern is --
// and -r an option), and a file named like an option is rare enough to ask.

// tailReads refuses following a file (-f, -F, --follow, --retry, the
// obsolete -20f and +20f): it waits for more lines until the timeout.
func tailReads(c readOnlyCall) bool {
	for _, a := range c.args {
		if shortCluster(a.val, "fF") || longOpt(a.val, "--follow", "--retry", "--pid") ||
			strings.HasPrefix(a.val, "+") && strings.ContainsAny(a.val, "fF") {
			return false
		}
	}
	return true
}

// lsReads refuses following links (-L, --dereference): ls -RL walks
// through a link to / out of the workspace.
func lsReads(c readOnlyCall) bool {
	for _, a := range c.args {
		if shortCluster(a.val, "L") || longOpt(a.val, "--dereference") {
			return false
		}
	}
	return true
}

// duReads refuses following links (-L, --dereference) and --files0-from,
// which takes the names to measure from a file or a pipe (printf '/\0' |
// du --files0-from=- walks the whole disk).
func duReads(c readOnlyCall) bool {
	for _, a := range c.args {
		if shortCluster(a.val, "L") || longOpt(a.val, "--dereference", "--files0-from") {
			return false
		}
	}
	return true
}

// wcReads refuses --files0-from, which takes the names to count from a
// file or a pipe, outside the workspace or secret ones included.
func wcReads(c readOnlyCall) bool {
	for _, a := range c.args {
		if longOpt(a.val, "--files0-from") {
			return false
		}
	}
	return true
}

// grepReads refuses recursive searches, which reach secret files by
// walking folders; the grep tool skips them.
func grepReads(c readOnlyCall) bool {
	for _, a := range c.args {
		if shortCluster(a.val, "rRd") || longOpt(a.val, "--recursive", "--dereference-recursive", "--directories") {
			return false
		}
	}
	return true
}

// findReads refuses the actions that run programs (-exec, -execdir, -ok,
// -okdir), delete (-delete) or write files (-fprint, -fprint0, -fprintf,
// -fls), following links (-L, -follow: a link to / walks the disk) and
// -files0-from, which takes the starting points from a file or a pipe.
func findReads(c readOnlyCall) bool {
	for _, a := range c.args {
		switch a.val {
		case "-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls",
			"-L", "-follow", "-files0-from":
			return false
		}
	}
	return true
}

// sortReads refuses -o (writes the output file), --compress-program (runs
// a program) and -T (writes temporary files where it says); a cluster
// holding o or T may be one of them.
func sortReads(c readOnlyCall) bool {
	for _, a := range c.args {
		if shortCluster(a.val, "oT") || longOpt(a.val, "--output", "--compress-program", "--temporary-directory", "--files0-from") {
			return false
		}
	}
	return true
}

// rg options that take no value, and those that take one; any other
// option asks (--pre runs a program, -z runs decompressors, --hidden,
// -u and --no-ignore reach secret files, -L follows links out).
var (
	rgShortFlags = "iSswxnNlcvFHoIUqa"
	rgShortValue = "ABCefgjmMrtTE"
	rgLongFlags  = []string{"--ignore-case", "--smart-case", "--case-sensitive", "--word-regexp", "--line-regexp",
		"--line-number", "--no-line-number", "--count", "--count-matches", "--files-with-matches",
		"--files-without-match", "--invert-match", "--fixed-strings", "--only-matching", "--no-filename",
		"--with-filename", "--quiet", "--vimgrep", "--json", "--column", "--no-heading", "--heading",
		"--multiline", "--text", "--trim", "--stats", "--null"}
	rgLongValue = []string{"--regexp", "--file", "--after-context", "--before-context", "--context",
		"--max-count", "--glob", "--iglob", "--type", "--type-not", "--max-columns", "--encoding",
		"--replace", "--sort", "--sortr", "--threads", "--color", "--max-depth"}
)

// rgReads allows rg only with the options above and with files to search:
// every path it is given must be a regular file, and with none it must
// read the previous command's output. A folder (or none, which is the
// working folder) is searched recursively and asks like grep -r.
func rgReads(c readOnlyCall) bool {
	var positional []shellWord
	patternGiven := false
	for i := 0; i < len(c.args); i++ {
		v := c.args[i].val
		switch {
		case v == "--":
			positional = append(positional, c.args[i+1:]...)
			i = len(c.args)
		case strings.HasPrefix(v, "--"):
			name, _, eq := strings.Cut(v, "=")
			switch {
			case exactOpt(name, rgLongFlags):
			case exactOpt(name, rgLongValue):
				if name == "--regexp" || name == "--file" {
					patternGiven = true
				}
				if !eq {
					i++
				}
			default:
				return false
			}
		case strings.HasPrefix(v, "-") && len(v) > 1:
			for j := 1; j < len(v); j++ {
				ch := v[j]
				if strings.IndexByte(rgShortFlags, ch) >= 0 {
					continue
				}
				if strings.IndexByte(rgShortValue, ch) < 0 {
					return false
				}
				if ch == 'e' || ch == 'f' {
					patternGiven = true
				}
				if j == len(v)-1 {
					i++ // the value is the next word
				}
				break
			}
		default:
			positional = append(positional, c.args[i])
		}
	}
	if !patternGiven {
		if len(positional) == 0 {
			return false
		}
		positional = positional[1:]
	}
	if len(positional) == 0 {
		return c.piped
	}
	for _, p := range positional {
		if p.glob || !c.regularFile(p.val) {
			return false
		}
	}
	return true
}

// exactOpt reports whether name is one of the options, spelled in full.
func exactOpt(name string, opts []string) bool {
	for _, o := range opts {
		if name == o {
			return true
		}
	}
	return false
}

// gitReadSubcommands are the git subcommands on the read-only list.
var gitReadSubcommands = map[string]bool{"status": true, "log": true, "diff": true, "show": true, "blame": true}

// gitReads allows git status, log, diff, show and blame with no global
// option but --no-pager (-c sets any config, pagers and external diffs
// included; -C, --git-dir and --work-tree point elsewhere; -p forces a
// pager), and none of the options that write a file (--output), run a
// program (--ext-diff, --textconv, -O's pager in grep, --show-signature
// and the %G formats, which run gpg on a signed commit) or read outside
// the repository (--no-index, or git diff of two paths, which is the
// same outside a repository). Git must also find the workspace's own
// repository (see gitRepoIsWorkspace).
func gitReads(c readOnlyCall) bool {
	i := 0
	for i < len(c.args) && strings.HasPrefix(c.args[i].val, "-") {
		switch c.args[i].val {
		case "--no-pager", "-P", "--no-optional-locks":
		default:
			return false
		}
		i++
	}
	if i >= len(c.args) || !gitReadSubcommands[c.args[i].val] {
		return false
	}
	if c.args[i].val == "diff" && gitDiffNoIndex(c.args[i+1:], c.workdir) {
		return false
	}
	for _, a := range c.args[i+1:] {
		if longOpt(a.val, "--output", "--output-directory", "--ext-diff", "--textconv", "--no-index",
			"--open-files-in-pager", "--exec", "--paginate", "--show-signature") || gpgFormat(a.val) {
			return false
		}
	}
	return gitRepoIsWorkspace(c.workdir, c.root)
}

// gpgFormat reports whether a word holds a pretty-format placeholder that
// verifies a signature (%G?, %GG, %GS, %GK, ..., also %+G and %-G).
func gpgFormat(v string) bool {
	for i := 0; i < len(v); i++ {
		if v[i] != '%' {
			continue
		}
		j := i + 1
		for j < len(v) && (v[j] == '+' || v[j] == '-' || v[j] == ' ') {
			j++
		}
		if j < len(v) && v[j] == 'G' {
			return true
		}
	}
	return false
}

// gitRepoIsWorkspace reports whether git started in workdir finds the
// repository of the workspace (or one above it), not one committed inside
// it: git looks for .git, or a folder that is itself a repository (HEAD,
// objects, refs), from its working directory up, and reads that
// repository's config, which can run programs (core.fsmonitor,
// diff.external). A hostile repository can commit a folder laid out as a
// bare repository; the model only has to pick it as workdir.
func gitRepoIsWorkspace(workdir, root string) bool {
	wd, err := filepath.EvalSymlinks(workdir)
	if err != nil {
		return false
	}
	rroot, err := filepath.EvalSymlinks(root)
	if err != nil || wd != rroot && !isInside(rroot, wd) {
		return false
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		_, errGit := os.Lstat(filepath.Join(dir, ".git"))
		_, errHead := os.Lstat(filepath.Join(dir, "HEAD"))
		if dir == rroot {
			if errGit != nil && errHead == nil {
				return false
			}
			break
		}
		if errGit == nil || errHead == nil {
			return false
		}
	}
	// With no repository at all, git diff a b compares the two as files
	// or folders (--no-index), a folder's secret files included.
	for dir := rroot; ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return !partialClone(filepath.Join(dir, ".git"))
		}
		if filepath.Dir(dir) == dir {
			return false
		}
	}
}

// gitDiffNoIndex reports whether git diff is given two paths that exist:
// git compares them as files or folders, outside any repository's view,
// when it finds no repository it may use (none, or one of another owner),
// and prints every file of two folders, secret ones included.
func gitDiffNoIndex(args []shellWord, workdir string) bool {
	n := 0
	for _, a := range args {
		if strings.HasPrefix(a.val, "-") && a.val != "-" {
			continue
		}
		p := a.val
		if !filepath.IsAbs(p) {
			p = filepath.Join(workdir, p)
		}
		if _, err := os.Lstat(p); err == nil {
			n++
		}
	}
	return n >= 2
}

// partialClone reports whether the repository of a .git folder or file is
// a partial clone (git clone --filter), or its config cannot be read: git
// log -p, show and diff fetch the contents they lack from the remote,
// over the network, and write them into .git.
func partialClone(dotgit string) bool {
	dir := dotgit
	if fi, err := os.Stat(dotgit); err != nil {
		return true
	} else if !fi.IsDir() {
		// A worktree or submodule: "gitdir: <dir>", whose commondir file
		// names the folder holding the config.
		b, err := os.ReadFile(dotgit)
		if err != nil {
			return true
		}
		gd, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
		if !ok {
			return true
		}
		dir = strings.TrimSpace(gd)
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(filepath.Dir(dotgit), dir)
		}
		if c, err := os.ReadFile(filepath.Join(dir, "commondir")); err == nil {
			common := strings.TrimSpace(string(c))
			if !filepath.IsAbs(common) {
				common = filepath.Join(dir, common)
			}
			dir = common
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "config"))
	if err != nil {
		return !os.IsNotExist(err)
	}
	cfg := strings.ToLower(string(b))
	return strings.Contains(cfg, "promisor") || strings.Contains(cfg, "partialclone")
}
