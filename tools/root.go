package tools

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// The file tools open every file through the workspace's *os.Root (openat
// relative to the workspace directory, never following a symlink or ".."
// out of it), and check the file they actually opened, not a path resolved
// before: a process beside tern that swaps a checked file or folder for a
// symlink between the check and the open gets, at worst, another file of
// the workspace, which the checks below then judge.

// errSwapped reports a path that changed between being checked and opened.
var errSwapped = errors.New("changed while tern was opening it (a file or folder on the way was replaced); try again")

// fsRoot returns the workspace opened as an *os.Root, and what to call when
// done with it.
func (w *Workspace) fsRoot() (*os.Root, func(), error) {
	if w.fsys != nil {
		return w.fsys, func() {}, nil
	}
	r, err := os.OpenRoot(w.Root)
	if err != nil {
		return nil, nil, fmt.Errorf("open the workspace %s: %w", w.Root, err)
	}
	return r, func() { _ = r.Close() }, nil
}

// rootName turns a slash path relative to the workspace into a name for
// the *os.Root.
func rootName(rel string) string {
	if rel == "" {
		return "."
	}
	return filepath.FromSlash(rel)
}

// fdRel returns the slash path, relative to the workspace, of the file f
// really is, or ok false when the system cannot tell (no /proc).
func (w *Workspace) fdRel(f *os.File) (rel string, ok bool, err error) {
	real, ok := fdPath(f)
	if !ok {
		return "", false, nil
	}
	r, err := filepath.Rel(w.Root, real)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
		return "", true, fmt.Errorf("it is now %s, %w", real, ErrOutsideWorkspace)
	}
	return filepath.ToSlash(r), true, nil
}

// inGitDir reports whether a workspace-relative slash path is .git or lies
// inside a .git folder (the workspace's or a nested repository's).
func inGitDir(rel string) bool {
	for part := range strings.SplitSeq(rel, "/") {
		if strings.EqualFold(part, ".git") {
			return true
		}
	}
	return false
}

// gitRefusal explains why the file tools do not touch .git/.
func gitRefusal(rel string) string {
	return fmt.Sprintf("%s is inside .git/: the file tools do not read or write there (it holds credentials and code git runs); use git commands through run_shell instead", displayPath(rel))
}

// opened is a file a read tool opened through the workspace root.
type opened struct {
	f    *os.File
	info fs.FileInfo
	// rel is the slash path of the file actually opened.
	rel string
}

// abs is the opened file's absolute path, the key of Workspace.Files.
func (o opened) abs(w *Workspace) string { return filepath.Join(w.Root, filepath.FromSlash(o.rel)) }

// openRead opens the workspace file rel (as Resolve gave it) for reading
// through the root, without blocking on a FIFO, and refuses it unless the
// file actually opened may be shown to the model: not in .git, not a secret
// by name, not a hard link to a secret. The caller closes o.f.
func (w *Workspace) openRead(rel string) (opened, error) {
	o, real, known, err := w.openIdentified(rel)
	if err != nil {
		return opened{}, err
	}
	if !known {
		real = rel
	}
	if err := w.checkShown(real, o.f, o.info, nil); err != nil {
		_ = o.f.Close()
		return opened{}, err
	}
	o.rel = real
	return o, nil
}

// openIdentified opens the workspace file rel through the root, following
// no link, without blocking on a FIFO, and says which workspace file was
// actually opened (real; known is false where the system cannot tell).
// The caller closes o.f when err is nil.
func (w *Workspace) openIdentified(rel string) (o opened, real string, known bool, err error) {
	r, done, err := w.fsRoot()
	if err != nil {
		return opened{}, "", false, err
	}
	defer done()
	f, err := openExact(r, rel, unix.O_NONBLOCK)
	if err != nil {
		return opened{}, "", false, rootError(rel, err)
	}
	info, err := f.Stat()
	if err == nil {
		real, known, err = w.fdRel(f)
		if err != nil {
			err = fmt.Errorf("%s %w", displayPath(rel), err)
		}
	}
	if err != nil {
		_ = f.Close()
		return opened{}, "", false, err
	}
	return opened{f: f, info: info, rel: rel}, real, known, nil
}

// rootError words an error of the workspace root: an escape is reported as
// ErrOutsideWorkspace, anything else as it is.
func rootError(rel string, err error) error {
	if err != nil && strings.Contains(err.Error(), "path escapes from parent") {
		return fmt.Errorf("%s %w: tools may only touch files under the workspace root", displayPath(rel), ErrOutsideWorkspace)
	}
	return err
}

// shownError is a file the read tools refuse to show.
type shownError struct{ msg string }

func (e *shownError) Error() string { return e.msg }

// checkShown refuses a file the read tools must not show: anything in
// .git, a secret by name, or a regular file that is the same file as a
// secret of the workspace (a hard link with an innocent name). idx caches
// the secrets of one walk (nil: built on demand).
func (w *Workspace) checkShown(rel string, f *os.File, info fs.FileInfo, idx *secretIndex) error {
	if inGitDir(rel) {
		return &shownError{gitRefusal(rel)}
	}
	if w.IsSecret(rel) {
		return &shownError{secretRefusal(w, rel)}
	}
	if !info.Mode().IsRegular() {
		return nil
	}
	id, links, ok := fileIDOf(info)
	if !ok {
		return nil
	}
	// The count fstat gave can already be stale: a hard link to .env
	// opened under an innocent name, then a plain file renamed over that
	// name, leaves .env's file with one link. The name is looked at again
	// after the open: it must still be this file, and if it has more than
	// one link now, it is checked as such.
	now, err := w.linksByName(rel, id)
	if err != nil {
		return err
	}
	if links = max(links, now); links < 2 {
		// Seen with one link twice, maybe in the middle of a rename over
		// the name (linksettle.go): looked at again once it is done.
		if links, err = w.settledLinks(rel, f); err != nil {
			return err
		}
		if links < 2 {
			return nil
		}
	}
	if idx == nil {
		idx = &secretIndex{}
	}
	secret, complete := idx.lookup(w, id)
	switch {
	case secret != "" && inGitDir(secret):
		return &shownError{fmt.Sprintf("%s is the same file as %s (a hard link); %s", displayPath(rel), displayPath(secret), gitRefusal(secret))}
	case secret != "":
		return &shownError{fmt.Sprintf("%s is the same file as %s (a hard link); %s", displayPath(rel), displayPath(secret), secretRefusal(w, secret))}
	case !complete:
		return &shownError{fmt.Sprintf("%s has other names (hard links) and the workspace is too large to check that none of them is a secret file; tern does not show it. Use run_shell to read it.", displayPath(rel))}
	}
	return nil
}

// replaceFile atomically replaces the workspace file rel with data: a
// temporary file is created with O_EXCL in the folder, opened through the
// root, that must really be rel's folder, then renamed over the name in that
// same folder. Nothing is written anywhere else, whatever is swapped
// meanwhile. With mkdirs, missing parent folders are created first (inside
// the root). perm is set exactly (not filtered by the umask).
func (w *Workspace) replaceFile(rel string, data []byte, perm fs.FileMode, mkdirs bool) error {
	return w.replaceFileWith(rel, mkdirs, func(dirfd int, base string) error {
		return writeRename(dirfd, base, data, perm)
	})
}

// replaceFileWith makes replaceFile's checks (and with mkdirs creates the
// missing folders), then calls write with rel's folder, held open and
// proved to be that folder, and the file's name in it.
func (w *Workspace) replaceFileWith(rel string, mkdirs bool, write func(dirfd int, base string) error) error {
	r, done, err := w.fsRoot()
	if err != nil {
		return err
	}
	defer done()
	dirRel, base := path.Split(rel)
	dirRel = strings.TrimSuffix(dirRel, "/")
	if base == "" || base == "." || base == ".." {
		return fmt.Errorf("%s is not a file name", displayPath(rel))
	}
	if mkdirs && dirRel != "" {
		if err := r.MkdirAll(rootName(dirRel), 0o755); err != nil {
			return fmt.Errorf("create the parent directories: %w", rootError(dirRel, err))
		}
	}
	d, err := openExact(r, dirRel, unix.O_DIRECTORY)
	if err != nil {
		return rootError(dirRel, err)
	}
	defer func() { _ = d.Close() }()
	want := dirRel
	if want == "" {
		want = "."
	}
	real, known, err := w.fdRel(d)
	switch {
	case err != nil:
		return fmt.Errorf("%s %w", displayPath(want), err)
	case known && real != want:
		return fmt.Errorf("the folder of %s %w", displayPath(rel), errSwapped)
	}
	if err := w.CheckWritable(rel); err != nil {
		return err
	}
	sc, err := d.SyscallConn()
	if err != nil {
		return err
	}
	var werr error
	if cerr := sc.Control(func(dirfd uintptr) {
		werr = write(int(dirfd), base)
	}); cerr != nil {
		return cerr
	}
	return werr
}

// writeRename writes data to a new temporary file in the folder dirfd and
// renames it to name in that folder.
func writeRename(dirfd int, name string, data []byte, perm fs.FileMode) (err error) {
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	tmp := "." + name + ".tern-" + hex.EncodeToString(rnd[:])
	fd, err := unix.Openat(dirfd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return fmt.Errorf("create a temporary file: %w", err)
	}
	f := os.NewFile(uintptr(fd), tmp)
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = unix.Unlinkat(dirfd, tmp, 0)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", tmp, err)
	}
	if err = f.Chmod(perm); err != nil {
		return fmt.Errorf("chmod %s: %w", tmp, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", tmp, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", tmp, err)
	}
	if err = unix.Renameat(dirfd, tmp, dirfd, name); err != nil {
		return fmt.Errorf("rename %s: %w", tmp, err)
	}
	return nil
}

// ReadFileInside reads the workspace file rel (a slash path) through the
// workspace root, so it is never a file outside, whatever is swapped; for
// the session's checkpoints, which save what a tool is about to replace.
func (w *Workspace) ReadFileInside(rel string) ([]byte, error) {
	r, done, err := w.fsRoot()
	if err != nil {
		return nil, err
	}
	defer done()
	return ReadRegularIn(r, rel)
}

// ReadRegularIn reads the regular file rel (a slash path) through the root
// r, without blocking on a FIFO that replaced it; anything but a regular
// file is an error.
func ReadRegularIn(r *os.Root, rel string) ([]byte, error) {
	f, err := openExact(r, rel, unix.O_NONBLOCK)
	if err != nil {
		return nil, rootError(rel, err)
	}
	defer func() { _ = f.Close() }()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", displayPath(rel))
	}
	return readAllSized(f, info.Size())
}

// openChange opens the workspace file rel (as Resolve gave it), which
// edit_file or write_file is about to replace, for reading its current
// content through the root. The file opened must be rel itself: a path
// swapped since Resolve is refused, not followed.
func (w *Workspace) openChange(rel string) (opened, error) {
	o, real, known, err := w.openIdentified(rel)
	if err != nil {
		return opened{}, err
	}
	if known && real != rel {
		_ = o.f.Close()
		return opened{}, fmt.Errorf("%s %w", displayPath(rel), errSwapped)
	}
	if err := w.CheckWritable(rel); err != nil {
		_ = o.f.Close()
		return opened{}, err
	}
	return o, nil
}

// statInside stats the workspace path rel through the root: a path that
// leads out of the workspace is an error, never the outside file's details.
func (w *Workspace) statInside(rel string) (fs.FileInfo, error) {
	r, done, err := w.fsRoot()
	if err != nil {
		return nil, err
	}
	defer done()
	fi, err := r.Stat(rootName(rel))
	return fi, rootError(rel, err)
}
