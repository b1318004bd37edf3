package approval

import "strings"

// A shell also runs the script it reads on its input when it is given no
// -c script and no script file: a literal here-document (bash <<'EOF'),
// here-string (bash <<< 'rm -rf .git') or the output of echo or printf
// piped into it. Such scripts are read like `bash -c` scripts.

// readStdinScript reads a shell's literal input script as commands of the line.
func (b *treeBuilder) readStdinScript(prog, script string, ctx treeCtx) {
	if ctx.depth >= maxShellDepth {
		b.setUnsure(prog + " reads a script nested too deep to read")
		return
	}
	f, err := parseShellLine(script)
	if err != nil {
		b.setUnsure(prog + " reads a script that could not be parsed")
		return
	}
	sub := &treeBuilder{src: script, d: b.d, t: b.t}
	sub.stmts(f.Stmts, treeCtx{viaShell: true, depth: ctx.depth + 1, nested: ctx.nested})
}

// pipeScript gives a shell on the right of a pipe the literal words an
// echo or printf on its left prints as its input script.
func (b *treeBuilder) pipeScript(left, right []shellCommand) {
	if len(left) == 0 || len(right) == 0 {
		return
	}
	src, dst := left[len(left)-1], &right[0]
	words := src.words[programIndex(src.words):]
	if len(words) == 0 || dst.stdin != "" {
		return
	}
	prog := programName(words[0])
	if prog != "echo" && prog != "printf" || !isShellName(dst.program()) {
		return
	}
	parts := make([]string, 0, len(words))
	for _, w := range words[1:] {
		if w.expand {
			return // not literal: the shell's input is only known when it runs
		}
		parts = append(parts, w.val)
	}
	dst.stdin = strings.NewReplacer(`\n`, "\n", `\t`, "\t").Replace(strings.Join(parts, " "))
}

// stdinReason checks the literal input script of a shell run without -c.
func (d dangerCheck) stdinReason(c shellCommand, words []shellWord, cwds []string) string {
	if c.stdin == "" {
		return ""
	}
	w, _ := unwrap(words)
	if len(w) == 0 || !isShellName(programName(w[0])) {
		return ""
	}
	if !shellReadsStdin(w[1:]) {
		return ""
	}
	return dangerCheck{root: d.root, workdir: cwds[len(cwds)-1], home: d.home}.reason(c.stdin)
}

// shellReadsStdin reports whether a shell with these arguments reads its
// script from its input: no -c script and no script file, or -s.
func shellReadsStdin(args []shellWord) bool {
	for i := 0; i < len(args); i++ {
		a := args[i].val
		switch {
		case a == "--" || a == "-":
			return i+1 >= len(args)
		case a == "--rcfile" || a == "--init-file" || a == "-o" || a == "+o" || a == "-O" || a == "+O":
			i++
		case strings.HasPrefix(a, "--"):
		case len(a) > 1 && (a[0] == '-' || a[0] == '+'):
			if a[0] == '-' && strings.Contains(a, "c") {
				return false
			}
			if a[0] == '-' && strings.Contains(a, "s") {
				return true // -s: the words after it are the script's arguments
			}
			if strings.ContainsAny(a[1:], "oO") {
				i++
			}
		default:
			return false // a script file
		}
	}
	return true
}
