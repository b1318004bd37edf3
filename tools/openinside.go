package tools

import (
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// openExact opens the workspace path rel (a slash path as Resolve gives
// it, with every link already resolved) through the root r, one step at a
// time from the root's handle, following no symbolic link at all: not the
// final name, not a folder on the way. The file opened is therefore the
// one that had exactly the name rel when it was opened, on every system,
// so the checks made on rel hold for it; a step swapped for a link since
// Resolve makes the open fail (errSwapped) instead of leading elsewhere,
// inside the workspace or out. flags are added to O_RDONLY.
func openExact(r *os.Root, rel string, flags int) (*os.File, error) {
	d, err := r.Open(".")
	if err != nil {
		return nil, err
	}
	if rel == "" || rel == "." {
		return d, nil
	}
	parts := strings.Split(rel, "/")
	for i, part := range parts {
		if part == "" || part == "." || part == ".." {
			_ = d.Close()
			return nil, fmt.Errorf("%s is not a plain workspace path", displayPath(rel))
		}
		if i < len(parts)-1 {
			sub, err := openDirAt(d, part)
			if err != nil {
				err = exactError(d, part, rel, err)
				_ = d.Close()
				return nil, err
			}
			_ = d.Close()
			d = sub
			continue
		}
		var (
			fd   int
			oerr error
		)
		cerr := dirControl(d, func(dirfd int) {
			fd, oerr = openatRetry(dirfd, part, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|flags)
		})
		if cerr == nil && oerr != nil {
			cerr = exactError(d, part, rel, oerr)
		}
		_ = d.Close()
		if cerr != nil {
			return nil, cerr
		}
		return os.NewFile(uintptr(fd), part), nil
	}
	return nil, fmt.Errorf("%s is not a plain workspace path", displayPath(rel))
}

// exactError words the failed open of the step name of rel in the folder
// d: a step that is a symbolic link is reported as a swap, anything else as
// the error it is, so errors.Is still sees fs.ErrNotExist and the like.
func exactError(d *os.File, name, rel string, err error) error {
	var st unix.Stat_t
	var serr error
	if cerr := dirControl(d, func(dirfd int) { serr = unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) }); cerr == nil && serr == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
		return fmt.Errorf("%s %w", displayPath(rel), errSwapped)
	}
	return &os.PathError{Op: "open", Path: rel, Err: err}
}
