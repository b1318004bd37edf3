package tools

import (
	"context"
	"errors"
	"time"
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
	err := w.ListFilesBatched(ctx, max, func(batch []string) { files = append(files, batch...) })
	return files, err
}

// Batches of ListFilesBatched: the first is small, so a picker has rows
// after a few folders; they grow to the largest, and one is sent at least
// every listBatchEvery while files are found.
const (
	listBatchFirst = 32
	listBatchMax   = 4096
	listBatchEvery = 50 * time.Millisecond
)

// ListFilesBatched is ListFiles delivering the files as the walk finds
// them, in order, in batches (each a new slice found may keep): in a tree of
// 200,000 files the whole list takes seconds, its first rows milliseconds.
func (w *Workspace) ListFilesBatched(ctx context.Context, max int, found func(batch []string)) error {
	size, n := listBatchFirst, 0
	var batch []string
	last := time.Now()
	flush := func() {
		if len(batch) == 0 {
			return
		}
		found(batch)
		batch, last, size = nil, time.Now(), min(2*size, listBatchMax)
	}
	_, err := walkFiles(ctx, w, "", walkOptions{}, func(f walkFile) error {
		batch = append(batch, f.rel)
		n++
		if len(batch) >= size || time.Since(last) >= listBatchEvery {
			flush()
		}
		if max > 0 && n >= max {
			return errEnoughFiles
		}
		return nil
	})
	flush()
	if err != nil && !errors.Is(err, errEnoughFiles) {
		return err
	}
	return nil
}
