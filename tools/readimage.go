package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/ternhq/tern/tools/imaging"
)

// maxImageRead bounds an image file read before it is scaled.
const maxImageRead = 64 << 20

// ReadImage reads a picture in the workspace and prepares it for a model
// (imaging.Prepare): the binary read of @-mentioned and pasted images, with
// read_file's guards, the workspace, the secret-file filter, .git and the
// opened file's own checks, so a picture cannot carry a file out that
// read_file would refuse.
func (w *Workspace) ReadImage(ctx context.Context, path string) (imaging.Image, error) {
	_, rel, err := w.Resolve(path)
	if err != nil {
		return imaging.Image{}, err
	}
	if w.IsSecret(rel) || w.IsSecret(path) {
		return imaging.Image{}, errors.New(secretRefusal(w, rel))
	}
	if inGitDir(rel) {
		return imaging.Image{}, errors.New(gitRefusal(rel))
	}
	o, err := w.openRead(rel)
	var refused *shownError
	switch {
	case errors.As(err, &refused):
		return imaging.Image{}, errors.New(refused.msg)
	case errors.Is(err, fs.ErrNotExist):
		return imaging.Image{}, fmt.Errorf("%s does not exist", displayPath(rel))
	case err != nil:
		return imaging.Image{}, fmt.Errorf("read %s: %w", displayPath(rel), err)
	}
	defer func() { _ = o.f.Close() }()
	switch {
	case !o.info.Mode().IsRegular():
		return imaging.Image{}, fmt.Errorf("%s is not a regular file", displayPath(o.rel))
	case o.info.Size() > maxImageRead:
		return imaging.Image{}, fmt.Errorf("%s is %s, larger than the %s an image may be", displayPath(o.rel),
			formatSize(int(o.info.Size())), formatSize(maxImageRead))
	}
	// The file itself, never an editor's buffer (ACP), which holds text.
	data, err := io.ReadAll(io.LimitReader(ctxReader{ctx: ctx, r: o.f}, maxImageRead))
	if err != nil {
		return imaging.Image{}, fmt.Errorf("read %s: %w", displayPath(o.rel), err)
	}
	return w.prepareImage(o.rel, data)
}
