package app

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// gitHead returns the commit checked out in the git repository holding dir,
// read from .git/HEAD and the refs without running git, or "" when there is
// no repository or the commit cannot be read cheaply.
func gitHead(dir string) string {
	gitDir := findGitDir(dir)
	if gitDir == "" {
		return ""
	}
	b, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return ""
	}
	head := strings.TrimSpace(string(b))
	ref, ok := strings.CutPrefix(head, "ref: ")
	if !ok {
		return commitID(head)
	}
	// A worktree keeps its refs in the common directory.
	common := gitDir
	if c, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		common = resolve(gitDir, strings.TrimSpace(string(c)))
	}
	for _, d := range []string{gitDir, common} {
		if b, err := os.ReadFile(filepath.Join(d, filepath.FromSlash(ref))); err == nil {
			return commitID(strings.TrimSpace(string(b)))
		}
	}
	return packedRef(filepath.Join(common, "packed-refs"), ref)
}

// findGitDir returns the git directory of the repository holding dir: a
// .git directory, or the one a .git file (worktree, submodule) points to.
func findGitDir(dir string) string {
	for {
		p := filepath.Join(dir, ".git")
		if fi, err := os.Stat(p); err == nil {
			if fi.IsDir() {
				return p
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return ""
			}
			target, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
			if !ok {
				return ""
			}
			return resolve(dir, target)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// resolve makes p absolute relative to base.
func resolve(base, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// packedRef looks ref up in a packed-refs file.
func packedRef(path, ref string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer func() { _ = f.Close() }()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		id, name, ok := strings.Cut(sc.Text(), " ")
		if ok && name == ref {
			return commitID(id)
		}
	}
	return ""
}

// commitID returns s when it looks like a full commit id (SHA-1 or SHA-256).
func commitID(s string) string {
	if len(s) != 40 && len(s) != 64 {
		return ""
	}
	for _, r := range s {
		if !strings.ContainsRune("0123456789abcdef", r) {
			return ""
		}
	}
	return s
}
