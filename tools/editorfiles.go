package tools

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"path"
	"strings"
)

// EditorFiles is an editor's view of the workspace's files: its buffers,
// which may hold unsaved changes. When Workspace.Editor is set, read_file,
// edit_file and write_file read a file's content from it and write the new
// content through it, so the model sees what the user sees and its edits
// appear in the editor. Every check the disk path makes still comes first
// (the workspace guard, the secret filter, the .git refusal, protected
// files, the file being a regular file inside the workspace), and the
// checkpoints (BeforeWrite, AfterWrite) run as for the disk.
type EditorFiles interface {
	// ReadText returns the editor's content of the file at abs. An error
	// makes the tool read the disk instead.
	ReadText(ctx context.Context, abs string) (string, error)
	// WriteText replaces the content of the file at abs (creating it when
	// its folder exists). ErrNotDelegated makes the tool write the disk;
	// any other error fails it.
	WriteText(ctx context.Context, abs, content string) error
}

// ErrNotDelegated is what an EditorFiles returns for what it leaves to the
// disk (an editor that reads buffers but does not write them).
var ErrNotDelegated = errors.New("not delegated to the editor")

// readContent reads a file already opened and checked (f, of size bytes on
// disk): from the editor when there is one, else from f.
func (w *Workspace) readContent(ctx context.Context, abs string, f io.Reader, size int64) ([]byte, error) {
	if w.Editor != nil {
		if s, err := w.Editor.ReadText(ctx, abs); err == nil {
			return []byte(s), nil
		}
	}
	return readAllSized(f, size)
}

// writeContent replaces the file rel (abs) with data: through the editor
// when there is one and the file's folder exists, else on disk. mkdirs
// creates missing folders, on disk.
func (w *Workspace) writeContent(ctx context.Context, abs, rel string, data []byte, perm fs.FileMode, mkdirs bool) error {
	if w.Editor == nil {
		return w.replaceFile(rel, data, perm, mkdirs)
	}
	if mkdirs {
		dir := strings.TrimSuffix(path.Dir(rel), "/")
		if fi, err := w.statInside(dir); err != nil || !fi.IsDir() {
			return w.replaceFile(rel, data, perm, mkdirs)
		}
	}
	return w.replaceFileWith(rel, false, func(dirfd int, base string) error {
		err := w.Editor.WriteText(ctx, abs, string(data))
		if errors.Is(err, ErrNotDelegated) {
			return writeRename(dirfd, base, data, perm)
		}
		return err
	})
}
