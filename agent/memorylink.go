package agent

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// openMemoryFile opens the memory file path. With top set (a project's
// file), a symbolic link is followed only to another memory file
// (AGENTS.md, CLAUDE.md) inside top: a memory file goes into the system
// prompt sent to the gateway, and a link planted by a command to
// ~/.aws/credentials or to the workspace's .env would carry that file
// there past the sandbox and the secret-file filter. The file is then
// opened without following a link, so one swapped in after the check is
// refused rather than followed.
func openMemoryFile(path, top string) (*os.File, error) {
	if top == "" {
		return os.Open(path)
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	real := path
	if fi.Mode()&fs.ModeSymlink != 0 {
		if real, err = filepath.EvalSymlinks(path); err != nil {
			return nil, err
		}
		rel, rerr := filepath.Rel(top, real)
		inside := rerr == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
		if !inside || !slices.ContainsFunc(memoryNames, func(n string) bool { return strings.EqualFold(n, filepath.Base(real)) }) {
			return nil, fmt.Errorf("memory file %s is a link to %s, which is not a memory file of the project; not read", path, real)
		}
	}
	f, err := os.OpenFile(real, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if err := checkMemoryLinks(f, real); err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}

// checkMemoryLinks refuses a memory file with hard links other than the
// memory names of its own folder (AGENTS.md and CLAUDE.md linked together
// is fine): a command that ran 'ln .env AGENTS.md' would otherwise have
// tern send .env to the gateway in the system prompt.
func checkMemoryLinks(f *os.File, path string) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st.Nlink < 2 || !fi.Mode().IsRegular() {
		return nil
	}
	known := uint64(0)
	for _, name := range memoryNames {
		if other, err := os.Lstat(filepath.Join(filepath.Dir(path), name)); err == nil && os.SameFile(fi, other) {
			known++
		}
	}
	if uint64(st.Nlink) > known { //nolint:unconvert // the field's type differs between systems
		return fmt.Errorf("memory file %s has other names (hard links) than the memory files of its folder; not read", path)
	}
	return nil
}
