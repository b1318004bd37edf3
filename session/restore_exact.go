package session

import (
	"io/fs"
	"os"
	"path"

	"golang.org/x/sys/unix"

	"github.com/ternhq/tern/tools"
)

// inFolder runs fn on the folder of the workspace path rel (slash path) of
// the root r, opened with no link followed on the way, and rel's last
// name: a rewind or undo removes or recreates exactly the file named,
// never one a folder swapped for a link (to .git/hooks, say) leads to.
func inFolder(r *os.Root, rel string, fn func(dirfd int, base string) error) error {
	dir, base := path.Split(rel)
	d, err := tools.OpenDirExact(r, path.Clean("./"+dir))
	if err != nil {
		return err
	}
	defer func() { _ = d.Close() }()
	sc, err := d.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := sc.Control(func(fd uintptr) { ferr = fn(int(fd), base) }); err != nil {
		return err
	}
	if ferr != nil {
		return &os.PathError{Op: "restore", Path: rel, Err: ferr}
	}
	return nil
}

// writeExact replaces the workspace file rel (slash path) of the root r
// with data through a temporary file in its folder, that folder opened
// with no link followed on the way.
func writeExact(r *os.Root, rel string, data []byte, perm fs.FileMode) error {
	dir, base := path.Split(rel)
	d, err := tools.OpenDirExact(r, path.Clean("./"+dir))
	if err != nil {
		return err
	}
	defer func() { _ = d.Close() }()
	return tools.ReplaceIn(d, base, data, perm)
}

// removeExact removes the workspace file rel (slash path) of the root r,
// its folder opened with no link followed on the way.
func removeExact(r *os.Root, rel string) error {
	return inFolder(r, rel, func(dirfd int, base string) error { return unix.Unlinkat(dirfd, base, 0) })
}

// symlinkExact makes the workspace path rel (slash path) of the root r a
// symbolic link to target, removing what is there first when replace is
// set; its folder is opened with no link followed on the way.
func symlinkExact(r *os.Root, rel, target string, replace bool) error {
	return inFolder(r, rel, func(dirfd int, base string) error {
		if replace {
			if err := unix.Unlinkat(dirfd, base, 0); err != nil {
				return err
			}
		}
		return unix.Symlinkat(target, dirfd, base)
	})
}
