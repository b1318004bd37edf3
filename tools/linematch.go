package tools

import (
	"bytes"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strconv"
	"unicode/utf8"
)

// lineMatcher finds the lines of a file that match a pattern. Whole files
// are searched at once: a literal every match must contain is found with
// bytes.Index (vectorised) and only the lines holding it are checked with
// the regexp, which keeps grep within a small factor of ripgrep even though
// Go's regexp engine is much slower than ripgrep's.
type lineMatcher struct {
	// re is matched against one line at a time (without its line ending).
	re *regexp.Regexp
	// lits are strings one of which every match contains (one string
	// mostly; several for alternations such as TODO|FIXME); nil when there
	// is no such set.
	lits [][]byte
	// fold means lits are lower-case ASCII to be found case-insensitively.
	fold bool
	// foldRisk means lits hold k or s, which (?i) also matches in the
	// non-ASCII KELVIN SIGN and LATIN SMALL LETTER LONG S; files holding
	// those are searched without the prefilter.
	foldRisk bool
	// pure means the pattern is exactly lits[0]: a line matches iff it
	// holds it.
	pure bool
	// reBuf finds candidate lines in a whole file when there is no literal;
	// nil when the pattern needs line-by-line matching.
	reBuf *regexp.Regexp
}

// compileLineMatcher compiles an RE2 pattern for line-by-line matching.
func compileLineMatcher(pattern string, ignoreCase bool) (*lineMatcher, error) {
	expr := pattern
	if ignoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("invalid regular expression %s: %v. grep uses RE2 syntax (as Go and ripgrep do): "+
			"escape special characters such as ( [ { . * + ? with a backslash to match them literally; "+
			"lookarounds and backreferences are not supported", strconv.Quote(pattern), err)
	}
	m := &lineMatcher{re: re}
	if prefix, complete := re.LiteralPrefix(); complete && prefix != "" {
		m.lits, m.pure = [][]byte{[]byte(prefix)}, true
	} else if tree, err := syntax.Parse(expr, syntax.Perl); err == nil {
		if l := requiredLiterals(tree.Simplify()); l.shortest() >= 2 {
			for _, t := range l.texts {
				m.lits = append(m.lits, []byte(t))
			}
			m.fold = l.fold
		}
	}
	for _, lit := range m.lits {
		if bytes.IndexByte(lit, '\n') >= 0 {
			return nil, fmt.Errorf("the pattern %s contains a line break, but grep matches one line at a time; search for one line's text instead", strconv.Quote(pattern))
		}
		if bytes.IndexByte(lit, '\r') >= 0 {
			// The CR of a CRLF ending is not part of the line; let the
			// regexp check each candidate line without it.
			m.pure = false
		}
		if m.fold {
			// Only ASCII is lowered, in the literal as in the text it is
			// searched in, so offsets and non-ASCII bytes stay as they are.
			lowerASCII(lit[:0], lit)
			m.foldRisk = m.foldRisk || bytes.ContainsAny(lit, "ks")
		}
	}
	if m.lits == nil || m.foldRisk {
		tree, err := syntax.Parse("(?m)"+expr, syntax.Perl)
		if err == nil && !needsLines(tree) {
			if reBuf, err := regexp.Compile("(?m)" + expr); err == nil {
				m.reBuf = reBuf
			}
		}
	}
	return m, nil
}

// maxLiterals bounds the set of alternatives used as a prefilter; beyond
// it, searching for each costs more than the regexp saves.
const maxLiterals = 8

// literalSet is a set of strings one of which every match of a regexp
// contains.
type literalSet struct {
	texts []string
	// fold means they match case-insensitively (ASCII only).
	fold bool
}

// shortest is the length of the shortest member, 0 for an empty set.
func (l literalSet) shortest() int {
	if len(l.texts) == 0 {
		return 0
	}
	n := len(l.texts[0])
	for _, t := range l.texts[1:] {
		n = min(n, len(t))
	}
	return n
}

// better prefers the set whose shortest member is longest, then the smaller
// set, then a case-sensitive one.
func (l literalSet) better(o literalSet) bool {
	if a, b := l.shortest(), o.shortest(); a != b {
		return a > b
	}
	if len(l.texts) != len(o.texts) {
		return len(l.texts) < len(o.texts)
	}
	return !l.fold && o.fold
}

// requiredLiterals returns the best set of literals one of which every
// match of re contains; it is empty when there is none.
func requiredLiterals(re *syntax.Regexp) literalSet {
	if re.Op == syntax.OpLiteral {
		return literalOf(re)
	}
	if re.Op == syntax.OpCapture || re.Op == syntax.OpPlus || (re.Op == syntax.OpRepeat && re.Min >= 1) {
		return requiredLiterals(re.Sub[0])
	}
	if re.Op == syntax.OpAlternate {
		var out literalSet
		for _, sub := range re.Sub {
			l := requiredLiterals(sub)
			if len(l.texts) == 0 || len(out.texts)+len(l.texts) > maxLiterals {
				return literalSet{}
			}
			out.texts = append(out.texts, l.texts...)
			out.fold = out.fold || l.fold
		}
		return out
	}
	if re.Op != syntax.OpConcat {
		return literalSet{}
	}
	var best, run literalSet
	for _, sub := range re.Sub {
		if l := literalOf(sub); len(l.texts) > 0 {
			// Adjacent literals form one longer literal.
			text := l.texts[0]
			if len(run.texts) > 0 {
				text = run.texts[0] + text
			}
			run = literalSet{texts: []string{text}, fold: run.fold || l.fold}
			if run.better(best) {
				best = run
			}
			continue
		}
		run = literalSet{}
		if l := requiredLiterals(sub); l.better(best) {
			best = l
		}
	}
	return best
}

// literalOf returns the text of an OpLiteral node; case-folded literals are
// only used when they are ASCII, whose case folding is plain lower-casing.
func literalOf(re *syntax.Regexp) literalSet {
	if re.Op != syntax.OpLiteral {
		return literalSet{}
	}
	fold := re.Flags&syntax.FoldCase != 0
	if fold {
		for _, r := range re.Rune {
			if r >= utf8.RuneSelf {
				return literalSet{}
			}
		}
	}
	return literalSet{texts: []string{string(re.Rune)}, fold: fold}
}

// needsLines reports anchors that a whole-file search cannot treat as a
// line-by-line one: \A and \z (or ^ and $ under (?-m)) mean the start or end
// of each line here but of the file there, and $ does not match before the
// CR of a CRLF line ending in a whole file.
func needsLines(re *syntax.Regexp) bool {
	if re.Op == syntax.OpBeginText || re.Op == syntax.OpEndText || re.Op == syntax.OpEndLine {
		return true
	}
	for _, sub := range re.Sub {
		if needsLines(sub) {
			return true
		}
	}
	return false
}

// Non-ASCII runes that (?i) folds to ASCII letters: U+212A KELVIN SIGN (k)
// and U+017F LATIN SMALL LETTER LONG S (s).
var (
	kelvinSign = []byte("\u212a")
	longS      = []byte("\u017f")
)

// scan calls fn with the byte range (without the newline) of each matching
// line of data, in order. scratch is a buffer the caller keeps between calls
// (for the lower-cased copy a case-insensitive literal is searched in).
func (m *lineMatcher) scan(data []byte, scratch *[]byte, fn func(start, end int)) {
	if m.lits == nil || m.foldRisk && (bytes.Contains(data, kelvinSign) || bytes.Contains(data, longS)) {
		m.scanRegexp(data, fn)
		return
	}
	hay := data
	if m.fold {
		*scratch = lowerASCII((*scratch)[:0], data)
		hay = *scratch
	}
	// next[j] is where lits[j] next occurs at or after pos: -1 for
	// nowhere, and below pos when it must be searched again.
	var nextBuf [maxLiterals]int
	next := nextBuf[:len(m.lits)]
	for j := range next {
		next[j] = -2
	}
	for pos := 0; pos < len(data); {
		i := -1
		for j, lit := range m.lits {
			if next[j] != -1 && next[j] < pos {
				next[j] = bytes.Index(hay[pos:], lit)
				if next[j] >= 0 {
					next[j] += pos
				}
			}
			if next[j] >= 0 && (i < 0 || next[j] < i) {
				i = next[j]
			}
		}
		if i < 0 {
			return
		}
		start := bytes.LastIndexByte(data[pos:i], '\n') + 1 + pos
		end := lineEnd(data, i)
		if m.pure || m.re.Match(trimCR(data[start:end])) {
			fn(start, end)
		}
		pos = end + 1
	}
}

// scanRegexp is scan without a literal to look for first.
func (m *lineMatcher) scanRegexp(data []byte, fn func(start, end int)) {
	if m.reBuf == nil {
		for start := 0; start < len(data); {
			end := lineEnd(data, start)
			if m.re.Match(trimCR(data[start:end])) {
				fn(start, end)
			}
			start = end + 1
		}
		return
	}
	for pos := 0; pos < len(data); {
		loc := m.reBuf.FindIndex(data[pos:])
		if loc == nil {
			return
		}
		i := pos + loc[0]
		start := bytes.LastIndexByte(data[pos:i], '\n') + 1 + pos
		if start == len(data) {
			// An empty match after the final newline is not a line.
			return
		}
		end := lineEnd(data, i)
		// The whole-file match may span lines; the line must match alone.
		if m.re.Match(trimCR(data[start:end])) {
			fn(start, end)
		}
		pos = end + 1
	}
}

// lowerASCII appends data with A-Z turned into a-z to dst; every other byte,
// UTF-8 included, is kept, so offsets are the same in both.
func lowerASCII(dst, data []byte) []byte {
	dst = append(dst, data...)
	for i, c := range dst {
		if c-'A' < 26 {
			dst[i] = c + ('a' - 'A')
		}
	}
	return dst
}

// lineEnd returns the index of the newline ending the line that holds i, or
// len(data).
func lineEnd(data []byte, i int) int {
	if j := bytes.IndexByte(data[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(data)
}

// trimCR drops the CR of a CRLF line ending, so "$" matches before it.
func trimCR(line []byte) []byte {
	if n := len(line); n > 0 && line[n-1] == '\r' {
		return line[:n-1]
	}
	return line
}
