package approval

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// shellTree is a command line as bash reads it: parsed by mvdan.cc/sh (the
// parser behind shfmt), then flattened into its simple commands, so the
// allow rules, the grants and the always-ask checks all judge the commands
// bash would run rather than a guess at them.
type shellTree struct {
	// cmds are every simple command of the line in the order they appear,
	// including those inside subshells, blocks, pipelines, control
	// structures, command and process substitutions, function bodies and
	// literal `bash -c '...'` scripts; commands inside a substitution come
	// before the command holding it.
	cmds []shellCommand
	// err is set when the parser rejects the line.
	err error
	// unsure says why allow rules and grants cannot vouch for the line (an
	// expansion that could change what runs, or a construct they do not
	// judge), or "" when every command is known before it runs.
	unsure string
	// download says how data from a network tool reaches an interpreter, or "".
	download string
	// downloaded are the files network tools of the line write to.
	downloaded map[string]bool
	// netFD: exec opened a descriptor on a network tool's output.
	netFD bool
	// loops: the line holds a while or until loop, which may never end, or
	// for loops whose body runs more than maxForRuns times.
	loops bool
	// lastNet is 1 + the index of the last command that runs a network
	// tool, and lastFeed the same for a network tool or a command reading
	// a downloaded file (0: none yet), so "does this range of commands hold
	// one" costs nothing however long or deep the line is.
	lastNet, lastFeed int
}

// maxShellDepth bounds how deep `bash -c` scripts inside scripts are read;
// deeper ones are left unread and make the line unsure.
const maxShellDepth = 4

// shellParser reads bash; the parser keeps no state between calls that
// matters to us, but it is cheap to make and not safe for concurrent use.
func newShellParser() *syntax.Parser { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }

// readShell parses a command line and flattens it. d gives the workspace
// and working directory, which decide whether `source file` reads a
// workspace file.
func readShell(line string, d dangerCheck) shellTree {
	var t shellTree
	b := &treeBuilder{src: line, d: d, t: &t}
	if strings.ContainsRune(line, '\r') {
		// The parser reads a carriage return as a blank (for CRLF files);
		// bash reads it as part of a word, so `ls \r# ; rm -rf .git` is
		// one command to the parser and two to bash.
		t.err = errors.New("it holds a carriage return, which bash reads as part of a word and the parser as a blank")
		t.unsure = "it could not be parsed"
		return t
	}
	f, err := parseShellLine(line)
	if err != nil {
		t.err = err
		t.unsure = "it could not be parsed"
		return t
	}
	b.stmts(f.Stmts, treeCtx{})
	b.outsideWrites()
	return t
}

// parseShellLine parses bash source; a panic in the parser becomes an error.
func parseShellLine(line string) (f *syntax.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, fmt.Errorf("shell parser failed: %v", r)
		}
	}()
	f, err = newShellParser().Parse(strings.NewReader(line), "")
	if err != nil {
		return nil, fmt.Errorf("not valid bash: %w", err)
	}
	return f, nil
}

// treeCtx is where a command sits in the tree.
type treeCtx struct {
	// nested: inside a command or process substitution.
	nested bool
	// subshell: in a subshell, a control structure or a function body,
	// where a cd may not reach the commands after it.
	subshell bool
	// viaShell: inside a `bash -c` script (the always-ask check reads those
	// scripts itself, with the right working directory).
	viaShell bool
	depth    int
	// forRuns: how many times the for loops around a command run it (0: no
	// loop), counting the words of their lists, brace expansions expanded.
	forRuns int
}

// globWord reports whether a word holds a glob bash expands to files.
func globWord(b *treeBuilder, w *syntax.Word) bool {
	var sw shellWord
	var sb strings.Builder
	for _, p := range w.Parts {
		b.part(&sb, &sw, p, false)
	}
	return sw.glob
}

// maxForRuns bounds how many times for loops may run a command before the
// line counts as a loop that may run until the timeout.
const maxForRuns = 256

type treeBuilder struct {
	src string
	d   dangerCheck
	t   *shellTree
}

// setUnsure records the first reason rules cannot vouch for the line.
func (b *treeBuilder) setUnsure(why string) {
	if b.t.unsure == "" {
		b.t.unsure = why
	}
}

func (b *treeBuilder) stmts(list []*syntax.Stmt, ctx treeCtx) {
	for _, s := range list {
		b.stmt(s, ctx)
	}
}

// stmt adds the commands of one statement; its last command gets the
// separator that ends the statement.
func (b *treeBuilder) stmt(s *syntax.Stmt, ctx treeCtx) {
	start := len(b.t.cmds)
	if s.Coprocess || s.Disown {
		b.setUnsure("it uses a coprocess")
	}
	if s.Cmd == nil {
		// A bare redirection ("> file") truncates or creates its target.
		c := shellCommand{nested: ctx.nested, subshell: ctx.subshell, viaShell: ctx.viaShell}
		b.redirects(&c, s.Redirs, ctx)
		b.wordUnsure(c.flags)
		c.text = strings.Join(c.redirs, " ")
		c.bare = c.text
		b.t.cmds = append(b.t.cmds, c)
	} else {
		b.command(s, ctx)
	}
	if n := len(b.t.cmds); n > start {
		sep := ";"
		if s.Background {
			sep = "&"
		}
		b.t.cmds[n-1].sep = sep
	}
}

// command adds the commands of a statement's command.
func (b *treeBuilder) command(s *syntax.Stmt, ctx treeCtx) {
	inner := ctx
	inner.subshell = true
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		b.call(c, s.Redirs, ctx)
		return
	case *syntax.DeclClause:
		b.decl(c, s.Redirs, ctx)
		return
	case *syntax.BinaryCmd:
		start := len(b.t.cmds)
		b.stmt(c.X, ctx)
		mid := len(b.t.cmds)
		leftFeeds := b.t.lastFeed > start
		if mid > start {
			b.t.cmds[mid-1].sep = c.Op.String()
		}
		b.stmt(c.Y, ctx)
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			if mid < len(b.t.cmds) {
				b.t.cmds[mid].piped = true
			}
			if leftFeeds {
				b.pipeDownload(b.t.cmds[mid:])
			}
			b.pipeScript(b.t.cmds[start:mid], b.t.cmds[mid:])
		}
	case *syntax.Subshell:
		b.stmts(c.Stmts, inner)
	case *syntax.Block:
		b.stmts(c.Stmts, ctx)
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			b.stmts(ic.Cond, inner)
			b.stmts(ic.Then, inner)
		}
	case *syntax.WhileClause:
		b.t.loops = true
		b.stmts(c.Cond, inner)
		b.stmts(c.Do, inner)
	case *syntax.ForClause:
		switch l := c.Loop.(type) {
		case *syntax.WordIter:
			n := 0
			for _, w := range l.Items {
				b.wordUnsure(b.nestedIn(w, ctx))
				alts, ok := b.braces(w)
				switch {
				case !ok:
					// for i in {1..100000000} makes bash build every word first.
					b.setUnsure("a brace expansion in it is too large to read")
				case alts != nil:
					n += len(alts)
				case globWord(b, w):
					n += maxForRuns // one word, as many runs as files match
				default:
					n++
				}
			}
			if inner.forRuns = max(ctx.forRuns, 1) * n; inner.forRuns > maxForRuns {
				b.t.loops = true // nested for loops multiply into a long run
			}
		case *syntax.CStyleLoop:
			b.setUnsure("it uses arithmetic")
			b.nestedIn(l, ctx)
		}
		b.stmts(c.Do, inner)
	case *syntax.CaseClause:
		b.wordUnsure(b.nestedIn(c.Word, ctx))
		for _, it := range c.Items {
			for _, p := range it.Patterns {
				b.wordUnsure(b.nestedIn(p, ctx))
			}
			b.stmts(it.Stmts, inner)
		}
	case *syntax.TimeClause:
		if c.Stmt != nil {
			b.stmt(c.Stmt, ctx)
		}
	case *syntax.FuncDecl:
		b.setUnsure("it defines a function")
		b.stmt(c.Body, inner)
	case *syntax.CoprocClause:
		b.setUnsure("it uses a coprocess")
		b.stmt(c.Stmt, inner)
	case *syntax.ArithmCmd, *syntax.LetClause:
		b.setUnsure("it uses arithmetic, which can run commands through array subscripts")
		b.nestedIn(c, ctx)
	case *syntax.TestClause:
		b.setUnsure("it uses [[ ]], whose arithmetic comparisons can run commands")
		b.nestedIn(c, ctx)
	default:
		b.setUnsure(fmt.Sprintf("it uses a construct tern does not judge (%T)", c))
		b.nestedIn(c, ctx)
	}
	// Redirections of compound commands ((...) > f, { ...; } > f) apply to
	// every command inside; they are kept as a command of their own.
	if len(s.Redirs) > 0 {
		c := shellCommand{nested: ctx.nested, subshell: ctx.subshell, viaShell: ctx.viaShell}
		b.redirects(&c, s.Redirs, ctx)
		b.wordUnsure(c.flags)
		c.text = strings.Join(c.redirs, " ")
		c.bare = c.text
		b.t.cmds = append(b.t.cmds, c)
	}
}

// call adds a simple command and the commands nested in its words.
func (b *treeBuilder) call(ce *syntax.CallExpr, redirs []*syntax.Redirect, ctx treeCtx) {
	c := shellCommand{nested: ctx.nested, subshell: ctx.subshell, viaShell: ctx.viaShell}
	var risky []string
	for _, a := range ce.Assigns {
		w, f := b.assign(a, ctx)
		c.words = append(c.words, w)
		c.flags = c.flags.or(f)
		if a.Name == nil {
			continue
		}
		if _, val, _ := strings.Cut(w.val, "="); w.expand || !safeEnv(a.Name.Value, val) {
			c.envUnsafe = true
		}
		if riskyVars[a.Name.Value] || strings.HasPrefix(a.Name.Value, "LD_") || strings.HasPrefix(a.Name.Value, "DYLD_") ||
			strings.HasPrefix(a.Name.Value, "BASH_FUNC_") || strings.HasPrefix(a.Name.Value, "GIT_CONFIG") {
			risky = append(risky, a.Name.Value)
		}
	}
	for i, word := range ce.Args {
		w, f := b.word(word, ctx)
		c.flags = c.flags.or(f)
		alts, ok := b.braces(word)
		switch {
		case !ok:
			b.setUnsure("a brace expansion in it is too large to read")
		case alts != nil && i == 0:
			b.setUnsure("its command name is a brace expansion")
		}
		if alts == nil {
			c.words = append(c.words, w)
		}
		c.words = append(c.words, alts...)
	}
	b.redirects(&c, redirs, ctx)
	c.text, c.bare = renderCommand(c)
	if c.envUnsafe {
		// Only a rule that spells the assignment vouches for it (see shellenv.go).
		c.bare = c.text
	}
	i := len(b.t.cmds)
	b.t.cmds = append(b.t.cmds, c)
	b.judgeCall(i, risky, ctx)
}

// decl adds export, declare, local, readonly, typeset: a command of its own.
func (b *treeBuilder) decl(dc *syntax.DeclClause, redirs []*syntax.Redirect, ctx treeCtx) {
	c := shellCommand{nested: ctx.nested, subshell: ctx.subshell, viaShell: ctx.viaShell}
	c.words = append(c.words, shellWord{val: dc.Variant.Value})
	for _, a := range dc.Args {
		w, f := b.assign(a, ctx)
		c.words = append(c.words, w)
		c.flags = c.flags.or(f)
	}
	b.redirects(&c, redirs, ctx)
	c.text, c.bare = renderCommand(c)
	if dc.Variant.Value != "export" {
		// declare -i and friends evaluate values as arithmetic.
		b.setUnsure("it uses " + dc.Variant.Value)
	}
	if c.flags.subst || c.flags.arith || c.flags.risky {
		b.setUnsure("an expansion in it could run commands")
	}
	b.t.cmds = append(b.t.cmds, c)
}

// riskyVars are environment variables that change which program runs or
// make it run other code; an assignment to one stops rules from vouching.
var riskyVars = map[string]bool{
	"PATH": true, "BASH_ENV": true, "ENV": true, "IFS": true, "SHELLOPTS": true, "BASHOPTS": true,
	"PS4": true, "PROMPT_COMMAND": true, "GIT_SSH_COMMAND": true, "GIT_SSH": true, "GIT_EXTERNAL_DIFF": true,
	"GIT_PAGER": true, "PAGER": true, "GIT_EDITOR": true, "EDITOR": true, "VISUAL": true, "GIT_EXEC_PATH": true,
	"NODE_OPTIONS": true, "PYTHONSTARTUP": true, "PERL5OPT": true, "RUBYOPT": true,
}

// judgeCall decides what stops rules from vouching for the simple command
// cmds[i], records how downloaded code may reach it, and reads the script
// of `bash -c 'script'`.
func (b *treeBuilder) judgeCall(i int, risky []string, ctx treeCtx) {
	c := b.t.cmds[i]
	if c.network() {
		b.t.lastNet, b.t.lastFeed = i+1, i+1
	} else if b.readsDownloaded(c) {
		b.t.lastFeed = i + 1
	}
	b.wordUnsure(c.flags)
	if len(risky) > 0 {
		b.setUnsure("it sets " + strings.Join(risky, ", ") + ", which changes what runs")
	}
	words := c.words[programIndex(c.words):]
	if len(words) == 0 {
		return
	}
	if !literalName(words[0]) {
		b.setUnsure("its command name (" + words[0].val + ") is only known when it runs")
		return
	}
	if programName(words[0]) == "exec" && c.flags.net {
		b.t.netFD = true // exec 3< <(curl ...) keeps the download open for later commands
	}
	w, _ := unwrap(words)
	if len(w) == 0 {
		return
	}
	if !literalName(w[0]) {
		b.setUnsure("its command name (" + w[0].val + ") is only known when it runs")
		return
	}
	prog := programName(w[0])
	if c.flags.hdocExpand && isInterpreter(prog) {
		b.setUnsure("a here-document with expansions feeds " + prog)
	}
	switch {
	case prog == "eval":
		b.setUnsure("it runs eval")
	case prog == "source" || prog == ".":
		if len(w) < 2 || !b.workspaceFile(w[1]) {
			b.setUnsure(prog + " reads something other than a file of the workspace")
		}
	case isShellName(prog):
		b.readScript(w, ctx)
	}
	if isShellName(prog) && c.stdin != "" && shellReadsStdin(w[1:]) {
		b.readStdinScript(prog, c.stdin, ctx)
	}
	for _, r := range c.reads {
		if isInterpreter(prog) && b.t.downloaded[filepath.Clean(r.val)] {
			b.setDownload("runs downloaded code (" + prog + " reads " + r.val + ", which was just downloaded)")
		}
	}
	if isShellName(prog) && c.flags.net {
		b.setDownload("runs a downloaded script in a shell (" + prog + " reads the output of a network tool)")
	} else if isInterpreter(prog) && c.flags.net {
		b.setDownload("runs downloaded code (" + prog + " reads the output of a network tool)")
	}
	if b.t.downloaded[filepath.Clean(w[0].val)] {
		b.setDownload("runs downloaded code (" + w[0].val + " was just downloaded)")
	}
	if isInterpreter(prog) && b.t.downloaded != nil {
		for _, a := range w[1:] {
			if b.t.downloaded[filepath.Clean(a.val)] {
				b.setDownload("runs downloaded code (" + prog + " " + a.val + " was just downloaded)")
			}
		}
	}
	if isNetworkTool(prog) {
		b.recordDownloads(c, w[1:])
	}
	if why := nameArgReason(prog, w[1:]); why != "" {
		b.setUnsure(why)
	}
	if o := runsProgramOption(prog, w[1:]); o != "" {
		b.setUnsure(prog + " " + o + " runs a program of the command's choosing")
	}
	switch prog {
	case "find":
		b.findExecs(i, w[1:], ctx)
	case "git":
		b.t.cmds[i].writes = append(b.t.cmds[i].writes, gitWrites(w[1:])...)
	}
	if b.t.netFD && isInterpreter(prog) && readsFD(c, w[1:]) {
		b.setDownload("runs downloaded code (" + prog + " reads a descriptor a network tool writes to)")
	}
}

// readsFD reports whether a command reads an open descriptor: <&N, or a
// /dev/fd/N, /dev/stdin or /proc/self/fd/N argument.
func readsFD(c shellCommand, args []shellWord) bool {
	for _, r := range c.redirs {
		if strings.Contains(r, "<&") {
			return true
		}
	}
	for _, a := range args {
		if strings.HasPrefix(a.val, "/dev/fd/") || a.val == "/dev/stdin" || strings.HasPrefix(a.val, "/proc/self/fd/") {
			return true
		}
	}
	return false
}

// readScript reads the script of `bash -c 'script'` as commands of the line.
func (b *treeBuilder) readScript(w []shellWord, ctx treeCtx) {
	script, ok := shellScript(w[1:])
	if !ok {
		return
	}
	if script.expand || ctx.depth >= maxShellDepth {
		b.setUnsure(programName(w[0]) + " -c runs a script only known when it runs")
		return
	}
	f, err := parseShellLine(script.val)
	if err != nil {
		b.setUnsure(programName(w[0]) + " -c runs a script that could not be parsed")
		return
	}
	sub := &treeBuilder{src: script.val, d: b.d, t: b.t}
	sub.stmts(f.Stmts, treeCtx{viaShell: true, depth: ctx.depth + 1, nested: ctx.nested})
}

// wordUnsure records why expansions with these flags stop rules from vouching.
func (b *treeBuilder) wordUnsure(f wordFlags) {
	if f.subst {
		b.setUnsure("it runs a command or process substitution")
	}
	if f.arith || f.risky {
		b.setUnsure("it uses an expansion that can run commands (arithmetic, subscripts, indirection or @ operators)")
	}
}

// workspaceFile reports whether a word is a literal path of a file inside
// the workspace.
func (b *treeBuilder) workspaceFile(w shellWord) bool {
	if w.expand || w.glob || w.val == "" || strings.HasPrefix(w.val, "~") {
		return false
	}
	p := w.val
	if !filepath.IsAbs(p) {
		p = filepath.Join(b.d.workdir, p)
	}
	p = resolveParent(filepath.Clean(p), true)
	return b.d.root != "" && isInside(b.d.root, p)
}

// shellScript returns the script of `sh -c script`: bash takes the first
// word that is not an option once -c is among the options (sh -c -e
// 'script', bash --rcfile f -c 'script', sh -c -- 'script', -lc, -ec, ...);
// ok is false when the shell runs no -c script.
func shellScript(args []shellWord) (shellWord, bool) {
	sawC := false
	for i := 0; i < len(args); i++ {
		a := args[i].val
		switch {
		case a == "--" || a == "-":
			if sawC && i+1 < len(args) {
				return args[i+1], true
			}
			return shellWord{}, false
		case a == "--rcfile" || a == "--init-file":
			i++ // takes a file name
		case strings.HasPrefix(a, "--"):
		case a == "-o" || a == "+o" || a == "-O" || a == "+O":
			i++ // takes an option name
		case len(a) > 1 && (a[0] == '-' || a[0] == '+'):
			if a[0] == '-' && strings.Contains(a, "c") {
				sawC = true
			}
			if strings.ContainsAny(a[1:], "oO") {
				i++ // -eo pipefail
			}
		default:
			if sawC {
				return args[i], true
			}
			return shellWord{}, false
		}
	}
	return shellWord{}, false
}

// literalName reports whether a command name is known before the command
// runs: no expansion, no glob or brace, not empty, no blank in it. Bash
// splits words only at space, tab and newline, so a name holding another
// blank (carriage return, no-break space) is one word to bash but would be
// split when matched against a rule.
func literalName(w shellWord) bool {
	return !w.expand && !w.glob && w.val != "" && strings.IndexFunc(w.val, unicode.IsSpace) < 0
}

// assign converts an assignment (FOO=bar, a[i]=x, b=(1 2), -x in declare).
func (b *treeBuilder) assign(a *syntax.Assign, ctx treeCtx) (shellWord, wordFlags) {
	var f wordFlags
	if a.Name == nil {
		if a.Value != nil {
			return b.word(a.Value, ctx)
		}
		return shellWord{}, f
	}
	var w shellWord
	if a.Value != nil {
		w, f = b.word(a.Value, ctx)
	}
	switch {
	case a.Index != nil || a.Array != nil:
		f.arith = true
		f = f.or(b.nestedIn(a, ctx))
		// Kept as NAME=... so it still reads as an assignment.
		w = shellWord{val: a.Name.Value + "=" + b.source(a), expand: true}
		return w, f
	case a.Naked:
		return shellWord{val: a.Name.Value}, f
	}
	op := "="
	if a.Append {
		op = "+="
	}
	w.val = a.Name.Value + op + w.val
	return w, f
}

// redirects adds a command's redirections: the files opened for writing,
// their text, and the commands nested in their words and here-documents.
func (b *treeBuilder) redirects(c *shellCommand, redirs []*syntax.Redirect, ctx treeCtx) {
	for _, r := range redirs {
		w, f := b.word(r.Word, ctx)
		c.flags = c.flags.or(f)
		n := ""
		if r.N != nil {
			n = r.N.Value
			if strings.HasPrefix(n, "{") {
				c.flags.risky = true // {fd}> names a variable
			}
		}
		c.redirs = append(c.redirs, n+r.Op.String()+w.val)
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrAll, syntax.RdrAllClob,
			syntax.AppAll, syntax.AppAllClob, syntax.RdrInOut:
			c.writes = append(c.writes, w)
		case syntax.DplOut:
			if !isDigits(w.val) && w.val != "-" && !strings.HasSuffix(w.val, "-") {
				c.writes = append(c.writes, w)
			}
		case syntax.Hdoc, syntax.DashHdoc:
			if r.Hdoc != nil {
				hf := b.nestedIn(r.Hdoc, ctx)
				c.flags = c.flags.or(hf)
				if hf.subst || hf.param || hf.arith {
					c.flags.hdocExpand = true
				} else {
					c.stdin = b.source(r.Hdoc)
				}
			}
		case syntax.WordHdoc:
			if f.subst || f.param || f.arith {
				c.flags.hdocExpand = true
			} else {
				c.stdin = w.val
			}
		case syntax.RdrIn:
			c.reads = append(c.reads, w)
		case syntax.DplIn:
		}
	}
}

// wordFlags are what a word's expansions may do when it is expanded.
type wordFlags struct {
	// subst: holds a command or process substitution.
	subst bool
	// net: one of those substitutions runs a network tool.
	net bool
	// param: holds a parameter expansion.
	param bool
	// arith: holds arithmetic, which can run commands through subscripts.
	arith bool
	// risky: holds a parameter expansion that can run commands or read
	// other variables by name (subscripts, slices, ${!x}, ${x@P}).
	risky bool
	// hdocExpand: a here-document or here-string of the command expands.
	hdocExpand bool
}

func (f wordFlags) or(g wordFlags) wordFlags {
	return wordFlags{f.subst || g.subst, f.net || g.net, f.param || g.param, f.arith || g.arith,
		f.risky || g.risky, f.hdocExpand || g.hdocExpand}
}

// nestedIn adds the commands of the substitutions inside a node and reports
// the expansions it holds.
func (b *treeBuilder) nestedIn(n syntax.Node, ctx treeCtx) wordFlags {
	var f wordFlags
	if n == nil {
		return f
	}
	inner := ctx
	inner.nested = true
	syntax.Walk(n, func(n syntax.Node) bool {
		var list []*syntax.Stmt
		switch n := n.(type) {
		case *syntax.CmdSubst:
			list = n.Stmts
		case *syntax.ProcSubst:
			list = n.Stmts
		case *syntax.ArithmExp, *syntax.ArithmCmd, *syntax.LetClause:
			f.arith = true
			return true
		case *syntax.ParamExp:
			f.param = true
			if n.Index != nil && !plainIndex(n.Index) || n.Slice != nil || n.Excl || n.Names != 0 || n.NestedParam != nil ||
				n.Exp != nil && n.Exp.Op == syntax.OtherParamOps {
				f.risky = true
			}
			return true
		default:
			return true
		}
		f.subst = true
		start := len(b.t.cmds)
		b.stmts(list, inner)
		if b.t.lastNet > start {
			f.net = true
		}
		return false
	})
	return f
}

// maxBraceWords bounds the words one brace expansion is read as.
const maxBraceWords = 256

// braces returns the words bash makes of a word by brace expansion
// ({-rf,/} → -rf /), or nil when it has none; ok is false when there are
// too many to read.
func (b *treeBuilder) braces(w *syntax.Word) (words []shellWord, ok bool) {
	cp := &syntax.Word{Parts: append([]syntax.WordPart(nil), w.Parts...)}
	if !syntax.SplitBraces(cp) {
		return nil, true
	}
	for e, err := range expand.BracesSeq(nil, cp) {
		if err != nil || len(words) >= maxBraceWords {
			return nil, false
		}
		var sw shellWord
		var sb strings.Builder
		for _, p := range e.Parts {
			b.part(&sb, &sw, p, false)
		}
		sw.val = sb.String()
		words = append(words, sw)
	}
	return words, true
}

// plainIndex reports whether a subscript is @, * or a number, which
// bash does not evaluate as an expression that could run commands.
func plainIndex(x syntax.ArithmExpr) bool {
	w, ok := x.(*syntax.Word)
	if !ok {
		return false
	}
	v := w.Lit()
	return v == "@" || v == "*" || isDigits(v)
}

// word converts a word: its value after quote removal (expansions kept as
// written), whether it expands or globs, and the commands nested in it.
func (b *treeBuilder) word(w *syntax.Word, ctx treeCtx) (shellWord, wordFlags) {
	var sw shellWord
	if w == nil {
		return sw, wordFlags{}
	}
	f := b.nestedIn(w, ctx)
	var sb strings.Builder
	for _, p := range w.Parts {
		b.part(&sb, &sw, p, false)
	}
	sw.val = sb.String()
	return sw, f
}

func (b *treeBuilder) part(sb *strings.Builder, sw *shellWord, p syntax.WordPart, quoted bool) {
	switch p := p.(type) {
	case *syntax.Lit:
		if quoted {
			sb.WriteString(unescapeDouble(p.Value))
			return
		}
		v, glob := unescapeBare(p.Value)
		sb.WriteString(v)
		sw.glob = sw.glob || glob
	case *syntax.SglQuoted:
		if !p.Dollar {
			sb.WriteString(p.Value)
			return
		}
		// $'...': decode the escapes as bash does (% is not special there).
		v, _, err := expand.Format(nil, strings.ReplaceAll(p.Value, "%", "%%"), nil)
		if err != nil {
			sw.expand = true
			v = p.Value
		}
		v, _, _ = strings.Cut(v, "\x00")
		sb.WriteString(v)
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			b.part(sb, sw, q, true)
		}
	case *syntax.ExtGlob, *syntax.BraceExp:
		sw.glob = true
		sb.WriteString(b.source(p))
	default: // ParamExp, CmdSubst, ProcSubst, ArithmExp: known only when run
		sw.expand = true
		sb.WriteString(b.source(p))
	}
}

// source returns a node's text as written.
func (b *treeBuilder) source(n syntax.Node) string {
	from, to := int(n.Pos().Offset()), int(n.End().Offset())
	if from < 0 || to > len(b.src) || from > to {
		return ""
	}
	return b.src[from:to]
}

// unescapeBare removes the backslashes of an unquoted literal and reports
// whether an unescaped glob or brace is left in it.
func unescapeBare(s string) (string, bool) {
	var sb strings.Builder
	glob := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			if s[i] != '\n' {
				sb.WriteByte(s[i])
			}
			continue
		case c == '*' || c == '?':
			glob = true
		case c == '[' && strings.IndexByte(s[i+1:], ']') >= 0:
			glob = true
		case c == '{' && strings.IndexByte(s[i+1:], '}') >= 0 && (strings.Contains(s[i+1:], ",") || strings.Contains(s[i+1:], "..")):
			glob = true
		}
		sb.WriteByte(c)
	}
	return sb.String(), glob
}

// unescapeDouble removes the backslashes that escape $ ` " \ and newline
// inside double quotes.
func unescapeDouble(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] != '\n' {
				sb.WriteByte(s[i])
			}
			continue
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// renderCommand returns a command's words and redirections as text for the
// rules, with and without its leading assignments.
func renderCommand(c shellCommand) (full, bare string) {
	parts := make([]string, 0, len(c.words)+len(c.redirs))
	for _, w := range c.words {
		parts = append(parts, w.val)
	}
	parts = append(parts, c.redirs...)
	n := programIndex(c.words)
	return strings.Join(parts, " "), strings.Join(parts[n:], " ")
}
