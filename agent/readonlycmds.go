package agent

import "strings"

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
// they write files, run programs or wait for a terminal.
var readOnlyCommands = map[string]readOnlySpec{
	"ls": {}, "cat": {}, "head": {}, "wc": {}, "stat": {}, "du": {},
	"basename": {}, "dirname": {}, "which": {},
	"pwd": {plain: true}, "echo": {plain: true}, "true": {plain: true}, "false": {plain: true},
	"printf": {plain: true, check: noOption("-v")},
	"tail":   {check: tailReads},
	"grep":   {check: grepReads}, "egrep": {check: grepReads}, "fgrep": {check: grepReads},
	"rg":   {check: rgReads},
	"find": {check: findReads},
	"sort": {check: sortReads},
	"git":  {check: gitReads},
	"go":   {check: goReads},
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

// longOpt reports whether v is one of the long options (--name or
// --name=value), or an abbreviation of one as GNU getopt accepts.
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

// tailReads refuses following a file (-f, -F, --follow, --retry, the
// obsolete -20f): it waits for more lines until the timeout.
func tailReads(c readOnlyCall) bool {
	for _, a := range c.args {
		if a.val == "--" {
			break
		}
		if shortCluster(a.val, "fF") || longOpt(a.val, "--follow", "--retry", "--pid") {
			return false
		}
	}
	return true
}

// grepReads refuses recursive searches, which reach secret files by
// walking folders; the grep tool skips them.
func grepReads(c readOnlyCall) bool {
	for _, a := range c.args {
		if a.val == "--" {
			break
		}
		if shortCluster(a.val, "rRd") || longOpt(a.val, "--recursive", "--dereference-recursive", "--directories") {
			return false
		}
	}
	return true
}

// findReads refuses the actions that run programs (-exec, -execdir, -ok,
// -okdir), delete (-delete) or write files (-fprint, -fprint0, -fprintf,
// -fls).
func findReads(c readOnlyCall) bool {
	for _, a := range c.args {
		switch a.val {
		case "-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls":
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
		if a.val == "--" {
			break
		}
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
// program (--ext-diff, --textconv, -O's pager in grep) or read outside
// the repository (--no-index).
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
	for _, a := range c.args[i+1:] {
		if a.val == "--" {
			break
		}
		if gitLongOpt(a.val, "--output", "--output-directory", "--ext-diff", "--textconv", "--no-index",
			"--open-files-in-pager", "--exec", "--paginate") {
			return false
		}
	}
	return true
}

// goReads allows go list and go vet without the options that run a
// program of the command's choosing (-exec, -toolexec, -vettool), write
// files (-o, -modfile, -pkgdir, -debug-*, -mod=mod updating go.mod) or
// pass flags on to the compiler and linker, nor go list -u, which asks
// the network.
func goReads(c readOnlyCall) bool {
	if len(c.args) == 0 || c.args[0].val != "list" && c.args[0].val != "vet" {
		return false
	}
	for _, a := range c.args[1:] {
		v := a.val
		if v == "--" {
			break
		}
		if strings.HasPrefix(v, "--") {
			v = v[1:] // the go command takes -flag and --flag alike
		}
		name, val, eq := strings.Cut(v, "=")
		switch {
		case name == "-mod":
			if !eq || val != "readonly" && val != "vendor" {
				return false
			}
		case strings.HasPrefix(name, "-debug"):
			return false
		}
		switch name {
		case "-exec", "-toolexec", "-vettool", "-overlay", "-modfile", "-C", "-o", "-pkgdir",
			"-ldflags", "-gcflags", "-asmflags", "-gccgoflags", "-u":
			return false
		}
	}
	return true
}
