package tools

import (
	"strings"
	"sync"
)

// ignoreIndex finds the last rule of one ignore file that matches a path
// without trying every rule: a .gitignore of thousands of lines, tried rule
// by rule with doublestar for each of 200,000 paths, was 72% of a walk's
// CPU. Literal rules are looked up in maps; the others are kept in lists
// by the first byte their subject must start with, and only those that
// could decide (a higher index than the best match so far) are tried.
type ignoreIndex struct {
	byName map[string]ruleMax // literal rules without a slash, by name
	byPath map[string]ruleMax // literal anchored rules, by path
	// nameFirst and pathFirst hold the indexes, ascending, of the other
	// rules whose pattern starts with a literal byte, for names and for
	// anchored paths; anyFirst those starting with a wildcard.
	nameFirst map[byte][]int
	pathFirst map[byte][]int
	anyFirst  []int
}

// ruleMax is the highest index of a literal rule matching files (-1: none)
// and the highest matching directories, whose dir-only rules count too.
type ruleMax struct{ file, dir int }

// add records rule i for a file or a directory-only match.
func (r ruleMax) add(i int, dirOnly bool) ruleMax {
	if !dirOnly {
		r.file = i
	}
	r.dir = i
	return r
}

// lookup returns the index recorded for a file or a directory.
func (r ruleMax) lookup(isDir bool) int {
	if isDir {
		return r.dir
	}
	return r.file
}

// newIgnoreIndex indexes rules.
func newIgnoreIndex(rules []ignoreRule) *ignoreIndex {
	x := &ignoreIndex{
		byName:    map[string]ruleMax{},
		byPath:    map[string]ruleMax{},
		nameFirst: map[byte][]int{},
		pathFirst: map[byte][]int{},
	}
	for i := range rules {
		r := &rules[i]
		switch {
		case r.literal != "" && r.anchored:
			x.byPath[r.literal] = lookupMax(x.byPath, r.literal).add(i, r.dirOnly)
		case r.literal != "":
			x.byName[r.literal] = lookupMax(x.byName, r.literal).add(i, r.dirOnly)
		case r.prefix == "":
			x.anyFirst = append(x.anyFirst, i)
		case r.anchored:
			x.pathFirst[r.prefix[0]] = append(x.pathFirst[r.prefix[0]], i)
		default:
			x.nameFirst[r.prefix[0]] = append(x.nameFirst[r.prefix[0]], i)
		}
	}
	return x
}

// lookupMax returns m[key], or no match.
func lookupMax(m map[string]ruleMax, key string) ruleMax {
	if r, ok := m[key]; ok {
		return r
	}
	return ruleMax{file: -1, dir: -1}
}

// last returns the index of the last rule matching sub (the path from the
// ignore file's directory) whose name is name, or -1.
func (x *ignoreIndex) last(rules []ignoreRule, sub, name string, isDir bool) int {
	best := -1
	if r, ok := x.byName[name]; ok {
		best = max(best, r.lookup(isDir))
	}
	if r, ok := x.byPath[sub]; ok {
		best = max(best, r.lookup(isDir))
	}
	if name != "" {
		best = lastOf(rules, x.nameFirst[name[0]], best, sub, name, isDir)
	}
	if sub != "" {
		best = lastOf(rules, x.pathFirst[sub[0]], best, sub, name, isDir)
	}
	return lastOf(rules, x.anyFirst, best, sub, name, isDir)
}

// lastOf tries the rules listed in idx (ascending) from the last down to
// best and returns the index of the first that matches, or best.
func lastOf(rules []ignoreRule, idx []int, best int, sub, name string, isDir bool) int {
	for k := len(idx) - 1; k >= 0 && idx[k] > best; k-- {
		if rules[idx[k]].match(sub, name, isDir) {
			return idx[k]
		}
	}
	return best
}

// indexed returns the file's index, built on first use.
func (f *ignoreFile) indexed() *ignoreIndex {
	f.once.Do(func() { f.index = newIgnoreIndex(f.rules) })
	return f.index
}

// literalPrefix returns the part of a doublestar pattern before its first
// special character.
func literalPrefix(pattern string) string {
	if i := strings.IndexAny(pattern, `*?[{\`); i >= 0 {
		return pattern[:i]
	}
	return pattern
}

// ignoreOnce is the lazily built index of an ignoreFile.
type ignoreOnce struct {
	once  sync.Once
	index *ignoreIndex
}
