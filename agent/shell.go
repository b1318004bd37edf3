package agent

import (
	"path"
	"strings"
)

// shellWord is one word of a shell command after quote removal.
type shellWord struct {
	// val is the word with quotes and escapes removed; expansions are kept as written.
	val string
	// expand is true when the word holds a $ or ` outside single quotes, so its
	// value is only known when the shell runs.
	expand bool
	// glob is true when the word holds an unquoted *, ? or [.
	glob bool
}

// shellCommand is one simple command of a command line: the words between
// operators, with redirections taken out.
type shellCommand struct {
	// text is the command as written, trimmed.
	text  string
	words []shellWord
	// piped is true when the command reads the previous command's output (|).
	piped bool
	// nested is true for commands inside $(...), `...` or <(...).
	nested bool
	// subshell is true for commands inside ( ... ).
	subshell bool
	// sep is the operator that ended the command ("&&", "||", "|", ";",
	// "&", "\n", "(", ")" or "" at the end).
	sep string
	// writes are the files the command's output redirections (>, >>, >|,
	// &>, <>, >&file) open for writing. A command with such a redirection
	// but no words ("> file") is kept for them.
	writes []shellWord
}

// parseShell splits a command line into its simple commands, in order, including
// commands nested in command and process substitutions. It understands enough of
// bash (quotes, escapes, operators, redirections, heredocs, comments) to see
// every command a line runs; it never fails, because the approval checks must
// give an answer for any input.
func parseShell(line string) []shellCommand {
	p := &shellParser{src: line}
	p.parse(false)
	return p.out
}

type shellParser struct {
	src string
	i   int
	out []shellCommand

	// the command being read
	start  int
	words  []shellWord
	piped  bool
	nested bool
	// depth counts the ( ... ) subshells open.
	depth int

	// the word being read
	inWord bool
	val    strings.Builder
	expand bool
	glob   bool

	// redirect is true when the next word is a redirection target;
	// redirectOut when that target is opened for writing, redirectDup when
	// the operator (>& or <&) may instead name a file descriptor.
	redirect    bool
	redirectOut bool
	redirectDup bool
	writes      []shellWord
	// heredoc is set when the target is a heredoc delimiter; heredocs holds
	// the delimiters whose bodies start after the next newline.
	heredoc     bool
	heredocTabs bool
	heredocs    []heredocMark
}

type heredocMark struct {
	delim string
	tabs  bool
}

func (p *shellParser) parse(nested bool) {
	p.nested = nested
	p.start = 0
	for p.i < len(p.src) {
		c := p.src[p.i]
		switch {
		case c == ' ' || c == '\t':
			p.endWord()
			p.i++
		case c == '\n':
			p.endCommand(p.i, "\n")
			p.i++
			p.skipHeredocs()
			p.start = p.i
		case c == ';' || c == '(' || c == ')' || c == '&' && !p.at("&>"):
			op := string(c)
			if p.at("&&") {
				op = "&&"
			}
			p.endCommand(p.i, op)
			switch c {
			case '(':
				p.depth++
			case ')':
				if p.depth > 0 {
					p.depth--
				}
			}
			p.i += len(op)
			p.start = p.i
		case c == '|':
			op := "|"
			if p.at("||") || p.at("|&") {
				op = p.src[p.i : p.i+2]
			}
			p.endCommand(p.i, op)
			p.piped = op != "||"
			p.i += len(op)
			p.start = p.i
		case c == '#' && !p.inWord:
			for p.i < len(p.src) && p.src[p.i] != '\n' {
				p.i++
			}
		case (c == '<' || c == '>') && p.at2("(", 1):
			p.substitution(2, '(', ')')
		case c == '<' || c == '>' || c == '&' && p.at("&>"):
			p.redirection()
		case c == '\'':
			p.inWord = true
			end := strings.IndexByte(p.src[p.i+1:], '\'')
			if end < 0 {
				p.val.WriteString(p.src[p.i+1:])
				p.i = len(p.src)
				break
			}
			p.val.WriteString(p.src[p.i+1 : p.i+1+end])
			p.i += end + 2
		case c == '"':
			p.inWord = true
			p.i++
			p.doubleQuoted()
		case c == '\\':
			p.inWord = true
			if p.i+1 < len(p.src) {
				if p.src[p.i+1] != '\n' {
					p.val.WriteByte(p.src[p.i+1])
				}
				p.i += 2
			} else {
				p.i++
			}
		case c == '$' && p.at("$("):
			p.substitution(2, '(', ')')
		case c == '`':
			p.backquote()
		case c == '$':
			p.inWord = true
			p.expand = true
			p.val.WriteByte(c)
			p.i++
		case c == '*' || c == '?' || c == '[':
			p.inWord = true
			p.glob = true
			p.val.WriteByte(c)
			p.i++
		default:
			p.inWord = true
			p.val.WriteByte(c)
			p.i++
		}
	}
	p.endCommand(len(p.src), "")
}

// at reports whether the source continues with s at the current position.
func (p *shellParser) at(s string) bool { return strings.HasPrefix(p.src[p.i:], s) }

// at2 reports whether the source holds s at offset off from the current position.
func (p *shellParser) at2(s string, off int) bool {
	return p.i+off <= len(p.src) && strings.HasPrefix(p.src[p.i+off:], s)
}

func (p *shellParser) doubleQuoted() {
	for p.i < len(p.src) {
		c := p.src[p.i]
		switch {
		case c == '"':
			p.i++
			return
		case c == '\\' && p.i+1 < len(p.src):
			n := p.src[p.i+1]
			if n == '"' || n == '\\' || n == '$' || n == '`' {
				p.val.WriteByte(n)
			} else if n != '\n' {
				p.val.WriteByte(c)
				p.val.WriteByte(n)
			}
			p.i += 2
		case c == '$' && p.at("$("):
			p.substitution(2, '(', ')')
		case c == '`':
			p.backquote()
		case c == '$':
			p.expand = true
			p.val.WriteByte(c)
			p.i++
		default:
			p.val.WriteByte(c)
			p.i++
		}
	}
}

// substitution reads $(...), <(...) or >(...) starting at the current
// position (skip bytes of opener), parses its inside as commands of their own
// and keeps it in the word as written.
func (p *shellParser) substitution(skip int, open, close byte) {
	p.inWord = true
	p.expand = true
	from := p.i
	p.i += skip
	innerStart := p.i
	depth := 1
	for p.i < len(p.src) && depth > 0 {
		switch c := p.src[p.i]; c {
		case '\\':
			p.i++
		case '\'':
			if end := strings.IndexByte(p.src[p.i+1:], '\''); end >= 0 {
				p.i += end + 1
			} else {
				p.i = len(p.src) - 1
			}
		case open:
			depth++
		case close:
			depth--
		}
		p.i++
	}
	innerEnd := p.i
	if depth == 0 {
		innerEnd--
	}
	if p.i > len(p.src) {
		p.i = len(p.src)
		innerEnd = len(p.src)
	}
	p.val.WriteString(p.src[from:p.i])
	p.addNested(p.src[innerStart:innerEnd])
}

func (p *shellParser) backquote() {
	p.inWord = true
	p.expand = true
	from := p.i
	end := strings.IndexByte(p.src[p.i+1:], '`')
	inner := ""
	if end < 0 {
		inner = p.src[p.i+1:]
		p.i = len(p.src)
	} else {
		inner = p.src[p.i+1 : p.i+1+end]
		p.i += end + 2
	}
	p.val.WriteString(p.src[from:p.i])
	p.addNested(inner)
}

func (p *shellParser) addNested(inner string) {
	sub := &shellParser{src: inner}
	sub.parse(true)
	for _, c := range sub.out {
		c.nested = true
		p.out = append(p.out, c)
	}
}

// redirection reads a redirection operator; the word after it is its target,
// not an argument of the command.
func (p *shellParser) redirection() {
	// A word of digits right before the operator is a file descriptor.
	if p.inWord && !p.expand && !p.glob && isDigits(p.val.String()) {
		p.resetWord()
	} else {
		p.endWord()
	}
	p.redirectOut = !p.at("<") || p.at("<>")
	p.redirectDup = p.at(">&") || p.at("<&")
	switch {
	case p.at("<<<"):
		p.i += 3
	case p.at("<<-"):
		p.i += 3
		p.heredoc, p.heredocTabs = true, true
	case p.at("<<"):
		p.i += 2
		p.heredoc, p.heredocTabs = true, false
	case p.at("&>>"), p.at(">>&"):
		p.i += 3
	case p.at(">>"), p.at(">&"), p.at("<&"), p.at("&>"), p.at(">|"), p.at("<>"):
		p.i += 2
	default:
		p.i++
	}
	p.redirect = true
}

// skipHeredocs skips the bodies of heredocs opened on the line just ended.
func (p *shellParser) skipHeredocs() {
	for _, h := range p.heredocs {
		for p.i < len(p.src) {
			end := strings.IndexByte(p.src[p.i:], '\n')
			line := ""
			if end < 0 {
				line = p.src[p.i:]
				p.i = len(p.src)
			} else {
				line = p.src[p.i : p.i+end]
				p.i += end + 1
			}
			if h.tabs {
				line = strings.TrimLeft(line, "\t")
			}
			if line == h.delim {
				break
			}
		}
	}
	p.heredocs = p.heredocs[:0]
}

func (p *shellParser) resetWord() {
	p.inWord = false
	p.val.Reset()
	p.expand = false
	p.glob = false
}

func (p *shellParser) endWord() {
	if !p.inWord {
		return
	}
	w := shellWord{val: p.val.String(), expand: p.expand, glob: p.glob}
	p.resetWord()
	if p.redirect {
		p.redirect = false
		if p.heredoc {
			p.heredocs = append(p.heredocs, heredocMark{delim: w.val, tabs: p.heredocTabs})
			p.heredoc = false
		} else if p.redirectOut && (!p.redirectDup || !isDigits(w.val) && w.val != "-") {
			p.writes = append(p.writes, w)
		}
		return
	}
	p.words = append(p.words, w)
}

func (p *shellParser) endCommand(end int, sep string) {
	p.endWord()
	p.redirect = false
	if len(p.words) > 0 || len(p.writes) > 0 {
		p.out = append(p.out, shellCommand{
			text:     strings.TrimSpace(p.src[p.start:end]),
			words:    p.words,
			piped:    p.piped,
			nested:   p.nested,
			subshell: p.depth > 0,
			sep:      sep,
			writes:   p.writes,
		})
	}
	p.words = nil
	p.writes = nil
	p.piped = false
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
