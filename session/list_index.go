package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"
)

// List returns the sessions under Dir(home) that hold a message (see
// Info.empty), the most recently used first (then the newest created). It
// reads each file's header and scans its lines without decoding them.
//
// What it read is kept in an index beside the logs (see indexName) with a
// stamp of each day folder: a folder whose stamp did not change since
// holds the logs the index says, unchanged (a Writer marks the folder at
// each write, and adding or removing a file changes it), so its logs are
// not stated. In a folder that changed, a log whose size and modification
// time did not change is not read again. The index is rebuilt when it is
// missing or damaged; it is a cache: failing to write it costs the next
// list its speed, nothing else.
func List(home string) ([]Info, error) {
	return listAt(home, time.Now())
}

// ListMapped is List for a process that is done with the sessions when it
// exits (`tern sessions`): the index is mapped into memory instead of read
// into a buffer, and the Infos' strings point into that mapping, which is
// never unmapped. Copying the 3 MB index of 10,000 sessions into fresh
// memory, a page fault each 4 KB, was a quarter of that command's CPU.
//
// tern replaces the index by renaming a new file over it, which leaves a
// mapping of the old one whole; an index cut in place while mapped (by
// hand, or by a network file system dropping the file) makes reading the
// strings fault. Run ListMapped and everything that reads its Infos in
// one goroutine with debug.SetPanicOnFault(true), and recover: the fault
// is then a panic whose value has an Addr method, not a crash.
func ListMapped(home string) ([]Info, error) {
	return listBy(home, time.Now(), mapIndex)
}

// listAt is List with the time it started at, which decides which folder
// stamps are too recent to be trusted next time (racyWindow).
func listAt(home string, now time.Time) ([]Info, error) {
	return listBy(home, now, os.ReadFile)
}

// listBy is listAt with the index's bytes got by read.
func listBy(home string, now time.Time, read func(string) ([]byte, error)) ([]Info, error) {
	root := Dir(home)
	old := loadIndexBy(home, read)
	days, err := dayFolders(root)
	if err != nil {
		return nil, err
	}
	l := lister{root: root, old: old, now: now, next: index{folders: make(map[string]folderStamp, len(days))}}
	if err := l.run(days); err != nil {
		return nil, err
	}
	if l.changed {
		_ = l.next.save(home) // a cache: see above
	}
	return l.next.shown(), nil
}

// lister builds the next index from the old one and the folders as they
// are now.
type lister struct {
	root    string
	old     index
	now     time.Time
	next    index
	changed bool // next differs from old in a row shown: write it
	// restamped counts the folders read again whose new stamp can be
	// trusted next time.
	restamped int
	// dropped marks the old entries left out (nil: none); fresh holds the
	// entries read from their logs.
	dropped []bool
	fresh   index
}

// run fills l.next: the entries of unchanged folders as they were, those of
// changed folders from their logs, in List's order. When no entry changed
// the old slices are the new ones, uncopied.
func (l *lister) run(days []dayFolder) error {
	trusted := make(map[string]bool, len(days))
	var recheck []dayFolder
	for _, d := range days {
		was, ok := l.old.folders[d.rel]
		if d.err == nil && ok && was != (folderStamp{}) && was == d.stamp {
			trusted[d.rel] = true
			l.next.folders[d.rel] = was
			continue
		}
		recheck = append(recheck, d)
	}
	var others map[string]int // the old entries of folders to read again
	if len(recheck) > 0 || len(trusted) != len(l.old.folders) {
		others = make(map[string]int)
		for i := range l.old.meta {
			if rel := l.old.meta[i].rel; !trusted[relDir(rel)] {
				others[rel] = i
			}
		}
	}
	for i := range l.old.infos {
		if m := &l.old.meta[i]; volatile(m, &l.old.infos[i]) {
			if _, later := others[m.rel]; !later {
				l.restat(i)
			}
		}
	}
	for _, d := range recheck {
		if err := l.readFolder(d, others); err != nil {
			return err
		}
	}
	for _, i := range others { // logs or folders that went
		l.drop(i)
	}
	if l.restamped > restampsWorthSaving {
		l.changed = true
	}
	l.merge()
	return nil
}

// merge makes l.next's entries: the old ones not dropped, and the fresh.
func (l *lister) merge() {
	if l.dropped == nil && len(l.fresh.infos) == 0 {
		// Nothing changed: the old entries are the list, as they are.
		l.next.infos, l.next.meta = l.old.infos, l.old.meta
		sortIndex(&l.next) // written in order: a check
		return
	}
	n := len(l.old.infos) + len(l.fresh.infos)
	l.next.infos, l.next.meta = make([]Info, 0, n), make([]entryMeta, 0, n)
	for i := range l.old.infos {
		if l.dropped == nil || !l.dropped[i] {
			l.next.add(l.old.meta[i], l.old.infos[i])
		}
	}
	for i := range l.fresh.infos {
		l.next.add(l.fresh.meta[i], l.fresh.infos[i])
	}
	sortIndex(&l.next)
}

// restampsWorthSaving is how many folders may change stamp without a
// changed row before the index is written for their stamps alone: one or
// two such folders (where a tern just started, or a damaged log sits) are
// cheaper to read again at each list than 3 MB of index to rewrite (the
// picker rewrote it at every /resume when each start of tern did).
const restampsWorthSaving = 8

// change notes that a row of the list differs from the old index's; rows
// that are not shown (an empty log) or are always checked (a damaged one)
// do not make the index worth writing.
func (l *lister) change(in *Info) {
	if !in.empty() && in.Problem == "" {
		l.changed = true
	}
}

// drop takes the old entry i out of the next index.
func (l *lister) drop(i int) {
	if l.dropped == nil {
		l.dropped = make([]bool, len(l.old.infos))
	}
	l.dropped[i] = true
	l.change(&l.old.infos[i])
}

// restat checks the volatile old entry i of an unchanged folder by its
// own stat.
func (l *lister) restat(i int) {
	m := &l.old.meta[i]
	path := l.old.infos[i].Path
	var st logStat
	if fi, err := os.Stat(path); err != nil {
		st.err = err
	} else {
		st.size, st.mod = fi.Size(), fi.ModTime()
	}
	l.add(m.rel, path, m.link, st, i)
}

// readFolder reads the names in a day folder that changed and keeps each
// log's old entry (taking it out of others) when its size and time are the
// same, else reads the log.
func (l *lister) readFolder(d dayFolder, others map[string]int) error {
	dir := l.root + string(os.PathSeparator) + d.rel
	stat := statIn(dir)
	defer stat.close()
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil // removed since the walk: its old entries stay in others
		}
		return fmt.Errorf("list sessions: %w", err)
	}
	stamp := d.stamp
	if d.err != nil || stamp.ctime >= l.now.Add(-racyWindow).UnixNano() || stamp.mtime >= l.now.Add(-racyWindow).UnixNano() {
		stamp = folderStamp{} // too recent to vouch for what was read: read it again next time
	}
	l.next.folders[d.rel] = stamp
	if was := l.old.folders[d.rel]; was != stamp && stamp != (folderStamp{}) {
		l.restamped++
	}
	for _, de := range entries {
		name := de.Name()
		if de.IsDir() || !strings.HasSuffix(name, ".jsonl") {
			continue
		}
		rel := d.rel + "/" + name
		old, ok := others[rel]
		if ok {
			delete(others, rel)
		} else {
			old = -1
		}
		l.add(rel, dir+string(os.PathSeparator)+name, de.Type()&fs.ModeSymlink != 0, stat.stat(name), old)
	}
	return nil
}

// add checks the log at path (rel below the sessions folder) against its
// old entry at old (-1 for none): the entry stays when the log's stat
// matches it, else the log is read again and its entry is fresh. Empty
// logs are not indexed (most are the session of a tern just started,
// which would make each list rewrite the index; a Writer that adds a
// message marks the folder); a log that cannot be stated is listed with
// the problem.
func (l *lister) add(rel, path string, link bool, st logStat, old int) {
	if old >= 0 {
		if m := &l.old.meta[old]; st.err == nil && m.size == st.size && m.mod == st.mod.UnixNano() && m.link == link {
			return // kept as it was
		}
		l.drop(old)
	}
	m := entryMeta{rel: rel, size: st.size, mod: st.mod.UnixNano(), link: link}
	if st.err != nil {
		m.size, m.mod = -1, 0 // gone or unreadable: matches no stat
	}
	in := readInfo(path, true)
	if in.empty() {
		return
	}
	l.change(&in)
	l.fresh.add(m, in)
}

// relDir is the folder part of a path below the sessions folder.
func relDir(rel string) string {
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		return rel[:i]
	}
	return ""
}

// dayFolder is a day's folder (YYYY/MM/DD below the sessions folder) and
// its stamp, or why it could not be stated.
type dayFolder struct {
	rel   string
	stamp folderStamp
	err   error
}

// dayFolders lists the day folders under root, newest first, each stated
// by its name in its month's open folder. A missing root is no error:
// there are no sessions yet.
func dayFolders(root string) ([]dayFolder, error) {
	years, err := readDirsDesc(root)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	var out []dayFolder
	for _, y := range years {
		months, err := readDirsDesc(root + string(os.PathSeparator) + y)
		if err != nil {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		for _, m := range months {
			dir := root + string(os.PathSeparator) + y + string(os.PathSeparator) + m
			days, err := readDirsDesc(dir)
			if err != nil {
				return nil, fmt.Errorf("list sessions: %w", err)
			}
			stat := statIn(dir)
			for _, d := range days {
				st := stat.stat(d)
				out = append(out, dayFolder{rel: y + "/" + m + "/" + d, stamp: st.stamp, err: st.err})
			}
			stat.close()
		}
	}
	return out, nil
}

// sortIndex puts the entries of ix in List's order (see compareInfos),
// unless they are in it already.
func sortIndex(ix *index) {
	sorted := true
	for i := 1; i < len(ix.infos) && sorted; i++ {
		sorted = compareInfos(&ix.infos[i-1], &ix.infos[i]) <= 0
	}
	if sorted {
		return
	}
	order := make([]int, len(ix.infos))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return compareInfos(&ix.infos[a], &ix.infos[b]) })
	infos, meta := make([]Info, len(order)), make([]entryMeta, len(order))
	for i, j := range order {
		infos[i], meta[i] = ix.infos[j], ix.meta[j]
	}
	ix.infos, ix.meta = infos, meta
}

// ListIndexed returns the sessions the index beside the logs holds, in
// List's order, without reading a folder or stating a log: what a picker
// can show at once while List checks them. A row may be out of date (its
// log continued or removed since it was indexed), so what is chosen from
// it must be found again (Find); sessions not yet indexed are missing, and
// without an index the list is empty.
func ListIndexed(home string) []Info {
	ix := loadIndex(home)
	sortIndex(&ix) // written in order: a check
	return ix.shown()
}
