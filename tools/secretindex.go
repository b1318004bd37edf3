package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// secretScanMax bounds the entries a scan for secret files visits; past it
// the scan is incomplete and a hard-linked file is refused rather than
// shown unchecked.
const secretScanMax = 200_000

// fileID identifies a file on a system: device and inode.
type fileID struct{ dev, ino uint64 }

// fileIDOf returns a file's identity and its number of hard links.
func fileIDOf(info fs.FileInfo) (id fileID, links uint64, ok bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, 0, false
	}
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, uint64(st.Nlink), true //nolint:unconvert // the field types differ between systems
}

// secretIndex knows the identities of the workspace's secret files, so a
// hard link to one of them under an innocent name is recognised. It is
// built on first use, at most once per tool call, and only ever for files
// with more than one link, which are rare.
type secretIndex struct {
	once     sync.Once
	byID     map[fileID]string
	complete bool
}

// lookup returns the secret file (slash path) that id is, "" if none, and
// whether every secret file of the workspace could be checked.
func (x *secretIndex) lookup(w *Workspace, id fileID) (secret string, complete bool) {
	x.once.Do(func() { x.byID, x.complete = w.scanSecrets() })
	return x.byID[id], x.complete
}

// secretScanTries bounds how many times scanSecrets walks the workspace
// again when a folder changed while it was being read; past it the scan is
// incomplete.
const secretScanTries = 3

// secretScanSettle (a variable for tests) is how long before a scan a folder must have last
// changed for its listing to be trusted, and how long scanSecrets waits
// before trying again. A folder's change time is only as fine as the
// kernel's clock tick (several milliseconds on many systems): a change
// during the listing can leave it as it was when the folder had already
// changed in that same tick, so a folder changed that recently is taken as
// changing.
var secretScanSettle = 50 * time.Millisecond

// secretScanRead, when set (by tests), is called after the scan has read
// the folder rel, before it goes into its subfolders.
var secretScanRead func(rel string)

// scanSecrets walks the whole workspace through its root (ignored files
// included, .git and symlinked folders left out) and returns the identity
// of every file whose name makes it a secret, and whether the scan is
// complete: every folder read without error and none changing while the
// scan ran. A listing read while its folder changes may leave out entries
// that did not change at all (it is not a snapshot; on some file systems a
// rename beside .env is enough), and a folder moved during the scan can be
// missed whole; so a scan that saw a folder change is tried again, a
// little later, and after secretScanTries is incomplete, which makes a
// hard-linked file refused rather than shown unchecked.
func (w *Workspace) scanSecrets() (map[fileID]string, bool) {
	r, done, err := w.fsRoot()
	if err != nil {
		return nil, false
	}
	defer done()
	for try := 0; ; try++ {
		byID, state := scanSecretsOnce(w, r)
		switch {
		case state == scanDone:
			return byID, true
		case state == scanPartial, try+1 >= secretScanTries:
			return byID, false
		}
		time.Sleep(secretScanSettle)
	}
}

// dirStamp is what a folder was when scanSecretsOnce read it.
type dirStamp struct {
	rel string
	st  unix.Stat_t
}

// sameDirState reports whether two stats of a folder show the same folder with
// no entry added, removed or renamed between them.
func sameDirState(a, b *unix.Stat_t) bool {
	return a.Dev == b.Dev && a.Ino == b.Ino && a.Ctim == b.Ctim && a.Mtim == b.Mtim && a.Nlink == b.Nlink
}

// scanState is how a walk of scanSecrets went.
type scanState int

const (
	// scanDone: every folder read, none changing.
	scanDone scanState = iota
	// scanChanged: a folder changed during the walk or just before it, or
	// a file or folder moved: worth another walk.
	scanChanged
	// scanPartial: an error or the size left part of the workspace out.
	scanPartial
)

// movedState is the state of a walk that met err: scanChanged when err
// tells of a file or folder removed, renamed or swapped for a link since
// its folder was read, scanPartial for one that cannot be read.
func movedState(err error) scanState {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, errSwapped) || errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.ELOOP) {
		return scanChanged
	}
	return scanPartial
}

// scanSecretsOnce is one walk of scanSecrets.
func scanSecretsOnce(w *Workspace, r *os.Root) (map[fileID]string, scanState) {
	sc := &secretScan{w: w, r: r, byID: make(map[fileID]string), begin: time.Now().Add(-secretScanSettle)}
	d, err := r.Open(".")
	if err != nil {
		return sc.byID, scanPartial
	}
	sc.dir(d, "")
	_ = d.Close()
	if sc.state != scanDone {
		return sc.byID, sc.state
	}
	// A folder moved from a part not yet read to one already read is in
	// no listing: every folder must still be as it was when it was read.
	// (A folder on the way swapped for a link changes its parent.)
	for _, ds := range sc.dirs {
		var now unix.Stat_t
		if err := unix.Lstat(filepath.Join(w.Root, rootName(ds.rel)), &now); err != nil || !sameDirState(&ds.st, &now) {
			return sc.byID, scanChanged
		}
	}
	return sc.byID, scanDone
}

// secretScan is one walk of scanSecrets under way.
type secretScan struct {
	w     *Workspace
	r     *os.Root
	byID  map[fileID]string
	begin time.Time
	dirs  []dirStamp
	n     int
	state scanState
}

// dir reads the open folder d (workspace path rel) and the folders in it,
// opened relative to it without following a link.
func (sc *secretScan) dir(d *os.File, rel string) {
	var before, after unix.Stat_t
	var serr error
	_ = dirControl(d, func(fd int) { serr = unix.Fstat(fd, &before) })
	if serr != nil {
		sc.state = scanPartial
		return
	}
	entries, err := d.ReadDir(-1)
	if err != nil {
		sc.state = scanPartial
		return
	}
	if _ = dirControl(d, func(fd int) { serr = unix.Fstat(fd, &after) }); serr != nil {
		sc.state = scanPartial
		return
	}
	if !sameDirState(&before, &after) || !time.Unix(after.Ctim.Unix()).Before(sc.begin) || !time.Unix(after.Mtim.Unix()).Before(sc.begin) {
		// Changed while read, or so recently that a change during the
		// read may not show in its times.
		sc.state = scanChanged
		return
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	sc.dirs = append(sc.dirs, dirStamp{rel: rel, st: after})
	if secretScanRead != nil {
		secretScanRead(rel)
	}
	for _, e := range entries {
		if sc.n++; sc.n > secretScanMax {
			sc.state = scanPartial
			return
		}
		p := e.Name()
		if rel != "" {
			p = rel + "/" + p
		}
		if e.IsDir() {
			if inGitDir(e.Name()) {
				sc.gitFiles(d, e.Name(), p)
				continue
			}
			sub, err := openDirAt(d, e.Name())
			if err != nil {
				// Gone, moved or swapped for a link since d was read, and
				// what it held may now be where the scan already went:
				// try again. Unreadable: the scan cannot be complete.
				sc.state = movedState(err)
				return
			}
			sc.dir(sub, p)
			_ = sub.Close()
			if sc.state != scanDone {
				return
			}
			continue
		}
		if !sc.w.IsSecret(p) {
			continue
		}
		info, err := sc.r.Stat(rootName(p))
		if err != nil {
			if e.Type()&fs.ModeSymlink != 0 {
				continue // a link named like a secret that leads nowhere inside
			}
			sc.state = movedState(err)
			return
		}
		if id, _, ok := fileIDOf(info); ok {
			sc.byID[id] = p
		}
	}
}

// gitFiles records the files directly in the .git folder name of d
// (workspace path rel): config can hold credentials, and a hard link to it
// under an innocent name must be known as .git's, as a secret's is. The
// folder is not walked further (objects are the repository's own content)
// nor required to stay unchanged (git rewrites these files by rename,
// which makes new files with one link).
func (sc *secretScan) gitFiles(d *os.File, name, rel string) {
	g, err := openDirAt(d, name)
	if err != nil {
		return
	}
	defer func() { _ = g.Close() }()
	entries, err := g.ReadDir(-1)
	if err != nil {
		sc.state = scanPartial
		return
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		if sc.n++; sc.n > secretScanMax {
			sc.state = scanPartial
			return
		}
		var st unix.Stat_t
		var serr error
		if err := dirControl(g, func(fd int) { serr = unix.Fstatat(fd, e.Name(), &st, unix.AT_SYMLINK_NOFOLLOW) }); err != nil || serr != nil {
			continue // gone since the listing
		}
		sc.byID[fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}] = rel + "/" + e.Name() //nolint:unconvert // the field types differ between systems
	}
}

// linksByName returns the number of links of the file the workspace path
// rel names now, which must be the file id a tool opened by that name; a
// name that leads to another file since is refused as swapped.
func (w *Workspace) linksByName(rel string, id fileID) (uint64, error) {
	r, done, err := w.fsRoot()
	if err != nil {
		return 0, err
	}
	defer done()
	fi, err := r.Lstat(rootName(rel))
	if err != nil {
		return 0, fmt.Errorf("%s %w", displayPath(rel), errSwapped)
	}
	now, links, ok := fileIDOf(fi)
	if !ok || now != id {
		return 0, fmt.Errorf("%s %w", displayPath(rel), errSwapped)
	}
	return links, nil
}
