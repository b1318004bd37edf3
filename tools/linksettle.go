package tools

import (
	"fmt"
	"os"
	"path"

	"golang.org/x/sys/unix"
)

// A file's link count and the name that leads to it are not seen
// atomically. A rename over a name, or an unlink of it, lowers the old
// file's link count before the name is moved in the kernel's name cache,
// so for a moment a lookup of the name still finds the old file while its
// count already says 1. A hard link to .env opened under an innocent name
// and being replaced just then looks like a file with one name, and the
// secret index is never asked. (Measured on Linux ext4: about one open in
// 100,000 against a process that swaps the name in a loop.)
//
// Renames and unlinks hold their folder's lock until the name cache is
// updated, and reading a folder takes that same lock, so reading the
// folder once waits for any such change under way. After that wait the
// file and its name are looked at again; a change of the file's status
// time in between means its links changed, and it is checked as a file
// with several links.

// settledLinks returns the link count of the file f, opened by the
// workspace path rel, once no rename or unlink is under way in rel's
// folder: the largest count seen, or 2 when the file's links changed in
// between. The name must still lead to f, or the file counts as swapped.
func (w *Workspace) settledLinks(rel string, f *os.File) (uint64, error) {
	var before unix.Stat_t
	if err := fileControl(f, func(fd int) error { return unix.Fstat(fd, &before) }); err != nil {
		return 0, err
	}
	r, done, err := w.fsRoot()
	if err != nil {
		return 0, err
	}
	defer done()
	dir := path.Dir(rel)
	if dir == "." {
		dir = ""
	}
	d, err := openExact(r, dir, unix.O_DIRECTORY)
	if err != nil {
		return 0, fmt.Errorf("%s %w", displayPath(rel), errSwapped)
	}
	defer func() { _ = d.Close() }()
	var links uint64
	err = dirControl(d, func(dirfd int) {
		if err = dirBarrier(dirfd); err == nil {
			links, err = linksAfterBarrier(dirfd, path.Base(rel), &before)
		}
	})
	if err != nil {
		return 0, fmt.Errorf("%s %w", displayPath(rel), err)
	}
	return links, nil
}

// linksAfterBarrier looks again, after dirBarrier, at the name in the
// folder dirfd of a file first seen as before: the name must still lead to
// it, and the result is its largest link count seen, or 2 when its status
// time changed in between (a link made and removed again).
func linksAfterBarrier(dirfd int, name string, before *unix.Stat_t) (uint64, error) {
	var now unix.Stat_t
	if err := unix.Fstatat(dirfd, name, &now, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return 0, errSwapped
	}
	if now.Dev != before.Dev || now.Ino != before.Ino {
		return 0, errSwapped
	}
	if now.Ctim != before.Ctim {
		return 2, nil
	}
	return uint64(max(before.Nlink, now.Nlink)), nil //nolint:unconvert // the field types differ between systems
}

// fileControl runs fn with f's descriptor.
func fileControl(f *os.File, fn func(fd int) error) error {
	var ferr error
	if err := dirControl(f, func(fd int) { ferr = fn(fd) }); err != nil {
		return err
	}
	return ferr
}
