package tools

import (
	"context"
	"errors"
)

// errEnoughFiles stops a walk once the caller's limit is reached.
var errEnoughFiles = errors.New("enough files")

// ListFiles lists up to max workspace files (slash paths relative to the root) in
// the order list_files uses, with the same rules: .gitignore honoured, .git,
// secret files, special files and links leading outside left out. It serves
// the interface's @-mention picker, so that picker can never offer a file the
// tools would refuse.
func (w *Workspace) ListFiles(ctx context.Context, max int) ([]string, error) {
	var files []string
	_, err := walkFiles(ctx, w, "", walkOptions{}, func(f walkFile) error {
		files = append(files, f.rel)
		if max > 0 && len(files) >= max {
			return errEnoughFiles
		}
		return nil
	})
	if err != nil && !errors.Is(err, errEnoughFiles) {
		return files, err
	}
	return files, nil
}
