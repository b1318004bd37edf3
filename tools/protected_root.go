package tools

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// baseIDs records what each base folder of the protected locations
// (Protected.Base) was when the first snapshot was taken, so that a
// folder swapped for another one, or for a link to one, is refused
// rather than read or written through.
type baseIDs map[string]fs.FileInfo

// newBaseIDs records the base folders of list as they are now.
func newBaseIDs(list []Protected) baseIDs {
	ids := baseIDs{}
	for _, p := range list {
		if _, ok := ids[p.Base]; ok {
			continue
		}
		if fi, err := os.Lstat(p.Base); err == nil && fi.IsDir() {
			ids[p.Base] = fi
		} else {
			ids[p.Base] = nil
		}
	}
	return ids
}

// baseRoots opens base folders as os.Roots, once each: every read, write
// and removal of a snapshot goes through them, so no link or `..` swapped
// in by a command or a process beside tern leads outside the folder.
type baseRoots struct {
	ids   baseIDs
	roots map[string]*os.Root
	errs  map[string]error
}

func newBaseRoots(ids baseIDs) *baseRoots {
	return &baseRoots{ids: ids, roots: map[string]*os.Root{}, errs: map[string]error{}}
}

// get returns the open root of base, checking it is still the folder
// recorded before the command.
func (b *baseRoots) get(base string) (*os.Root, error) {
	if r, ok := b.roots[base]; ok {
		return r, nil
	}
	if err, ok := b.errs[base]; ok {
		return nil, err
	}
	r, err := b.open(base)
	if err != nil {
		b.errs[base] = err
		return nil, err
	}
	b.roots[base] = r
	return r, nil
}

func (b *baseRoots) open(base string) (*os.Root, error) {
	id := b.ids[base]
	if id == nil {
		return nil, fmt.Errorf("%s did not exist before the command", base)
	}
	r, err := os.OpenRoot(base)
	if err != nil {
		return nil, err
	}
	now, err := r.Stat(".")
	if err != nil || !os.SameFile(id, now) {
		_ = r.Close()
		return nil, fmt.Errorf("%s was replaced by another folder or a link since the command started", base)
	}
	return r, nil
}

// close closes every root opened.
func (b *baseRoots) close() {
	for _, r := range b.roots {
		_ = r.Close()
	}
}

// relTo returns p relative to base ("." for base itself).
func relTo(base, p string) string {
	r, err := filepath.Rel(base, p)
	if err != nil {
		return p
	}
	return r
}

// restoreEntry makes rel below the root r hold e again.
func restoreEntry(r *os.Root, rel string, e snapEntry) error {
	switch {
	case e.mode.IsDir():
		if err := r.MkdirAll(rel, e.mode.Perm()); err != nil {
			return err
		}
		return r.Chmod(rel, e.mode.Perm())
	case !e.kept:
		return errors.New("it was too large to keep a copy of")
	case e.mode&fs.ModeSymlink != 0:
		if err := r.RemoveAll(rel); err != nil {
			return err
		}
		return r.Symlink(string(e.data), rel)
	}
	if fi, err := r.Lstat(rel); err == nil && !fi.Mode().IsRegular() {
		if err := r.RemoveAll(rel); err != nil {
			return err
		}
	}
	if dir := filepath.Dir(rel); dir != "." {
		if err := r.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	tmp := filepath.Join(filepath.Dir(rel), ".tern-restore-"+hex.EncodeToString(rnd[:]))
	f, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.Write(e.data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr, r.Chmod(tmp, e.mode.Perm())); err != nil {
		_ = r.Remove(tmp)
		return err
	}
	if err := r.Rename(tmp, rel); err != nil {
		_ = r.Remove(tmp)
		return err
	}
	return nil
}
