package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// walkFile is one regular file found by walkFiles.
type walkFile struct {
	// rel is the slash-separated path relative to the workspace root.
	rel string
	// fd is the file, opened read-only, when walkOptions.open is set: the
	// visitor owns it and must close it. -1 otherwise.
	fd int
	// size is the file's size when it was opened, -1 if not known.
	size int64
}

// walkOptions tune walkFiles.
type walkOptions struct {
	// keep, if set, filters files before they are counted or visited; rel
	// is relative to the workspace root.
	keep func(rel string) bool
	// open makes walkFiles open each file it visits (walkFile.fd).
	open bool
}

// walkStats counts what walkFiles left out.
type walkStats struct {
	// secret counts files hidden because they are secret files: by name
	// (Workspace.IsSecret) or as hard links to one.
	secret int
}

// walkFiles visits the regular files under the workspace path startRel (a
// directory or file already resolved by Workspace.Resolve) in a fixed
// order: depth first, directory entries sorted by name. It skips .git,
// whatever .gitignore files exclude (the root's, nested ones, those of an
// enclosing repository, and .git/info/exclude), secret files and hard links
// to them, special files, symlinked directories (never followed, so no
// loops or escapes) and symlinked files whose target lies outside the
// workspace. An explicitly named start path is visited even when ignored.
// visit returning an error stops the walk with that error.
//
// Every folder is opened relative to its parent's handle with O_NOFOLLOW,
// from the workspace's *os.Root down, and every file relative to its
// folder's handle, so a folder or file swapped for a symlink during the
// walk is skipped, never followed out of the workspace.
func walkFiles(ctx context.Context, w *Workspace, startRel string, opts walkOptions, visit func(walkFile) error) (walkStats, error) {
	var st walkStats
	r, done, err := w.fsRoot()
	if err != nil {
		return st, err
	}
	defer done()
	wk := &walker{ctx: ctx, w: w, r: r, opts: opts, visit: visit, stats: &st, idx: new(secretIndex)}
	if startRel == "." {
		startRel = ""
	}
	if inGitDir(startRel) {
		return st, &shownError{gitRefusal(startRel)}
	}
	f, err := openExact(r, startRel, unix.O_NONBLOCK)
	if err != nil {
		return st, rootError(startRel, err)
	}
	defer func() { _ = f.Close() }()
	info, err := f.Stat()
	if err != nil {
		return st, err
	}
	real, known, err := w.fdRel(f)
	if err != nil {
		return st, fmt.Errorf("%s %w", displayPath(startRel), err)
	}
	if real == "." {
		real = ""
	}
	if known && real != startRel {
		return st, fmt.Errorf("%s %w", displayPath(startRel), errSwapped)
	}
	if !info.IsDir() {
		if !info.Mode().IsRegular() {
			return st, nil
		}
		if !wk.wanted(startRel) {
			return st, nil
		}
		if err := w.checkShown(startRel, f, info, wk.idx); err != nil {
			return st, err
		}
		fd := -1
		if opts.open {
			if fd, err = dupFile(f); err != nil {
				return st, err
			}
		}
		return st, visit(walkFile{rel: startRel, fd: fd, size: -1})
	}
	defer wk.dropPending()
	return st, wk.dir(f, startRel, wk.ignoresFor(startRel))
}

// dupFile returns a new descriptor for f, which the caller owns.
func dupFile(f *os.File) (int, error) {
	sc, err := f.SyscallConn()
	if err != nil {
		return -1, err
	}
	fd, derr := -1, error(nil)
	if err := sc.Control(func(p uintptr) { fd, derr = unix.FcntlInt(p, unix.F_DUPFD_CLOEXEC, 0) }); err != nil {
		return -1, err
	}
	return fd, derr
}

// ignoresFor builds the ignore stack that applies inside the workspace
// directory rel, reading the .gitignore files of its parents from the root
// down (rel's own is read when it is walked).
func (wk *walker) ignoresFor(rel string) ignoreStack {
	stack := enclosingIgnores(wk.w.Root, wk.r)
	if rel == "" {
		return stack
	}
	d, err := wk.r.Open(".")
	if err != nil {
		return stack
	}
	stack = stack.withFile(d, "")
	parts := strings.Split(rel, "/")
	dirRel := ""
	for _, part := range parts[:len(parts)-1] {
		sub, err := openDirAt(d, part)
		_ = d.Close()
		if err != nil {
			return stack
		}
		d = sub
		if dirRel == "" {
			dirRel = part
		} else {
			dirRel += "/" + part
		}
		stack = stack.withFile(d, dirRel)
	}
	_ = d.Close()
	return stack
}

type walker struct {
	ctx   context.Context
	w     *Workspace
	r     *os.Root
	opts  walkOptions
	visit func(walkFile) error
	stats *walkStats
	// idx knows the workspace's secret files, for hard links; built only
	// when a file with several links is met, and shared by the walkers of
	// one parallel walk.
	idx *secretIndex
	// spawn, if set, may take a subfolder to walk elsewhere (walkpar.go):
	// true means it now owns sub; false, that dir walks it at once.
	spawn func(sub *os.File, rel string, stack ignoreStack) bool
	// pending are the opened files of the folder being walked that were
	// seen with one link, waiting for flush to look at them again.
	pending []pendingFile
	// dirBuf is the buffer folders are read into (dirlist_linux.go).
	dirBuf []byte
	// reads counts the reads of folders (getdents), for tests.
	reads int
}

// dirEntry is one entry of a folder: its name and type (fs.ModeIrregular
// for devices, pipes and sockets).
type dirEntry struct {
	name string
	typ  fs.FileMode
}

// dir walks the open directory d (workspace path rel); stack holds the
// ignore files of its parents.
func (wk *walker) dir(d *os.File, rel string, stack ignoreStack) error {
	if err := wk.ctx.Err(); err != nil {
		return err
	}
	entries, complete, err := wk.list(d)
	if err != nil && len(entries) == 0 {
		// An unreadable directory is left out rather than failing the walk.
		return nil
	}
	sortEntries(entries)
	parents := stack
	stack = wk.withIgnoreOf(d, rel, stack, entries)
	if !complete {
		var more []dirEntry
		if wk.opts.open && countRegular(entries) <= pendingMax {
			// The read that confirms the end is the barrier too.
			if more, err = wk.dirOneRead(d, rel, stack, entries); err != nil || len(more) == 0 {
				return err
			}
		}
		// The folder has more entries than one read gave: list it to the
		// end and walk it as usual.
		for {
			entries = append(entries, more...)
			if more, err = wk.readMore(d); err != nil || len(more) == 0 {
				break
			}
		}
		sortEntries(entries)
		stack = wk.withIgnoreOf(d, rel, parents, entries)
	}
	return wk.dirEntries(d, rel, stack, entries)
}

// sortEntries sorts a folder's entries by name.
func sortEntries(entries []dirEntry) {
	slices.SortFunc(entries, func(a, b dirEntry) int { return strings.Compare(a.name, b.name) })
}

// countRegular counts the regular files among entries.
func countRegular(entries []dirEntry) int {
	n := 0
	for _, e := range entries {
		if e.typ.IsRegular() {
			n++
		}
	}
	return n
}

// withIgnoreOf returns stack with the .gitignore of the folder d (workspace
// path rel, listed as the sorted entries), if it has one.
func (wk *walker) withIgnoreOf(d *os.File, rel string, stack ignoreStack, entries []dirEntry) ignoreStack {
	if rel == "" {
		return stack.withFile(d, "")
	}
	// Only try to read a .gitignore that is there: a failed open per
	// directory is measurable over a large tree.
	if _, found := slices.BinarySearchFunc(entries, ".gitignore", func(e dirEntry, name string) int {
		return strings.Compare(e.name, name)
	}); found {
		return stack.withFile(d, rel)
	}
	return stack
}

// dirOneRead walks the folder d, listed by one read that did not confirm
// its end, opening its files (at most pendingMax) and then reading on: that
// read, which would only have said "no more", is the barrier of every file
// opened (see linksettle.go), so the folder costs one read less. If it
// brings more entries instead, everything opened is closed unvisited and
// they are returned, for the caller to walk the whole folder as usual.
func (wk *walker) dirOneRead(d *os.File, rel string, stack ignoreStack, entries []dirEntry) ([]dirEntry, error) {
	secret := wk.stats.secret
	var later []dirEntry // folders and symlinks, walked after the files
	for _, e := range entries {
		if inGitDir(e.name) {
			continue
		}
		childRel := joinRel(rel, e.name)
		switch {
		case e.typ.IsDir():
			if !stack.ignored(childRel, true) {
				later = append(later, e)
			}
		case e.typ.IsRegular():
			if stack.ignored(childRel, false) || !wk.wanted(childRel) {
				continue
			}
			if p, ok := openPending(d, e.name, childRel); ok {
				wk.pending = append(wk.pending, p)
			}
		case e.typ&fs.ModeSymlink != 0:
			if !stack.ignored(childRel, false) {
				later = append(later, e)
			}
		}
	}
	more, err := wk.readMore(d)
	if err != nil || len(more) > 0 {
		wk.dropPending()
		wk.stats.secret = secret
		return more, removedIsGone(err)
	}
	if err := wk.settle(d); err != nil {
		return nil, err
	}
	for _, e := range later {
		childRel := joinRel(rel, e.name)
		if !e.typ.IsDir() {
			if err := wk.symlink(childRel); err != nil {
				return nil, err
			}
			continue
		}
		if err := wk.subdir(d, e.name, childRel, stack); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// joinRel is the workspace path of name in the folder rel.
func joinRel(rel, name string) string {
	if rel == "" {
		return name
	}
	return rel + "/" + name
}

// openPending opens the regular file name of the folder d, without
// following a symlink or blocking, for the folder's barrier; ok is false
// when it is gone or no longer a regular file.
func openPending(d *os.File, name, rel string) (p pendingFile, ok bool) {
	p = pendingFile{name: name, rel: rel, fd: -1}
	var serr error
	if err := dirControl(d, func(dirfd int) {
		if p.fd, serr = openatRetry(dirfd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC); serr == nil {
			serr = unix.Fstat(p.fd, &p.st)
		}
	}); err != nil && serr == nil {
		serr = err
	}
	if serr != nil || p.st.Mode&unix.S_IFMT != unix.S_IFREG {
		if p.fd >= 0 {
			_ = unix.Close(p.fd)
		}
		return p, false
	}
	p.several = p.st.Nlink > 1
	return p, true
}

// subdir walks the folder name of d (workspace path rel), or hands it to
// another walker.
func (wk *walker) subdir(d *os.File, name, rel string, stack ignoreStack) error {
	sub, err := openDirAt(d, name)
	if err != nil {
		return nil // gone, unreadable, or swapped for a symlink
	}
	if wk.spawn != nil && wk.spawn(sub, rel, stack) {
		return nil
	}
	err = wk.dir(sub, rel, stack)
	_ = sub.Close()
	return err
}

// dirEntries walks the sorted entries of the folder d.
func (wk *walker) dirEntries(d *os.File, rel string, stack ignoreStack, entries []dirEntry) error {
	for _, e := range entries {
		name := e.name
		if inGitDir(name) {
			continue
		}
		childRel := joinRel(rel, name)
		switch typ := e.typ; {
		case typ.IsDir():
			if stack.ignored(childRel, true) {
				continue
			}
			if err := wk.flush(d); err != nil {
				return err
			}
			if err := wk.subdir(d, name, childRel, stack); err != nil {
				return err
			}
		case typ.IsRegular():
			if stack.ignored(childRel, false) {
				continue
			}
			if err := wk.regular(d, name, childRel); err != nil {
				return err
			}
		case typ&fs.ModeSymlink != 0:
			if stack.ignored(childRel, false) {
				continue
			}
			if err := wk.symlink(childRel); err != nil {
				return err
			}
		}
		// Devices, pipes and sockets are skipped: reading a pipe could block.
	}
	return wk.flush(d)
}

// wanted applies the caller's filter and the secret names to a file found
// by the walk; a secret is counted.
func (wk *walker) wanted(rel string) bool {
	if wk.opts.keep != nil && !wk.opts.keep(rel) {
		return false
	}
	if wk.w.IsSecret(rel) {
		wk.stats.secret++
		return false
	}
	return true
}

// regular visits the regular file name of the open directory d, opened (or
// looked at) relative to d without following a symlink.
func (wk *walker) regular(d *os.File, name, rel string) error {
	if !wk.wanted(rel) {
		return nil
	}
	var (
		st   unix.Stat_t
		fd   = -1
		serr error
	)
	if err := dirControl(d, func(dirfd int) {
		if !wk.opts.open {
			serr = unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
			return
		}
		// No second look by name here: a file seen with one link waits
		// for flush, which looks again after the folder's barrier (and
		// drops it if the name is no longer its); one seen with several
		// is judged by its identity, whatever its name.
		if fd, serr = openatRetry(dirfd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC); serr == nil {
			if serr = unix.Fstat(fd, &st); serr != nil {
				_ = unix.Close(fd)
				fd = -1
			}
		}
	}); err != nil {
		return err
	}
	if serr != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		// Gone, or swapped for a symlink or a special file since the listing.
		if fd >= 0 {
			_ = unix.Close(fd)
		}
		return nil
	}
	if fd >= 0 && st.Nlink < 2 {
		// Seen with one link twice, maybe in the middle of a rename over
		// the name (linksettle.go): looked at again, with the others of
		// its folder, once that is done.
		wk.pending = append(wk.pending, pendingFile{name: name, rel: rel, fd: fd, st: st})
		if len(wk.pending) >= pendingMax {
			return wk.flush(d)
		}
		return nil
	}
	return wk.show(rel, fd, &st)
}

// show visits the regular file rel, open as fd (-1: not opened), unless it
// has several links and is a secret file under another name.
func (wk *walker) show(rel string, fd int, st *unix.Stat_t) error {
	if st.Nlink > 1 {
		id := fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)} //nolint:unconvert // the field types differ between systems
		if secret, complete := wk.idx.lookup(wk.w, id); secret != "" || !complete {
			wk.stats.secret++
			if fd >= 0 {
				_ = unix.Close(fd)
			}
			return nil
		}
	}
	return wk.visit(walkFile{rel: rel, fd: fd, size: st.Size})
}

// symlink visits the file a symlink found during the walk leads to, when it
// is a regular file inside the workspace that may be shown; links to
// directories, to special files, dangling links and links out of the
// workspace are left out. The link is opened through the root, so it
// cannot lead out whatever is swapped, and the file actually opened is
// checked (.git, secret names, hard links to secrets).
func (wk *walker) symlink(rel string) error {
	// Resolving a link costs a system call a step of its path, and a link
	// is visited only when it leads to a file: without this, a folder of
	// links would keep a cancelled walk going without ever asking.
	if err := wk.ctx.Err(); err != nil {
		return err
	}
	if !wk.wanted(rel) {
		return nil
	}
	// The link is resolved first and the file it names then opened with
	// no link followed, so the name judged is the file's on every system,
	// not only where /proc tells what was opened.
	_, target, err := wk.w.Resolve(rel)
	if err != nil {
		return nil // dangling, or leading out of the workspace
	}
	f, err := openExact(wk.r, target, unix.O_NONBLOCK)
	if err != nil {
		return nil
	}
	defer func() { _ = f.Close() }()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return nil
	}
	real, known, err := wk.w.fdRel(f)
	if err != nil {
		return nil
	}
	if !known {
		real = target
	}
	if err := wk.w.checkShown(real, f, info, wk.idx); err != nil {
		var refused *shownError
		if errors.As(err, &refused) && !inGitDir(real) {
			wk.stats.secret++
		}
		return nil
	}
	fd := -1
	if wk.opts.open {
		if fd, err = dupFile(f); err != nil {
			return nil
		}
	}
	return wk.visit(walkFile{rel: rel, fd: fd, size: -1})
}

// openDirAt opens the directory name inside the open directory d, without
// following a symlink.
func openDirAt(d *os.File, name string) (*os.File, error) {
	var (
		fd   int
		oerr error
	)
	if err := dirControl(d, func(dirfd int) {
		fd, oerr = openatRetry(dirfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC)
	}); err != nil {
		return nil, err
	}
	if oerr != nil {
		return nil, oerr
	}
	return os.NewFile(uintptr(fd), name), nil
}

// dirControl runs fn with d's descriptor.
func dirControl(d *os.File, fn func(dirfd int)) error {
	sc, err := d.SyscallConn()
	if err != nil {
		return err
	}
	return sc.Control(func(fd uintptr) { fn(int(fd)) })
}

// openatRetry opens name relative to dirfd, retrying when a signal
// interrupts it.
func openatRetry(dirfd int, name string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, name, flags, 0)
		if !errors.Is(err, unix.EINTR) {
			return fd, err
		}
	}
}

// insideRoot reports whether the real path p lies in root.
func insideRoot(root, p string) bool {
	if p == root {
		return true
	}
	if root == string(filepath.Separator) {
		return strings.HasPrefix(p, root)
	}
	return strings.HasPrefix(p, root+string(filepath.Separator))
}
