package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"golang.org/x/sys/unix"
)

// WriteInside writes data to the workspace file rel (a slash path) of the
// root r, for writes tern makes on the user's behalf (/export): every
// folder on the way is opened without following a link, the new content
// goes to a temporary file in that folder and is renamed over the name
// (so a hard link's other names keep their content), and a name that is a
// symbolic link or inside .git (any case) is refused. So a link planted in
// the workspace can redirect the write neither out of the workspace nor
// onto a file of it that runs code (.git/config, .git/hooks/).
func WriteInside(r *os.Root, rel string, data []byte, perm fs.FileMode) error {
	if inGitDir(rel) {
		return errors.New(gitRefusal(rel))
	}
	dirRel, base := path.Split(rel)
	dirRel = strings.TrimSuffix(dirRel, "/")
	if base == "" || base == "." || base == ".." {
		return fmt.Errorf("%s is not a file name", displayPath(rel))
	}
	d, err := openExact(r, dirRel, unix.O_DIRECTORY)
	if err != nil {
		return err
	}
	defer func() { _ = d.Close() }()
	var werr error
	if err := dirControl(d, func(dirfd int) {
		var st unix.Stat_t
		switch err := unix.Fstatat(dirfd, base, &st, unix.AT_SYMLINK_NOFOLLOW); {
		case errors.Is(err, unix.ENOENT):
		case err != nil:
			werr = err
			return
		case st.Mode&unix.S_IFMT == unix.S_IFLNK:
			werr = fmt.Errorf("%s is a symbolic link; tern does not write through links", displayPath(rel))
			return
		case st.Mode&unix.S_IFMT != unix.S_IFREG:
			werr = fmt.Errorf("%s is not a regular file", displayPath(rel))
			return
		}
		werr = writeRename(dirfd, base, data, perm)
	}); err != nil {
		return err
	}
	return werr
}

// OpenDirExact opens the workspace folder rel (a slash path; "" or "." is
// the workspace) of the root r following no link on the way, and refuses
// .git in any case: for writes tern makes itself (/rewind, /undo), which
// must land in the folder named, not one a link swapped in leads to.
func OpenDirExact(r *os.Root, rel string) (*os.File, error) {
	if inGitDir(rel) {
		return nil, errors.New(gitRefusal(rel))
	}
	return openExact(r, rel, unix.O_DIRECTORY)
}

// ReplaceIn replaces the file name of the open folder d with data: a
// temporary file created in d, renamed over name in d. A link at name is
// replaced, not followed.
func ReplaceIn(d *os.File, name string, data []byte, perm fs.FileMode) error {
	if inGitDir(name) {
		return errors.New(gitRefusal(name))
	}
	var werr error
	if err := dirControl(d, func(dirfd int) { werr = writeRename(dirfd, name, data, perm) }); err != nil {
		return err
	}
	return werr
}
