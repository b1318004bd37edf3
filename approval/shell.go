package approval

import (
	"path"
	"strings"
)

// shellWord is one word of a shell command after quote removal.
type shellWord struct {
	// val is the word with quotes and escapes removed ($'...' decoded);
	// expansions are kept as written.
	val string
	// expand is true when the word holds a parameter, command, process or
	// arithmetic expansion, so its value is only known when the shell runs.
	expand bool
	// glob is true when the word holds an unquoted *, ? or [...], a brace
	// expansion or an extended glob.
	glob bool
}

// shellCommand is one simple command of a command line: the words between
// operators, with redirections taken out.
type shellCommand struct {
	// text is the command as bash runs it: its words after quote removal
	// (expansions as written) and its redirections, joined by spaces; bare
	// is the same without the leading assignments.
	text, bare string
	words      []shellWord
	// piped is true when the command reads the previous command's output (|).
	piped bool
	// nested is true for commands inside $(...), `...` or <(...).
	nested bool
	// subshell is true for commands inside ( ... ), a control structure
	// (if, while, for, case) or a function body, where a cd may not reach
	// the commands after it.
	subshell bool
	// viaShell is true for commands of a literal `bash -c 'script'`.
	viaShell bool
	// sep is the operator that ended the command ("&&", "||", "|", "|&",
	// ";" or "&").
	sep string
	// writes are the files the command's output redirections (>, >>, >|,
	// &>, <>, >&file) open for writing. A command with such a redirection
	// but no words ("> file") is kept for them.
	writes []shellWord
	// redirs are the command's redirections as text (2>&1, >out.txt).
	redirs []string
	// flags are what the expansions in the command's words may do.
	flags wordFlags
	// envUnsafe is true when the command is run with an assignment to a
	// variable not known to be harmless (see shellenv.go).
	envUnsafe bool
	// stdin is the literal script a here-document, here-string or a
	// piped echo/printf gives the command on its input, or "".
	stdin string
	// reads are the files the command's input redirections (<) open.
	reads []shellWord
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isAssignment reports whether a word is an environment assignment (FOO=1).
func isAssignment(w shellWord) bool {
	eq := strings.IndexByte(w.val, '=')
	if eq <= 0 {
		return false
	}
	for i := 0; i < eq; i++ {
		c := w.val[i]
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// programIndex returns the index of the first word that is not an environment
// assignment, or len(words).
func programIndex(words []shellWord) int {
	i := 0
	for i < len(words) && isAssignment(words[i]) {
		i++
	}
	return i
}

// programName returns the base name of a program word (/usr/bin/rm → rm).
func programName(w shellWord) string { return path.Base(w.val) }
