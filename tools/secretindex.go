package tools

import (
	"fmt"
	"io/fs"
	"sync"
	"syscall"
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

// scanSecrets walks the whole workspace through its root (ignored files
// included, .git and symlinked folders left out) and returns the identity
// of every file whose name makes it a secret.
func (w *Workspace) scanSecrets() (map[fileID]string, bool) {
	r, done, err := w.fsRoot()
	if err != nil {
		return nil, false
	}
	defer done()
	byID := make(map[fileID]string)
	complete, n := true, 0
	_ = fs.WalkDir(r.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable folder is left out
		}
		if n++; n > secretScanMax {
			complete = false
			return fs.SkipAll
		}
		if d.IsDir() {
			if inGitDir(d.Name()) {
				return fs.SkipDir
			}
			return nil
		}
		if !w.IsSecret(p) {
			return nil
		}
		if info, err := r.Stat(p); err == nil {
			if id, _, ok := fileIDOf(info); ok {
				byID[id] = p
			}
		}
		return nil
	})
	return byID, complete
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
