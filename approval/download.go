package approval

import (
	"path"
	"path/filepath"
	"strings"
)

// Downloaded code always asks: data from a network tool that reaches an
// interpreter, by a pipe (curl ... | python3), a substitution (eval
// "$(curl ...)", source <(curl ...), bash -c "$(wget -O- ...)"), a
// here-string or here-document, or a file the same line downloads and then
// runs (curl -o x.sh ... && sh x.sh).

// setDownload records the first way downloaded code reaches an interpreter.
func (b *treeBuilder) setDownload(why string) {
	if b.t.download == "" {
		b.t.download = why
	}
}

// pipeDownload checks the right of a pipe whose left runs a network tool
// or reads a downloaded file: any interpreter there runs downloaded code.
func (b *treeBuilder) pipeDownload(right []shellCommand) {
	for _, c := range right {
		if p := c.program(); isShellName(p) {
			b.setDownload("pipes a download into a shell (" + p + ")")
			return
		} else if isInterpreter(p) || awkRuns(c) {
			b.setDownload("pipes a download into an interpreter (" + p + ")")
			return
		}
	}
}

// readsDownloaded reports whether a command reads a file the line
// downloaded (cat i.sh, or < i.sh), as an argument or on its input.
func (b *treeBuilder) readsDownloaded(c shellCommand) bool {
	if b.t.downloaded == nil {
		return false
	}
	words := c.words[programIndex(c.words):]
	if len(words) > 0 {
		words = words[1:]
	}
	for _, w := range append(words, c.reads...) {
		if b.t.downloaded[filepath.Clean(w.val)] {
			return true
		}
	}
	return false
}

// awkRuns reports whether an awk program can run what it reads as commands
// (system(), print | "sh", "cmd" | getline).
func awkRuns(c shellCommand) bool {
	w, _ := unwrap(c.words[programIndex(c.words):])
	if len(w) == 0 {
		return false
	}
	switch programName(w[0]) {
	case "awk", "gawk", "mawk", "nawk":
	default:
		return false
	}
	for _, a := range w[1:] {
		if strings.Contains(a.val, "system") || strings.Contains(a.val, "|") {
			return true
		}
	}
	return false
}

// recordDownloads remembers the files a network tool writes (-o, -O,
// --output, --output-document, or a redirection).
func (b *treeBuilder) recordDownloads(c shellCommand, args []shellWord) {
	add := func(w shellWord) {
		if w.val == "" || w.val == "-" || w.val == "/" || w.val == "." || w.expand {
			return
		}
		if b.t.downloaded == nil {
			b.t.downloaded = map[string]bool{}
		}
		b.t.downloaded[filepath.Clean(w.val)] = true
	}
	for _, w := range c.writes {
		add(w)
	}
	for i, a := range args {
		v := a.val
		if _, rest, ok := strings.Cut(v, "://"); ok && !a.expand {
			// wget and curl -O name the file after the URL's last element.
			if _, p, ok := strings.Cut(rest, "/"); ok {
				p, _, _ = strings.Cut(p, "?")
				add(shellWord{val: path.Base("/" + p)})
			}
		}
		switch {
		case (v == "-o" || v == "-O" || v == "--output" || v == "--output-document") && i+1 < len(args):
			add(args[i+1])
		case strings.HasPrefix(v, "--output=") || strings.HasPrefix(v, "--output-document="):
			_, val, _ := strings.Cut(v, "=")
			add(shellWord{val: val})
		case len(v) > 1 && v[0] == '-' && v[1] != '-':
			// A cluster such as -so file or -sofile.
			if o := strings.IndexAny(v, "oO"); o > 0 {
				if o == len(v)-1 && i+1 < len(args) {
					add(args[i+1])
				} else if o < len(v)-1 {
					add(shellWord{val: v[o+1:]})
				}
			}
		}
	}
}

// program returns the base name of the program a command runs, past
// assignments and wrappers such as sudo or env ("" when none).
func (c shellCommand) program() string {
	w, _ := unwrap(c.words[programIndex(c.words):])
	if len(w) == 0 {
		return ""
	}
	return programName(w[0])
}

// network reports whether the command runs a network tool.
func (c shellCommand) network() bool { return isNetworkTool(c.program()) }

// isNetworkTool reports whether prog fetches data from the network.
func isNetworkTool(prog string) bool {
	switch prog {
	case "curl", "wget", "wget2", "fetch", "aria2c", "http", "https", "httpie", "xh", "xhs", "curlie",
		"nc", "ncat", "netcat", "socat", "telnet", "ftp", "tftp", "lftp", "ssh", "scp", "sftp", "rsync":
		return true
	}
	return false
}

// isInterpreter reports whether prog runs code it reads (a shell, a
// scripting language, source, . or eval).
func isInterpreter(prog string) bool {
	if isShellName(prog) {
		return true
	}
	switch prog {
	case "source", ".", "eval", "parallel", "R", "node", "nodejs", "deno", "bun", "Rscript", "tclsh", "wish",
		"pwsh", "powershell", "osascript", "jshell", "irb", "iex", "elixir", "erl", "escript", "julia", "groovy":
		return true
	}
	for _, pre := range []string{"python", "pypy", "perl", "ruby", "php", "lua"} {
		if strings.HasPrefix(prog, pre) {
			return true
		}
	}
	return false
}
