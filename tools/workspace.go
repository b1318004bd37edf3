package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/ternhq/tern/tools/imaging"
)

// DefaultOutputCap is the default size limit of one tool result, in bytes.
const DefaultOutputCap = 16 << 10

// Workspace is the directory tern works in. The file tools open every file
// through its *os.Root, which cannot leave it (see root.go); Resolve names
// paths for previews and first-pass checks.
type Workspace struct {
	// Root is the workspace's real absolute path (symlinks resolved).
	Root string
	// OutputCap limits each tool result, in bytes.
	OutputCap int
	// Secrets are base-name glob patterns of files the read tools refuse.
	Secrets []string
	// SecretFiles are absolute paths of files the read tools refuse
	// whatever their name: tern's own config.toml, which may hold the key.
	SecretFiles []string
	// Files remembers what the model has read and written this session.
	Files *FileState

	// BeforeWrite, when set, is called by edit_file and write_file just
	// before they change the file at abs (workspace-relative rel), while it
	// still holds its previous content or does not exist yet, so a session
	// can checkpoint it. An error stops the change: the tool fails with it.
	BeforeWrite func(abs, rel string) error
	// AfterWrite, when set, is called once such a change succeeded, with the
	// content the file now holds.
	AfterWrite func(abs, rel string, content []byte)
	// BeforeCommand, when set, is called by run_shell just before it starts
	// command, so a session can snapshot the files the command may change.
	// The function it returns (nil allowed) is called once the command and
	// every process it started are gone, also when it was cancelled or
	// timed out.
	BeforeCommand func(ctx context.Context, command string) (after func())
	// Editor, when set, is the editor whose buffers the file tools read and
	// write instead of the disk (see EditorFiles).
	Editor EditorFiles
	// Diagnoser, when set, hears of the files the tools read and change and
	// reports what the language servers say about them (tools/lsp); the
	// edit tools append its diagnostics to their results.
	Diagnoser Diagnoser

	// fsys is Root opened as an *os.Root, through which the file tools open
	// everything; nil for a Workspace not made by NewWorkspace (then each
	// operation opens its own).
	fsys *os.Root
	// decoding lets one picture at a time be decoded and scaled: each may
	// take up to a few hundred MB, and reads run in parallel.
	decoding sync.Mutex
}

// prepareImage is imaging.Prepare, one picture at a time.
func (w *Workspace) prepareImage(name string, data []byte) (imaging.Image, error) {
	w.decoding.Lock()
	defer w.decoding.Unlock()
	return imaging.Prepare(name, data)
}

// beforeWrite runs the BeforeWrite hook, if any.
func (w *Workspace) beforeWrite(abs, rel string) error {
	if w.BeforeWrite == nil {
		return nil
	}
	return w.BeforeWrite(abs, rel)
}

// afterWrite runs the AfterWrite hook, if any.
func (w *Workspace) afterWrite(abs, rel string, content []byte) {
	if w.AfterWrite != nil {
		w.AfterWrite(abs, rel, content)
	}
}

// beforeCommand runs the BeforeCommand hook, if any, and returns what to
// call when the command is over (never nil).
func (w *Workspace) beforeCommand(ctx context.Context, command string) func() {
	if w.BeforeCommand == nil {
		return func() {}
	}
	if after := w.BeforeCommand(ctx, command); after != nil {
		return after
	}
	return func() {}
}

// NewWorkspace returns a workspace rooted at dir with default settings.
func NewWorkspace(dir string) (*Workspace, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	fsys, err := os.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	return &Workspace{
		fsys:      fsys,
		Root:      real,
		OutputCap: DefaultOutputCap,
		Secrets:   append([]string(nil), DefaultSecretPatterns...),
		Files:     NewFileState(),
	}, nil
}

// ErrOutsideWorkspace is returned (wrapped) for paths that resolve outside the root.
var ErrOutsideWorkspace = errors.New("outside the workspace")

// Resolve turns a path the model gave (relative to the root, or absolute) into
// its real absolute path and its slash-separated path relative to the root.
// Symlinks are followed; for a path that does not exist yet, the deepest
// existing parent is resolved. Paths whose real location is outside the root
// are refused.
func (w *Workspace) Resolve(p string) (abs, rel string, err error) {
	if strings.ContainsRune(p, 0) {
		return "", "", fmt.Errorf("path %q contains a NUL byte", p)
	}
	if p == "" {
		p = "."
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(w.Root, p)
	}
	p = filepath.Clean(p)
	real, err := realPath(p)
	if err != nil {
		return "", "", fmt.Errorf("resolve %s: %w", p, err)
	}
	r, err := filepath.Rel(w.Root, real)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
		return "", "", fmt.Errorf("%s is %w (%s): tools may only touch files under the workspace root", p, ErrOutsideWorkspace, w.Root)
	}
	return real, filepath.ToSlash(r), nil
}

// maxDanglingLinks bounds how many dangling symlinks realPath follows in a
// chain before giving up.
const maxDanglingLinks = 40

// realPath resolves symlinks in p; when p does not exist it resolves the
// deepest existing parent and appends the rest.
func realPath(p string) (string, error) { return realPathDepth(p, 0) }

func realPathDepth(p string, depth int) (string, error) {
	if depth > maxDanglingLinks {
		return "", fmt.Errorf("too many levels of symbolic links at %s", p)
	}
	real, err := filepath.EvalSymlinks(p)
	if err == nil {
		return real, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		// A dangling symlink or a loop: resolve what the link points at.
		if fi, lerr := os.Lstat(p); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			target, rerr := os.Readlink(p)
			if rerr != nil {
				return "", rerr
			}
			if !filepath.IsAbs(target) {
				target = filepath.Join(filepath.Dir(p), target)
			}
			return "", fmt.Errorf("symlink to %s cannot be resolved: %w", target, err)
		}
		return "", err
	}
	if fi, lerr := os.Lstat(p); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
		// A dangling symlink: writing through it would create its target, so
		// the target is what must be inside the workspace.
		target, rerr := os.Readlink(p)
		if rerr != nil {
			return "", rerr
		}
		if !filepath.IsAbs(target) {
			// A relative target is relative to the directory really holding
			// the link, which differs from filepath.Dir(p) when a parent is
			// itself a symlink ("../x" must not be resolved lexically).
			dir, derr := realPathDepth(filepath.Dir(p), depth+1)
			if derr != nil {
				return "", derr
			}
			target = filepath.Join(dir, target)
		}
		return realPathDepth(filepath.Clean(target), depth+1)
	}
	parent := filepath.Dir(p)
	if parent == p {
		return p, nil
	}
	rp, err := realPathDepth(parent, depth)
	if err != nil {
		return "", err
	}
	return filepath.Join(rp, filepath.Base(p)), nil
}

// CheckWritable refuses writes the file tools must never make, such as
// anything inside .git/.
func (w *Workspace) CheckWritable(rel string) error {
	// Any letter case: on a case-insensitive file system .GIT is .git.
	for _, part := range strings.Split(rel, "/") {
		if strings.EqualFold(part, ".git") {
			return fmt.Errorf("%s is inside .git/: file tools never write there; use git commands through run_shell instead", rel)
		}
	}
	return nil
}
