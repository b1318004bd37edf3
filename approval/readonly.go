package approval

import (
	"os"
	"path/filepath"
	"strings"
)

// readOnlyMessage is what the approval event says about a command that ran
// unasked because it only reads.
const readOnlyMessage = "a read-only command: runs without asking"

// maxGlobMatches bounds the files one glob of a read-only command is
// checked against; a glob matching more asks.
const maxGlobMatches = 512

// readOnly reports whether every simple command of a parsed line only
// reads: each is on the read-only list with options that neither write a
// file nor run a program, no redirection writes a file (but /dev/null and
// the standard streams), no word expands to something known only when the
// line runs, and no word names a path outside the workspace or a secret
// file. It is decided on the bash syntax tree, never by prefix: anything
// the check cannot read asks as before.
func (j *Judge) readOnly(tg target, d dangerCheck) bool {
	t := tg.tree
	if !tg.shell || t.err != nil || t.unsure != "" || t.download != "" || t.netFD || t.loops || len(t.cmds) == 0 {
		return false // a while loop of reads still runs until the timeout
	}
	if !searchPathOutside(os.Getenv("PATH"), d.root) {
		return false // ls could be the workspace's own ls
	}
	realRoot, err := filepath.EvalSymlinks(d.root)
	if err != nil {
		return false
	}
	ro := readOnlyCheck{d: d, secret: j.ws.IsSecret, realRoot: realRoot}
	for _, c := range t.cmds {
		if !ro.command(c) {
			return false
		}
	}
	return true
}

// readOnlyCheck judges the commands of one line.
type readOnlyCheck struct {
	d dangerCheck
	// secret reports whether a workspace-relative path names a secret file.
	secret func(rel string) bool
	// realRoot is the workspace root with its links resolved.
	realRoot string
}

// command reports whether one simple command only reads.
func (ro readOnlyCheck) command(c shellCommand) bool {
	if c.sep == "&" || c.envUnsafe || c.viaShell || c.nested {
		return false // a background job outlives the judgement; nested ones come from substitutions
	}
	f := c.flags
	if f.subst || f.arith || f.risky || f.hdocExpand || f.net {
		return false
	}
	for _, w := range c.writes {
		if !harmlessSink(w) {
			return false
		}
	}
	for _, r := range c.reads {
		if r.expand || r.glob || !ro.path(r.val) {
			return false
		}
	}
	if len(c.words) == 0 {
		return true // a redirection of a group, checked above
	}
	if programIndex(c.words) != 0 {
		return false // an assignment changes the environment the program sees
	}
	prog := c.words[0]
	if !literalName(prog) || strings.ContainsRune(prog.val, '/') {
		return false // ./ls is a workspace file, not the ls on the list
	}
	spec, ok := readOnlyCommands[prog.val]
	if !ok {
		return false
	}
	args := c.words[1:]
	for _, w := range args {
		if w.expand {
			return false
		}
		if spec.plain {
			continue // its words are printed, not opened
		}
		if w.glob && !ro.glob(w.val) {
			return false
		}
		if !w.glob && !ro.word(w.val) {
			return false
		}
	}
	return spec.check == nil || spec.check(readOnlyCall{args: args, piped: c.piped, workdir: ro.d.workdir, root: ro.d.root})
}

// harmlessSink reports whether an output redirection writes no file:
// /dev/null or a standard stream.
func harmlessSink(w shellWord) bool {
	if w.expand || w.glob {
		return false
	}
	switch w.val {
	case "/dev/null", "/dev/stdout", "/dev/stderr":
		return true
	}
	return false
}

// word reports whether an argument names no path outside the workspace and
// no secret file, as an operand, as an option's value (--file=x, -fx, also
// inside a cluster: -nf.env is -n -f .env) or as a revision's path (HEAD:x,
// :0:x).
func (ro readOnlyCheck) word(v string) bool {
	if !ro.path(v) {
		return false
	}
	if strings.Count(v, ":") > maxWordColons {
		return false // each suffix is checked; a hostile line must not stall the check
	}
	for i := 0; i < len(v); i++ {
		if v[i] == ':' && !ro.path(v[i+1:]) {
			return false // git show HEAD:.env reads the secret from the repository
		}
	}
	if strings.HasPrefix(v, "-") {
		if _, val, ok := strings.Cut(v, "="); ok && !ro.path(val) {
			return false
		}
		if len(v) > 2 && v[1] != '-' {
			if len(v) > maxCluster {
				return false
			}
			for i := 2; i < len(v); i++ {
				if !ro.path(v[i:]) {
					return false // any letter of the cluster may take the rest as its value
				}
			}
		}
	}
	return true
}

// maxWordColons and maxCluster bound the suffixes of one word that word
// checks as paths (each check costs the word's length and a stat), so a
// long hostile word costs linear time and asks.
const (
	maxWordColons = 8
	maxCluster    = 64
)

// path reports whether v, read as a path from the working directory, stays
// inside the workspace without climbing (..) and is not a secret file,
// also once the links on its way are followed: a hostile repository can
// hold a link to ~/.ssh/id_rsa, to /, or to .env. Words that are not paths
// pass when they look like none of those.
func (ro readOnlyCheck) path(v string) bool {
	if strings.HasPrefix(v, "~") {
		return false
	}
	for _, el := range strings.Split(filepath.ToSlash(v), "/") {
		if el == ".." {
			return false
		}
	}
	p := v
	if !filepath.IsAbs(p) {
		p = filepath.Join(ro.d.workdir, p)
	}
	p = filepath.Clean(p)
	if !ro.inside(ro.d.root, p) {
		return false
	}
	if _, err := os.Lstat(p); err != nil {
		return true // nothing there to read, by this name or through a link
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return false
	}
	if fi, err := os.Stat(real); err != nil || fi.Mode()&(os.ModeNamedPipe|os.ModeSocket|os.ModeDevice|os.ModeCharDevice|os.ModeIrregular) != 0 {
		return false // cat fifo waits until the timeout; a device is no file of the workspace
	}
	return ro.inside(ro.realRoot, real)
}

// inside reports whether p is root or under it and not a secret file.
func (ro readOnlyCheck) inside(root, p string) bool {
	if root == "" || p != root && !isInside(root, p) {
		return false
	}
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return false
	}
	return !ro.secret(filepath.ToSlash(rel))
}

// glob reports whether every file a glob matches now is a path the command
// may read and cannot be taken for an option: bash passes the names it
// finds, and a file named --pre=x.sh would be read by rg as an option. A
// glob with classes or extended patterns, which Go's matcher reads
// differently from bash, asks.
func (ro readOnlyCheck) glob(pattern string) bool {
	if strings.ContainsAny(pattern, "[]{}()!@+") || strings.HasPrefix(pattern, "-") || !ro.path(pattern) {
		return false
	}
	full := pattern
	if !filepath.IsAbs(full) {
		full = filepath.Join(ro.d.workdir, pattern)
	}
	matches, err := filepath.Glob(full)
	if err != nil || len(matches) > maxGlobMatches {
		return false
	}
	dotted := strings.HasPrefix(filepath.Base(pattern), ".")
	for _, m := range matches {
		if !dotted && strings.HasPrefix(filepath.Base(m), ".") {
			continue // bash's * skips dot files (dotglob is off, and shopt asks)
		}
		name := m
		if !filepath.IsAbs(pattern) {
			if r, err := filepath.Rel(ro.d.workdir, m); err == nil {
				name = r
			}
		}
		if strings.HasPrefix(name, "-") || strings.HasPrefix(filepath.Base(m), "-") || !ro.path(name) {
			return false
		}
	}
	return true
}

// readOnlyCall is what a command's own check looks at.
type readOnlyCall struct {
	args []shellWord
	// piped: the command reads the previous command's output.
	piped         bool
	workdir, root string
}

// regularFile reports whether a path names a regular file (not a folder,
// not a link) from the call's working directory.
func (c readOnlyCall) regularFile(v string) bool {
	p := v
	if !filepath.IsAbs(p) {
		p = filepath.Join(c.workdir, p)
	}
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode().IsRegular()
}

// searchPathOutside reports whether every folder of the command search
// path is absolute and outside the workspace: with ".", an empty entry, a
// relative one or a workspace folder (node_modules/.bin, bin) in $PATH,
// the ls a line names can be a script a hostile repository ships.
func searchPathOutside(path, root string) bool {
	rroot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return false
	}
	for _, dir := range filepath.SplitList(path) {
		if !filepath.IsAbs(dir) {
			return false
		}
		dir = filepath.Clean(dir)
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			dir = real
		}
		if dir == rroot || isInside(rroot, dir) || dir == root || isInside(root, dir) {
			return false
		}
	}
	return true
}
