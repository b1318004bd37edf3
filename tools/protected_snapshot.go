package tools

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"unicode/utf8"
)

// Bounds of a snapshot of the protected paths: these are small files (a
// repository's config and a dozen hooks), so the snapshot keeps their bytes
// to put them back. Past these bounds a file is compared by its hash only
// and cannot be restored.
const (
	// snapFileBytes is the largest file whose bytes a snapshot keeps.
	snapFileBytes = 1 << 20
	// snapTotalBytes is the most a snapshot keeps in all.
	snapTotalBytes = 16 << 20
	// snapEntries is the most entries a snapshot records below one
	// protected directory; deeper or later entries are not watched.
	snapEntries = 4096
	// snapDiffBytes bounds the diff shown for a change.
	snapDiffBytes = 64 << 10
)

// snapEntry is one file, link or directory as a snapshot saw it.
type snapEntry struct {
	mode fs.FileMode
	// data is the file's content, or the link's target; nil when too
	// large to keep (kept is false then).
	data []byte
	kept bool
	sum  [sha256.Size]byte
	size int64
	// base is the folder (Protected.Base) the entry was read through and
	// is restored through.
	base string
}

func (e snapEntry) same(o snapEntry) bool {
	return e.mode == o.mode && e.size == o.size && e.sum == o.sum
}

// ProtectedSnapshot is the state of the protected paths of a workspace at
// one moment, kept so that a shell command's changes to them can be shown
// and reverted.
type ProtectedSnapshot struct {
	root    string
	home    string
	list    []Protected
	ids     baseIDs
	entries map[string]snapEntry
	// partial is set when a bound was reached.
	partial bool
	// cuts maps a protected folder whose walk stopped at the bound of
	// entries to the last path walked: what comes after it was not seen.
	cuts map[string]string
	// maxEntries bounds the entries walked below one protected folder.
	maxEntries int
}

// SnapshotProtected records the protected paths of the workspace root (see
// ListProtected). It never fails: what cannot be read is recorded as
// absent, which at worst reports a change that was not made.
func SnapshotProtected(root, ternHome string) *ProtectedSnapshot {
	return snapshotProtected(root, ternHome, snapEntries)
}

// snapshotProtected is SnapshotProtected walking at most maxEntries
// entries below each protected folder.
func snapshotProtected(root, ternHome string, maxEntries int) *ProtectedSnapshot {
	home, _ := os.UserHomeDir()
	list := ListProtected(root, ternHome)
	s := &ProtectedSnapshot{root: filepath.Clean(root), home: home, list: list, ids: newBaseIDs(list), maxEntries: maxEntries}
	s.take()
	return s
}

// take reads every protected path into s.entries, each through the
// root of its base folder.
func (s *ProtectedSnapshot) take() {
	s.entries = map[string]snapEntry{}
	s.cuts = map[string]string{}
	budget := snapTotalBytes
	roots := newBaseRoots(s.ids)
	defer roots.close()
	links := map[string]string{}
	// Single files first (configs, memory files): a folder of large files
	// shipped with the repository cannot use up the budget they need to
	// be restored.
	list := slices.Clone(s.list)
	slices.SortStableFunc(list, func(a, b Protected) int {
		switch {
		case a.Dir == b.Dir:
			return 0
		case b.Dir:
			return -1
		}
		return 1
	})
	for _, p := range list {
		r, err := roots.get(p.Base)
		if err != nil {
			continue // not readable: recorded as absent
		}
		if link := linkedParent(r, p.Base, p.Path, links); link != "" {
			// A folder above the protected path was replaced by a link (say
			// .git by a link to another repository): the link itself is what
			// changed, and nothing is read or reverted through it.
			if fi, err := r.Lstat(relTo(p.Base, link)); err == nil {
				s.record(r, p.Base, link, fi, &budget)
			}
			continue
		}
		rel := relTo(p.Base, p.Path)
		fi, err := r.Lstat(rel)
		if err != nil {
			continue
		}
		if !fi.IsDir() || !p.Dir {
			s.record(r, p.Base, p.Path, fi, &budget)
			continue
		}
		w := snapWalker{s: s, r: r, base: p.Base, budget: &budget}
		w.walk(p.Path, fi)
		if w.stopped {
			s.partial = true
			s.cuts[p.Path] = w.last
			// Past the bound the walk saw only some entries: a folder
			// filled with thousands of files must not hide its hooks, so
			// those git (and husky, in _/) runs by name are always read.
			s.recordHooks(r, p.Base, p.Path, &budget)
		}
	}
}

// snapWalker records a protected folder depth first, names sorted, as
// filepath.WalkDir visits them, up to the snapshot's bound of entries. It
// reads a folder's entries in chunks and gives up on a folder holding more
// than dirNames(bound) of them, so a folder of 100,000 files costs little.
type snapWalker struct {
	s       *ProtectedSnapshot
	r       *os.Root
	base    string
	budget  *int
	n       int
	last    string
	stopped bool
}

// dirNames is the most names read from one folder of a walk bounded to
// maxEntries entries.
func dirNames(maxEntries int) int { return 4 * maxEntries }

// walk records path (whose Lstat is fi) and, for a folder, what it holds.
func (w *snapWalker) walk(path string, fi fs.FileInfo) {
	if w.stopped {
		return
	}
	if w.n++; w.n > w.s.maxEntries {
		w.stopped = true
		return
	}
	w.last = path
	w.s.record(w.r, w.base, path, fi, w.budget)
	if !fi.IsDir() {
		return
	}
	f, err := w.r.Open(relTo(w.base, path))
	if err != nil {
		return // unreadable: not watched
	}
	// A first chunk with each entry's Lstat (one fstatat on the open
	// folder): all of an ordinary folder. Past it, names only, so that a
	// folder of 100,000 files is counted, not stat'ed.
	limit := dirNames(w.s.maxEntries)
	ents, err := f.ReadDir(256)
	infos := map[string]fs.FileInfo{}
	var names []string
	for _, d := range ents {
		if fi, err := d.Info(); err == nil {
			infos[d.Name()] = fi
			names = append(names, d.Name())
		}
	}
	for err == nil && len(ents) == 256 && len(names) <= limit {
		var chunk []string
		chunk, err = f.Readdirnames(1024)
		names = append(names, chunk...)
		if len(chunk) == 0 {
			break
		}
	}
	_ = f.Close()
	if len(names) > limit {
		w.stopped = true // nothing below path is seen
		return
	}
	slices.Sort(names)
	for _, name := range names {
		child := filepath.Join(path, name)
		cfi, ok := infos[name]
		if !ok {
			var err error
			if cfi, err = w.r.Lstat(relTo(w.base, child)); err != nil {
				continue
			}
		}
		w.walk(child, cfi)
	}
}

// recordHooks records the hooks git runs by name in dir and in dir/_
// (husky's), where the walk did not reach them.
func (s *ProtectedSnapshot) recordHooks(r *os.Root, base, dir string, budget *int) {
	for _, sub := range []string{dir, filepath.Join(dir, "_")} {
		for _, name := range slices.Concat(gitHookNames, []string{"h"}) {
			p := filepath.Join(sub, name)
			if _, ok := s.entries[p]; ok {
				continue
			}
			if fi, err := r.Lstat(relTo(base, p)); err == nil {
				s.record(r, base, p, fi, budget)
			}
		}
	}
}

// record adds one entry, read through the root r of base, keeping its
// bytes while the budget lasts. A file is opened without blocking and
// read only if the open file is regular: a FIFO swapped in cannot hang
// tern.
func (s *ProtectedSnapshot) record(r *os.Root, base, path string, fi fs.FileInfo, budget *int) {
	rel := relTo(base, path)
	e := snapEntry{mode: fi.Mode(), base: base}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := r.Readlink(rel)
		if err != nil {
			return
		}
		e.data, e.kept = []byte(target), true
	case fi.Mode().IsRegular():
		f, err := r.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			return
		}
		defer func() { _ = f.Close() }()
		if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
			return
		}
		if fi.Size() > snapFileBytes || int(fi.Size()) > *budget {
			s.partial = true
			if st, err := f.Stat(); err == nil {
				if stamp, ok := changeStamp(st); ok {
					// Not read: a file of gigabytes must not cost every call.
					e.sum, e.size = sha256.Sum256([]byte(stamp)), st.Size()
					s.entries[path] = e
					return
				}
			}
			h := sha256.New()
			n, err := io.Copy(h, f)
			if err != nil {
				return
			}
			copy(e.sum[:], h.Sum(nil))
			e.size = n
			s.entries[path] = e
			return
		}
		data, err := io.ReadAll(io.LimitReader(f, int64(*budget)+1))
		if err != nil || len(data) > *budget {
			return
		}
		*budget -= len(data)
		e.data, e.kept, e.size = data, true, int64(len(data))
	case fi.IsDir():
		e.kept = true
	default:
		return // devices, sockets and pipes are not watched
	}
	e.sum = sha256.Sum256(e.data)
	s.entries[path] = e
}

// ProtectedChange is what a command changed in the protected paths.
type ProtectedChange struct {
	before, after *ProtectedSnapshot
	// Paths are the changed paths as shown to people: workspace-relative,
	// ~/... or absolute, with what happened ("created", "changed",
	// "removed", "mode 0644 → 0755").
	Paths []string
	// Diff is a unified diff of the changed text files, bounded.
	Diff string
}

// Changes compares the protected paths now with the snapshot and returns
// what changed, or nil when nothing did. Only the paths protected when the
// snapshot was taken are compared: a command that points core.hooksPath
// somewhere else changes .git/config, which is what is reported.
func (s *ProtectedSnapshot) Changes() *ProtectedChange {
	after := &ProtectedSnapshot{root: s.root, home: s.home, list: s.list, ids: s.ids, maxEntries: s.maxEntries}
	after.take()
	s.dropUnseen(after)
	var paths []string
	for p := range s.entries {
		paths = append(paths, p)
	}
	for p := range after.entries {
		if _, ok := s.entries[p]; !ok {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	c := &ProtectedChange{before: s, after: after}
	// One-line notes for what is not a text file come first, so that a
	// reader splitting the diff at its "--- " headers sees them apart.
	var notes, diff strings.Builder
	for _, p := range paths {
		b, hadB := s.entries[p]
		a, hadA := after.entries[p]
		if hadB && hadA && b.same(a) {
			continue
		}
		show := s.display(p)
		var what string
		switch {
		case !hadB:
			what = "created"
		case !hadA:
			what = "removed"
		case b.mode.Type() != a.mode.Type():
			what = "replaced"
		case b.size == a.size && b.sum == a.sum:
			what = fmt.Sprintf("mode %04o → %04o", b.mode.Perm(), a.mode.Perm())
		default:
			what = "changed"
			if b.mode != a.mode {
				what += fmt.Sprintf(", mode %04o → %04o", b.mode.Perm(), a.mode.Perm())
			}
		}
		c.Paths = append(c.Paths, show+" ("+what+")")
		if diff.Len()+notes.Len() < snapDiffBytes {
			if d, unified := entryDiff(show, b, hadB, a, hadA); unified {
				diff.WriteString(d)
			} else {
				notes.WriteString(d)
			}
		}
	}
	if len(c.Paths) == 0 {
		return nil
	}
	c.Diff = notes.String() + diff.String()
	if len(c.Diff) > snapDiffBytes {
		cut := snapDiffBytes
		for cut > 0 && !utf8.RuneStart(c.Diff[cut]) {
			cut--
		}
		c.Diff = c.Diff[:cut] + "\n[… diff cut]\n"
	}
	return c
}

// dropUnseen forgets the entries one snapshot holds that the other did not
// see because its walk stopped at the bound (the cut moves when a command
// adds or removes entries before it): they are not changes. The hooks
// read by name past the bound were seen by both.
func (s *ProtectedSnapshot) dropUnseen(after *ProtectedSnapshot) {
	for _, pair := range [][2]*ProtectedSnapshot{{s, after}, {after, s}} {
		have, other := pair[0], pair[1]
		for p := range have.entries {
			if _, ok := other.entries[p]; !ok && other.unseen(p) {
				delete(have.entries, p)
			}
		}
	}
}

// unseen reports whether p lies past the cut of a walk stopped at the
// bound, and is not a hook read by name.
func (s *ProtectedSnapshot) unseen(p string) bool {
	for dir, cut := range s.cuts {
		if !isWithin(dir, p) || walkOrder(p, cut) <= 0 {
			continue
		}
		parent := filepath.Dir(p)
		hook := (parent == dir || parent == filepath.Join(dir, "_")) && (slices.Contains(gitHookNames, filepath.Base(p)) || filepath.Base(p) == "h")
		return !hook
	}
	return false
}

// walkOrder compares two paths in the order filepath.WalkDir visits them:
// element by element, a folder before what it holds.
func walkOrder(a, b string) int {
	as, bs := strings.Split(a, string(filepath.Separator)), strings.Split(b, string(filepath.Separator))
	for i := 0; i < len(as) && i < len(bs); i++ {
		if c := strings.Compare(as[i], bs[i]); c != 0 {
			return c
		}
	}
	return len(as) - len(bs)
}

// entryDiff is the diff of one changed entry: unified for text files
// (unified is true), one line for anything else.
func entryDiff(show string, b snapEntry, hadB bool, a snapEntry, hadA bool) (d string, unified bool) {
	text := func(e snapEntry, had bool) (string, bool) {
		if !had {
			return "", true
		}
		if !e.mode.IsRegular() || !e.kept || bytes.IndexByte(e.data, 0) >= 0 || !utf8.Valid(e.data) {
			return "", false
		}
		return string(e.data), true
	}
	bt, okB := text(b, hadB)
	at, okA := text(a, hadA)
	if okB && okA && (hadB && b.mode.IsRegular() || hadA && a.mode.IsRegular()) && bt != at {
		return UnifiedDiff(show, bt, at), true
	}
	describe := func(e snapEntry, had bool) string {
		switch {
		case !had:
			return "nothing"
		case e.mode&fs.ModeSymlink != 0:
			return "a link to " + string(e.data)
		case e.mode.IsDir():
			return "a directory"
		}
		return fmt.Sprintf("%d bytes, mode %04o", e.size, e.mode.Perm())
	}
	return fmt.Sprintf("%s: %s → %s\n", show, describe(b, hadB), describe(a, hadA)), false
}

// display renders p for people: relative to the workspace inside it, with
// ~ for the home directory, else absolute.
func (s *ProtectedSnapshot) display(p string) string {
	if r, err := filepath.Rel(s.root, p); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(r)
	}
	if s.home != "" {
		if r, err := filepath.Rel(s.home, p); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return "~/" + filepath.ToSlash(r)
		}
	}
	return p
}

// Revert puts every changed protected path back as the snapshot saw it:
// the same bytes, link targets and modes; entries the command created are
// removed and entries it removed come back. A file too large to have been
// kept cannot be restored: that, and every other failure, is in the error.
func (c *ProtectedChange) Revert() error { return switchState(c.after, c.before) }

// Reapply makes the protected paths hold the command's changes again after
// Revert, for a change that was held back while the user was asked and
// then kept.
func (c *ProtectedChange) Reapply() error { return switchState(c.before, c.after) }

// switchState turns the protected paths from the state from into the
// state to: it removes what to does not hold (deepest first), then writes
// what differs (parents first). Every removal and write goes through the
// root of the entry's base folder, checked to be the folder seen before
// the command: a folder swapped for a link meanwhile cannot lead it
// outside.
func switchState(from, to *ProtectedSnapshot) error {
	var errs []error
	roots := newBaseRoots(to.ids)
	defer roots.close()
	var gone []string
	for p, f := range from.entries {
		t, had := to.entries[p]
		if !had || t.mode.Type() != f.mode.Type() {
			gone = append(gone, p)
		}
	}
	slices.SortFunc(gone, func(x, y string) int { return strings.Compare(y, x) })
	for _, p := range gone {
		base := from.entries[p].base
		r, err := roots.get(base)
		if err == nil {
			err = r.RemoveAll(relTo(base, p))
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("remove %s: %w", to.display(p), err))
		}
	}
	var back []string
	for p, t := range to.entries {
		if f, ok := from.entries[p]; !ok || !f.same(t) {
			back = append(back, p)
		}
	}
	slices.Sort(back)
	for _, p := range back {
		e := to.entries[p]
		r, err := roots.get(e.base)
		if err == nil {
			err = restoreEntry(r, relTo(e.base, p), e)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("restore %s: %w", to.display(p), err))
		}
	}
	return errors.Join(errs...)
}

// linkedParent returns the nearest folder above p, below base, that is
// a symbolic link, or "" when there is none. ListProtected gives paths
// whose folders are real, so a link there was put in since. seen
// remembers the answer for each folder asked about.
func linkedParent(r *os.Root, base, p string, seen map[string]string) string {
	dir := filepath.Dir(p)
	if dir == base || !isWithin(base, dir) {
		return ""
	}
	if link, ok := seen[dir]; ok {
		return link
	}
	link := linkedParent(r, base, dir, seen)
	if link == "" {
		if fi, err := r.Lstat(relTo(base, dir)); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			link = dir
		}
	}
	seen[dir] = link
	return link
}
