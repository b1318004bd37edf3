package sandbox

import (
	"os"
	"path/filepath"
)

// Resolved returns p with its writable roots and caches as real paths
// (symbolic links resolved, as far as each exists). Resolve a policy once,
// before any command runs: the launcher grants a writable root or cache
// only where its path is still its own real path, so that a command that
// replaces one (or a missing cache's parent) with a symbolic link, as it
// may where the root lies inside another writable root, cannot point the
// next command's sandbox at /etc or $HOME.
func (p Policy) Resolved() Policy {
	p.Writable = realPaths(p.Writable)
	p.Caches = realPaths(p.Caches)
	return p
}

// realPaths returns RealPath of each of paths.
func realPaths(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = RealPath(p)
	}
	return out
}

// RealPath returns the absolute path p with the symbolic links of its
// existing part resolved; the missing rest is joined on as it is.
func RealPath(p string) string {
	p = filepath.Clean(p)
	var rest []string
	for dir := p; ; dir = filepath.Dir(dir) {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			for i := len(rest) - 1; i >= 0; i-- {
				real = filepath.Join(real, rest[i])
			}
			return real
		}
		if parent := filepath.Dir(dir); parent == dir {
			return p
		}
		rest = append(rest, filepath.Base(dir))
	}
}

// unmoved reports whether p is still its own real path as far as it
// exists: no part of it has become a symbolic link since the policy was
// resolved.
func unmoved(p string) bool {
	return filepath.IsAbs(p) && RealPath(p) == filepath.Clean(p)
}

// unmovedPaths returns those of paths that are unmoved.
func unmovedPaths(paths []string) []string {
	var out []string
	for _, p := range paths {
		if unmoved(p) {
			out = append(out, p)
		}
	}
	return out
}

// lstatMissing reports whether nothing exists at p.
func lstatMissing(p string) bool {
	_, err := os.Lstat(p)
	return err != nil
}
