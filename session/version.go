package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ternhq/tern/tools"
)

// versionKind says where a version of a file is kept; the set is closed.
type versionKind int

// The kinds of versions.
const (
	// versionUnknown is a state the log does not know (an older log, or a
	// change tern could not save).
	versionUnknown versionKind = iota + 1
	// versionAbsent means the file did not exist.
	versionAbsent
	// versionStored is content in the session's Store; id is its hash.
	versionStored
	// versionGit is a blob in the workspace's shadow repository; id is its
	// object id and mode its git file mode.
	versionGit
)

// fileVersion is one state of a file: absent, or content kept somewhere.
type fileVersion struct {
	kind versionKind
	// id is the Store hash or the git object id.
	id string
	// mode is the git file mode of a versionGit ("100644", "100755",
	// "120000" for a symlink).
	mode string
}

// versionOfHash reads a checkpoint hash: "" is unknown, Absent is absent,
// anything else a blob in the Store.
func versionOfHash(h string) fileVersion {
	switch h {
	case "":
		return fileVersion{kind: versionUnknown}
	case Absent:
		return fileVersion{kind: versionAbsent}
	}
	return fileVersion{kind: versionStored, id: h}
}

// versionOfGit turns a snapshot's file into a Version.
func versionOfGit(f GitFile) fileVersion {
	if f.Absent() {
		return fileVersion{kind: versionAbsent}
	}
	return fileVersion{kind: versionGit, id: f.Blob, mode: f.Mode}
}

// onDisk is a workspace path as it is now.
type onDisk struct {
	exists, isDir, isLink bool
	// content is the file's bytes, or a symlink's target.
	content []byte
	perm    fs.FileMode
}

// readDiskAt reads the workspace path rel (slash-separated, checked by
// workspacePath) of the workspace at root, through an *os.Root of it.
func readDiskAt(root, rel string) (onDisk, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return onDisk{}, err
	}
	defer func() { _ = r.Close() }()
	return readDisk(r, filepath.FromSlash(rel))
}

// readDisk reads the path name of the workspace r without following a final
// symlink; links on the way are followed only inside the workspace.
func readDisk(r *os.Root, name string) (onDisk, error) {
	fi, err := r.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return onDisk{}, nil
	}
	if err != nil {
		return onDisk{}, err
	}
	d := onDisk{exists: true, perm: fi.Mode().Perm()}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := r.Readlink(name)
		if err != nil {
			return onDisk{}, err
		}
		d.isLink, d.content = true, []byte(target)
	case fi.IsDir():
		d.isDir = true
	case fi.Mode().IsRegular():
		b, err := tools.ReadRegularIn(r, filepath.ToSlash(name))
		if err != nil {
			return onDisk{}, err
		}
		d.content = b
	default:
		return onDisk{}, fmt.Errorf("%s is not a regular file", name)
	}
	return d, nil
}

// matches reports whether the path on disk is in state v. An unknown
// version matches nothing.
func (d onDisk) matches(v fileVersion) bool {
	switch v.kind {
	case versionUnknown:
		return false
	case versionAbsent:
		return !d.exists
	case versionStored:
		if !d.exists || d.isDir || d.isLink {
			return false
		}
		sum := sha256.Sum256(d.content)
		return hex.EncodeToString(sum[:]) == v.id
	case versionGit:
		if !d.exists || d.isDir || d.isLink != (v.mode == gitModeLink) {
			return false
		}
		if !d.isLink && (v.mode == gitModeExec) != (d.perm&0o100 != 0) {
			return false
		}
		return gitBlobID(d.content, v.id) == v.id
	}
	return false
}

// The git file modes tern restores.
const (
	gitModeFile = "100644"
	gitModeExec = "100755"
	gitModeLink = "120000"
	// gitModeRepo is a nested repository (a submodule); it is never restored.
	gitModeRepo = "160000"
)

// readVersion returns the content a version holds.
func readVersion(ctx context.Context, v fileVersion, store *Store, shadow *Shadow) ([]byte, error) {
	switch v.kind {
	case versionStored:
		if store == nil {
			return nil, errors.New("no checkpoint store")
		}
		return store.Load(v.id)
	case versionGit:
		if shadow == nil {
			return nil, errors.New("this content is in the workspace's shadow git repository, which is not available (is git installed?)")
		}
		return shadow.Blob(ctx, v.id)
	case versionAbsent:
		return nil, nil
	case versionUnknown:
	}
	return nil, errors.New("the log does not know this version of the file")
}

// workspacePath joins a slash-separated workspace-relative path to root,
// refusing anything that would leave the workspace or enter .git.
func workspacePath(root, rel string) (string, error) {
	if rel == "" || strings.HasPrefix(rel, "/") || filepath.IsAbs(rel) {
		return "", fmt.Errorf("%q is not a workspace-relative path", rel)
	}
	for _, part := range strings.Split(rel, "/") {
		if part == ".." || part == "." || part == "" || strings.EqualFold(part, ".git") {
			return "", fmt.Errorf("%q is not a plain path inside the workspace", rel)
		}
	}
	return filepath.Join(root, filepath.FromSlash(rel)), nil
}

// restoreFile puts the workspace path rel into state v and reports whether
// it changed anything. A file is replaced atomically; an absent version
// removes the file and the folders its removal left empty. Everything goes
// through an *os.Root of the workspace, so no link swapped in meanwhile can
// make it read, write or remove anything outside.
func restoreFile(ctx context.Context, root, rel string, v fileVersion, store *Store, shadow *Shadow) (bool, error) {
	if _, err := workspacePath(root, rel); err != nil {
		return false, err
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return false, fmt.Errorf("restore %s: %w", rel, err)
	}
	defer func() { _ = r.Close() }()
	name := filepath.FromSlash(rel)
	d, err := readDisk(r, name)
	if err != nil {
		return false, fmt.Errorf("restore %s: %w", rel, err)
	}
	if d.matches(v) {
		return false, nil
	}
	if v.kind == versionGit && v.mode == gitModeRepo {
		return false, fmt.Errorf("restore %s: it is a nested git repository, which tern does not restore", rel)
	}
	if d.isDir {
		return false, fmt.Errorf("restore %s: a folder is there now; move it away and rewind again", rel)
	}
	if v.kind == versionAbsent {
		if err := removeExact(r, rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return false, fmt.Errorf("remove %s: %w", rel, err)
		}
		pruneEmptyDirs(r, filepath.Dir(name))
		return true, nil
	}
	content, err := readVersion(ctx, v, store, shadow)
	if err != nil {
		return false, fmt.Errorf("restore %s: %w", rel, err)
	}
	if err := r.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return false, fmt.Errorf("restore %s: %w", rel, err)
	}
	if v.kind == versionGit && v.mode == gitModeLink {
		if err := symlinkExact(r, rel, string(content), d.exists); err != nil {
			return false, fmt.Errorf("restore %s: %w", rel, err)
		}
		return true, nil
	}
	perm := fs.FileMode(0o644)
	switch {
	case v.kind == versionGit && v.mode == gitModeExec:
		perm = 0o755
	case v.kind == versionGit:
	case d.exists && !d.isLink:
		perm = d.perm // a checkpoint keeps the content; the file keeps its mode
	}
	if err := writeExact(r, rel, content, perm); err != nil {
		return false, fmt.Errorf("restore %s: %w", rel, err)
	}
	return true, nil
}

// pruneEmptyDirs removes the folder dir of the workspace r and its parents
// while they are empty, up to (not including) the workspace: the folders
// write_file created for a file a rewind removed.
func pruneEmptyDirs(r *os.Root, dir string) {
	for dir != "." && dir != "" && !filepath.IsAbs(dir) {
		if err := r.Remove(dir); err != nil { // fails on a folder that is not empty
			return
		}
		dir = filepath.Dir(dir)
	}
}
