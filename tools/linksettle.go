package tools

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// A file's link count and the name that leads to it are not seen
// atomically. A rename over a name, or an unlink of it, lowers the old
// file's link count before the name is moved in the kernel's name cache,
// so for a moment a lookup of the name still finds the old file while its
// count already says 1. A hard link to .env opened under an innocent name
// and being replaced just then looks like a file with one name, and the
// secret index is never asked. (Traced in TestProcessSwapRace: open, fstat
// and lstat all saw the hard link with one link.)
//
// Renames and unlinks hold their folder's lock from before they lower the
// count until the name cache is updated, and reading the folder takes that
// lock, so reading it once waits for any such change that was under way
// when the file was looked at. If, after that wait, the name the file was
// opened by is still its name (on Linux the kernel says so through
// /proc/self/fd; a replaced name reads "(deleted)"), no change of that
// name was under way, and the counts seen before included it: one link
// then means that name is the file's only one. Where the system cannot
// tell, the name is looked up again and a change of the file's status
// time counts as several links, which narrows the window without closing
// it.

// settledLinks returns the link count of the file f, opened by the
// workspace path rel, once no rename or unlink of that name can be under
// way (see above); the name must still be f's, or the file counts as
// swapped.
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
	var (
		links uint64
		serr  error // the barrier's or the second look's, kept apart from dirControl's own
	)
	err = dirControl(d, func(dirfd int) {
		if serr = dirBarrier(dirfd); serr != nil {
			return
		}
		serr = fileControl(f, func(fd int) error {
			var lerr error
			links, lerr = linksAfterBarrier(dirfd, path.Base(rel), fd, w.absOf(rel), &before)
			return lerr
		})
	})
	if err == nil {
		err = serr
	}
	if err != nil {
		return 0, fmt.Errorf("%s %w", displayPath(rel), err)
	}
	return links, nil
}

// absOf is the absolute path of the workspace path rel.
func (w *Workspace) absOf(rel string) string { return filepath.Join(w.Root, filepath.FromSlash(rel)) }

// linksAfterBarrier judges, after dirBarrier, the file open as fd that was
// seen as before under the name abs (name within the folder dirfd): the
// name must still be the file's, and the result is its link count. An fd
// of -1 judges by name only.
func linksAfterBarrier(dirfd int, name string, fd int, abs string, before *unix.Stat_t) (uint64, error) {
	var id fdIdentity
	if fd >= 0 {
		var mounted bool
		if mounted, id = mountedOver(dirfd, fd); mounted {
			// Another file mounted over the name: its count is not the
			// name's, so it is checked as a file with several names.
			return 2, nil
		}
	}
	// /proc adds " (deleted)" to a replaced name, so a name that itself
	// ends so cannot tell a replaced file from one still named so (the
	// descriptor renamed to "a", then replaced, reads "a (deleted)"): it
	// is looked up by name instead.
	if now, known := fdName(fd); known && !strings.HasSuffix(abs, deletedSuffix) {
		if now != abs {
			return 0, errSwapped // renamed, or replaced: "(deleted)"
		}
		// A link made since the first look counts too (id, read by
		// mountedOver after the barrier, or fstat).
		if !id.ok {
			var after unix.Stat_t
			if err := unix.Fstat(fd, &after); err != nil {
				return 0, err
			}
			id = fdIdentity{dev: uint64(after.Dev), ino: uint64(after.Ino), nlink: uint64(after.Nlink), ok: true} //nolint:unconvert // the field types differ between systems
		}
		// And the name in dirfd must lead to it: a barrier on a folder
		// that is not the file's (the folder swapped between the open
		// and the barrier, and back before /proc was read) waited for
		// nothing.
		var byName unix.Stat_t
		if err := unix.Fstatat(dirfd, name, &byName, unix.AT_SYMLINK_NOFOLLOW); err != nil || uint64(byName.Dev) != id.dev || uint64(byName.Ino) != id.ino { //nolint:unconvert // the field types differ between systems
			return 0, errSwapped
		}
		return max(uint64(before.Nlink), id.nlink), nil //nolint:unconvert // the field types differ between systems
	}
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

// fdIdentity is what linksAfterBarrier needs of a descriptor's status: its
// file's identity and link count; ok is false when it was not read.
type fdIdentity struct {
	dev, ino, nlink uint64
	ok              bool
}

// fileControl runs fn with f's descriptor.
func fileControl(f *os.File, fn func(fd int) error) error {
	var ferr error
	if err := dirControl(f, func(fd int) { ferr = fn(fd) }); err != nil {
		return err
	}
	return ferr
}

// deletedSuffix is what /proc adds to the name of a removed or replaced file.
const deletedSuffix = " (deleted)"
