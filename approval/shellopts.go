package approval

import "strings"

// Options through which a program a rule allows runs another program of
// the caller's choosing (go test -exec, tar --to-command, git grep -O,
// rg --pre): a rule written for the program does not vouch for them.
var programOptions = map[string][]string{
	"go":    {"-exec", "-toolexec", "-ldflags", "-overlay"},
	"tar":   {"--to-command", "--use-compress-program", "-I", "--checkpoint-action", "--info-script", "--new-volume-script", "-F"},
	"rsync": {"-e", "--rsh", "--rsync-path"},
	"ssh":   {"-o", "-F"},
	"scp":   {"-o", "-F", "-S"},
	"rg":    {"--pre"},
	"sort":  {"--compress-program"},
	"zip":   {"-TT", "--unzip-command"},
	"man":   {"-P", "--pager", "-H", "--html"},
	"npm":   {"--script-shell"},
	"git":   {"--upload-pack", "--receive-pack", "--exec", "--ext-diff", "--config-env", "--exec-path"},
}

// runsProgramOption returns the option of args through which prog runs a
// program the command chooses, or "".
func runsProgramOption(prog string, args []shellWord) string {
	opts := programOptions[prog]
	for _, a := range args {
		v := a.val
		if v == "--" {
			break
		}
		if prog == "go" && strings.HasPrefix(v, "--") {
			v = v[1:] // the go command takes -flag and --flag alike
		}
		for _, o := range opts {
			if v == o || strings.HasPrefix(v, o+"=") || len(o) == 2 && o[1] != '-' && strings.HasPrefix(v, o) ||
				prog == "git" && longOpt(v, o) {
				return v
			}
		}
	}
	if prog == "git" {
		return gitRunsProgram(args)
	}
	return ""
}

// gitRunsProgram returns git's global -c (which sets any config, a pager
// or an alias included) or git grep's -O (--open-files-in-pager=cmd), or "".
func gitRunsProgram(args []shellWord) string {
	for i := 0; i < len(args) && strings.HasPrefix(args[i].val, "-"); i++ {
		if v := args[i].val; v == "-c" || strings.HasPrefix(v, "-c") && len(v) > 2 && v[2] != '-' {
			return v
		}
	}
	sub, rest := gitSubcommand(args)
	if sub != "grep" {
		return ""
	}
	for _, a := range rest {
		if strings.HasPrefix(a.val, "-O") || longOpt(a.val, "--open-files-in-pager") {
			return a.val
		}
	}
	return ""
}

// gitWrites returns the files a git command writes through its own options
// (git log --output=file, git format-patch -o dir).
func gitWrites(args []shellWord) []shellWord {
	sub, rest := gitSubcommand(args)
	var out []shellWord
	for i, a := range rest {
		name, val, eq := strings.Cut(a.val, "=")
		switch {
		case longOpt(name, "--output", "--output-directory") && !strings.HasPrefix(name, "--output-i"):
			if eq {
				out = append(out, shellWord{val: val, expand: a.expand, glob: a.glob})
			} else if i+1 < len(rest) {
				out = append(out, rest[i+1])
			}
		case sub == "format-patch" && a.val == "-o" && i+1 < len(rest):
			out = append(out, rest[i+1])
		}
	}
	return out
}

// findExecs adds the commands find runs (-exec, -execdir, -ok, -okdir, up
// to ; or +) as commands of the line, so rules must vouch for them too, and
// the files -fprint, -fprint0, -fprintf and -fls write.
func (b *treeBuilder) findExecs(i int, args []shellWord, ctx treeCtx) {
	for j := 0; j < len(args); j++ {
		switch args[j].val {
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			if j+1 < len(args) {
				b.t.cmds[i].writes = append(b.t.cmds[i].writes, args[j+1])
			}
			continue
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		end := j + 1
		for end < len(args) && args[end].val != ";" && args[end].val != "+" {
			end++
		}
		words := args[j+1 : end]
		j = end
		if len(words) == 0 {
			continue
		}
		if strings.Contains(words[0].val, "{}") {
			b.setUnsure("find runs the files it finds")
			continue
		}
		c := shellCommand{words: append([]shellWord(nil), words...), nested: true, subshell: true, viaShell: ctx.viaShell}
		c.text, c.bare = renderCommand(c)
		k := len(b.t.cmds)
		b.t.cmds = append(b.t.cmds, c)
		b.judgeCall(k, nil, ctx)
	}
}

// nameArgReason returns why a builtin that takes variable names (printf
// -v, read, mapfile, test -v, wait -p, unset) cannot be vouched for: bash
// evaluates a subscript in such a name as arithmetic, which runs command
// substitutions (printf -v 'x[$(cmd)]' runs cmd), and mapfile -C runs a
// callback. Returns "" otherwise.
func nameArgReason(prog string, args []shellWord) string {
	flag := ""
	switch prog {
	case "printf":
		flag = "-v"
	case "test", "[":
		flag = "-v"
	case "wait":
		flag = "-p"
	case "read", "mapfile", "readarray", "unset":
	default:
		return ""
	}
	for i, a := range args {
		if (prog == "mapfile" || prog == "readarray") && strings.HasPrefix(a.val, "-C") {
			return prog + " -C runs a callback"
		}
		named := flag == "" || i > 0 && (args[i-1].val == flag || prog != "printf" && args[i-1].val == "-R")
		if named && strings.Contains(a.val, "[") {
			return prog + " takes a variable name with a subscript (" + a.val + "), which bash evaluates"
		}
	}
	return ""
}
