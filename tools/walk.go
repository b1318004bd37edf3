package tools

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// walkFile is one regular file found by walkFiles.
type walkFile struct {
	// rel is the slash-separated path relative to the workspace root.
	rel string
	// abs is where to read it: the path itself, or for a symlink its
	// resolved target (always inside the workspace).
	abs string
	// linked is set when abs is a symlink's target.
	linked bool
}

// walkOptions tune walkFiles.
type walkOptions struct {
	// keep, if set, filters files before they are counted or visited; rel
	// is relative to the workspace root.
	keep func(rel string) bool
}

// walkStats counts what walkFiles left out.
type walkStats struct {
	// secret counts files hidden because Workspace.IsSecret matched them.
	secret int
}

// walkFiles visits the regular files under startAbs (a directory or file
// already resolved by Workspace.Resolve; startRel is its relative path) in a
// fixed order: depth first, directory entries sorted by name. It skips .git,
// whatever .gitignore files exclude (the root's, nested ones, those of an
// enclosing repository, and .git/info/exclude), secret files, special files,
// symlinked directories (never followed, so no loops or escapes) and
// symlinked files whose target lies outside the workspace. An explicitly
// named start path is visited even when ignored. visit returning an error
// stops the walk with that error.
func walkFiles(ctx context.Context, w *Workspace, startAbs, startRel string, opts walkOptions, visit func(walkFile) error) (walkStats, error) {
	var st walkStats
	wk := &walker{ctx: ctx, w: w, opts: opts, visit: visit, stats: &st}
	info, err := os.Stat(startAbs)
	if err != nil {
		return st, err
	}
	if startRel == "." {
		startRel = ""
	}
	if !info.IsDir() {
		if !info.Mode().IsRegular() {
			return st, nil
		}
		return st, wk.file(walkFile{rel: startRel, abs: startAbs})
	}
	stack := ignoresFor(w.Root, startRel)
	return st, wk.dir(startAbs, startRel, stack)
}

// ignoresFor builds the ignore stack that applies inside the workspace
// directory rel, reading .gitignore files from the root down.
func ignoresFor(root, rel string) ignoreStack {
	stack := rootIgnores(root)
	if rel == "" {
		return stack
	}
	dirAbs, dirRel := root, ""
	for _, part := range strings.Split(rel, "/") {
		dirAbs += string(filepath.Separator) + part
		if dirRel == "" {
			dirRel = part
		} else {
			dirRel += "/" + part
		}
		stack = stack.with(dirAbs, dirRel)
	}
	return stack
}

type walker struct {
	ctx   context.Context
	w     *Workspace
	opts  walkOptions
	visit func(walkFile) error
	stats *walkStats
}

// file applies the per-file filters and visits f.
func (wk *walker) file(f walkFile) error {
	if wk.opts.keep != nil && !wk.opts.keep(f.rel) {
		return nil
	}
	// A link with an innocent name must not expose a secret target.
	if wk.w.IsSecret(f.rel) || f.linked && wk.w.IsSecret(filepath.Base(f.abs)) {
		wk.stats.secret++
		return nil
	}
	return wk.visit(f)
}

// dir walks one directory; stack holds the ignore files of its parents.
func (wk *walker) dir(abs, rel string, stack ignoreStack) error {
	if err := wk.ctx.Err(); err != nil {
		return err
	}
	d, err := os.Open(abs)
	if err != nil {
		// An unreadable directory is left out rather than failing the walk.
		return nil
	}
	entries, err := d.ReadDir(-1)
	_ = d.Close()
	if err != nil && len(entries) == 0 {
		return nil
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	if rel != "" {
		// Only try to read a .gitignore that is there: a failed open per
		// directory is measurable over a large tree.
		if _, found := slices.BinarySearchFunc(entries, ".gitignore", func(e fs.DirEntry, name string) int {
			return strings.Compare(e.Name(), name)
		}); found {
			stack = stack.with(abs, rel)
		}
	}
	for _, e := range entries {
		name := e.Name()
		if name == ".git" {
			continue
		}
		childAbs := abs + string(filepath.Separator) + name
		childRel := name
		if rel != "" {
			childRel = rel + "/" + name
		}
		switch typ := e.Type(); {
		case typ.IsDir():
			if stack.ignored(childRel, true) {
				continue
			}
			if err := wk.dir(childAbs, childRel, stack); err != nil {
				return err
			}
		case typ.IsRegular():
			if stack.ignored(childRel, false) {
				continue
			}
			if err := wk.file(walkFile{rel: childRel, abs: childAbs}); err != nil {
				return err
			}
		case typ&fs.ModeSymlink != 0:
			if stack.ignored(childRel, false) {
				continue
			}
			target, ok := wk.symlinkTarget(childAbs)
			if !ok {
				continue
			}
			if err := wk.file(walkFile{rel: childRel, abs: target, linked: true}); err != nil {
				return err
			}
		}
		// Devices, pipes and sockets are skipped: reading a pipe could block.
	}
	return nil
}

// symlinkTarget resolves a symlink found during the walk; it reports false
// for links to directories, to special files, dangling links and links whose
// target is outside the workspace.
func (wk *walker) symlinkTarget(abs string) (string, bool) {
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", false
	}
	info, err := os.Stat(real)
	if err != nil || !info.Mode().IsRegular() {
		return "", false
	}
	if !insideRoot(wk.w.Root, real) {
		return "", false
	}
	return real, true
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
