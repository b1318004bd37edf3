package tools

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"golang.org/x/sys/unix"
)

// ignoreRule is one pattern line of a .gitignore file.
type ignoreRule struct {
	pattern  string // doublestar pattern, without "!", leading or trailing slash
	negate   bool   // "!pattern" re-includes what an earlier rule excluded
	dirOnly  bool   // "pattern/" only matches directories
	anchored bool   // held a slash: matched against the path from the file's directory
	// Fast paths for the common shapes; when none applies, pattern is matched
	// with doublestar.
	literal string // the pattern has no glob characters
	suffix  string // the pattern is "*" followed by a literal, such as "*.o"
	// prefix is the literal start of any other pattern: a subject without
	// it is rejected before doublestar runs.
	prefix string
}

// ignoreFile holds the rules of one .gitignore (or .git/info/exclude).
type ignoreFile struct {
	// base is the workspace-relative directory the file applies to ("" for
	// the root); paths are matched relative to it.
	base string
	// prefix is prepended to paths when the file sits above the workspace
	// root (a repository whose top is a parent of the workspace).
	prefix string
	rules  []ignoreRule
	ignoreOnce
}

// parseIgnore turns .gitignore text into rules, following gitignore(5):
// blank lines and # comments are skipped, "!" negates, a trailing "/" limits
// the rule to directories, a slash elsewhere anchors it to the file's
// directory, and "**" matches any number of directories.
func parseIgnore(text string) []ignoreRule {
	var rules []ignoreRule
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		line = trimIgnoreSpaces(line)
		if line == "" || line[0] == '#' {
			continue
		}
		var r ignoreRule
		if line[0] == '!' {
			r.negate = true
			line = line[1:]
		} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") {
			r.dirOnly = true
			line = strings.TrimRight(line, "/")
		}
		if line == "" {
			continue
		}
		if strings.Contains(line, "/") {
			r.anchored = true
			line = strings.TrimPrefix(line, "/")
		}
		// Braces are literal in gitignore but alternatives in doublestar.
		// (A replacer made for each line was most of parsing a .gitignore
		// of 4,000 lines, itself most of the time to a picker's first rows.)
		if strings.ContainsAny(line, "{}") {
			line = strings.NewReplacer("{", `\{`, "}", `\}`).Replace(line)
		}
		if !doublestar.ValidatePattern(line) {
			continue
		}
		r.pattern = line
		if !strings.ContainsAny(line, `*?[\`) {
			r.literal = line
		} else if rest := line[1:]; line[0] == '*' && !r.anchored && !strings.ContainsAny(rest, `*?[\`) {
			r.suffix = rest
		} else {
			r.prefix = literalPrefix(line)
		}
		rules = append(rules, r)
	}
	return rules
}

// maxIgnoreFileSize bounds the ignore files read; a real one is a few KiB.
const maxIgnoreFileSize = 1 << 20

// errIgnoreNotRegular refuses an ignore file that is not a regular file.
var errIgnoreNotRegular = errors.New("not a regular file")

// readIgnoreFile reads an ignore file only when it is a regular file of
// reasonable size. A repository can hold a .gitignore that is a symlink to
// /dev/zero (endless), /dev/tty or a FIFO (blocks forever): followed, it
// would hang or exhaust every listing and search. Git itself no longer
// follows symlinked .gitignore files (since 2.32).
func readIgnoreFile(path string) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errIgnoreNotRegular
	}
	// readRegularFile opens without blocking and checks again, so a file
	// swapped for a FIFO since the Lstat cannot block either.
	data, _, err := readRegularFile(path, nil, maxIgnoreFileSize)
	return data, err
}

// readIgnoreAt reads the .gitignore of the open directory d, opened
// relative to it without following a symlink or blocking on a FIFO, when it
// is a regular file of reasonable size.
func readIgnoreAt(d *os.File) ([]byte, error) {
	var (
		data []byte
		rerr error
	)
	if err := dirControl(d, func(dirfd int) {
		fd, err := openatRetry(dirfd, ".gitignore", unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC)
		if err != nil {
			rerr = err
			return
		}
		defer func() { _ = unix.Close(fd) }()
		data, _, rerr = readFd(fd, nil, maxIgnoreFileSize)
	}); err != nil {
		return nil, err
	}
	return data, rerr
}

// readIgnoreIn reads the ignore file name of the workspace r, through the
// root, when it is a regular file (not a link) of reasonable size.
func readIgnoreIn(r *os.Root, name string) ([]byte, error) {
	fi, err := r.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errIgnoreNotRegular
	}
	f, err := r.OpenFile(name, os.O_RDONLY|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	var data []byte
	var rerr error
	if err := dirControl(f, func(fd int) { data, _, rerr = readFd(fd, nil, maxIgnoreFileSize) }); err != nil {
		return nil, err
	}
	return data, rerr
}

// trimIgnoreSpaces drops trailing spaces unless escaped with a backslash.
func trimIgnoreSpaces(line string) string {
	for strings.HasSuffix(line, " ") && !strings.HasSuffix(line, `\ `) {
		line = line[:len(line)-1]
	}
	return line
}

// match reports whether the rule matches a path relative to the ignore
// file's directory.
func (r *ignoreRule) match(rel, name string, isDir bool) bool {
	if r.dirOnly && !isDir {
		return false
	}
	subject := name
	if r.anchored {
		subject = rel
	}
	switch {
	case r.literal != "":
		return subject == r.literal
	case r.suffix != "":
		return strings.HasSuffix(subject, r.suffix)
	case !strings.HasPrefix(subject, r.prefix):
		return false
	}
	return doublestar.MatchUnvalidated(r.pattern, subject)
}

// ignoreStack is the set of ignore files that apply inside one directory,
// outermost first.
type ignoreStack []*ignoreFile

// ignored reports whether a workspace-relative path is excluded. The last
// matching rule of the deepest file that has one decides, as in git.
func (s ignoreStack) ignored(rel string, isDir bool) bool {
	name := rel[strings.LastIndexByte(rel, '/')+1:]
	for i := len(s) - 1; i >= 0; i-- {
		f := s[i]
		sub := rel
		if f.base != "" {
			if len(rel) <= len(f.base) || rel[len(f.base)] != '/' || !strings.HasPrefix(rel, f.base) {
				continue // the file applies to another directory
			}
			sub = rel[len(f.base)+1:]
		}
		if f.prefix != "" {
			sub = f.prefix + sub
		}
		if j := f.indexed().last(f.rules, sub, name, isDir); j >= 0 {
			return !f.rules[j].negate
		}
	}
	return false
}

// with returns the stack extended by the .gitignore in dir, if it has one.
// The stack is copied so sibling directories do not share appends.
func (s ignoreStack) with(dirAbs, dirRel string) ignoreStack {
	data, err := readIgnoreFile(filepath.Join(dirAbs, ".gitignore"))
	if err != nil {
		return s
	}
	rules := parseIgnore(string(data))
	if len(rules) == 0 {
		return s
	}
	out := make(ignoreStack, len(s), len(s)+1)
	copy(out, s)
	return append(out, &ignoreFile{base: dirRel, rules: rules})
}

// withFile returns the stack extended by the .gitignore in the open
// directory d (workspace path dirRel), if it has one.
func (s ignoreStack) withFile(d *os.File, dirRel string) ignoreStack {
	data, err := readIgnoreAt(d)
	if err != nil {
		return s
	}
	rules := parseIgnore(string(data))
	if len(rules) == 0 {
		return s
	}
	out := make(ignoreStack, len(s), len(s)+1)
	copy(out, s)
	return append(out, &ignoreFile{base: dirRel, rules: rules})
}

// rootIgnores returns the ignore files that apply at the workspace root: the
// .gitignore files and .git/info/exclude of an enclosing repository whose top
// lies above the root, then the root's own .git/info/exclude and .gitignore.
func rootIgnores(root string) ignoreStack { return enclosingIgnores(root, nil).with(root, "") }

// enclosingIgnores returns the ignore files of rootIgnores but the root's
// own .gitignore, which the walk reads through its handle on the root. With
// r (the workspace's root), the workspace's own .git/info/exclude is read
// through it too; files above the workspace are read by path.
func enclosingIgnores(root string, r *os.Root) ignoreStack {
	var stack ignoreStack
	// Find the repository top: the nearest directory at or above root that
	// holds .git. Ignore files above the root only count inside a repository.
	top := ""
	for dir := root; ; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			top = dir
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	switch {
	case top == root && r != nil:
		if data, err := readIgnoreIn(r, filepath.Join(".git", "info", "exclude")); err == nil {
			if rules := parseIgnore(string(data)); len(rules) > 0 {
				stack = append(stack, &ignoreFile{rules: rules})
			}
		}
	case top != "":
		stack = appendIgnoreFile(stack, filepath.Join(top, ".git", "info", "exclude"), root, top)
		if top != root {
			rel, err := filepath.Rel(top, root)
			if err == nil {
				parts := strings.Split(filepath.ToSlash(rel), "/")
				dir := top
				for i := range parts {
					stack = appendIgnoreFile(stack, filepath.Join(dir, ".gitignore"), root, dir)
					dir = filepath.Join(dir, parts[i])
				}
			}
		}
	}
	return stack
}

// appendIgnoreFile adds the rules in file, which apply from dir (at or above
// root), to the stack.
func appendIgnoreFile(stack ignoreStack, file, root, dir string) ignoreStack {
	data, err := readIgnoreFile(file)
	if err != nil {
		return stack
	}
	rules := parseIgnore(string(data))
	if len(rules) == 0 {
		return stack
	}
	prefix := ""
	if rel, err := filepath.Rel(dir, root); err == nil && rel != "." {
		prefix = filepath.ToSlash(rel) + "/"
	}
	return append(stack, &ignoreFile{prefix: prefix, rules: rules})
}
