package session

import (
	"bufio"
	"encoding/gob"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// indexName is the file beside the session folders that caches each log's
// Info, so listing 10,000 sessions reads one file and stats the logs
// instead of opening and scanning every one of them. The version is in the
// name: a new layout starts a new file.
const indexName = "index-v1.gob"

// indexEntry is one log's Info with the size and modification time it was
// read at: a log that changed since (a size or a time differs) is read again.
type indexEntry struct {
	Size    int64
	ModTime time.Time
	Info    Info
}

// index maps a log's path to what was last read from it.
type index map[string]indexEntry

// loadIndex reads the index of home; a missing or unreadable index is an
// empty one (everything is read again, and the index rewritten).
func loadIndex(home string) index {
	f, err := os.Open(filepath.Join(Dir(home), indexName))
	if err != nil {
		return index{}
	}
	defer func() { _ = f.Close() }()
	var ix index
	if err := gob.NewDecoder(bufio.NewReaderSize(f, 256<<10)).Decode(&ix); err != nil || ix == nil {
		return index{}
	}
	return ix
}

// info returns the Info of the log at path, from the index when the log has
// not changed since it was indexed, else read and indexed again. It reports
// whether the index changed.
func (ix index) info(path string) (Info, bool) {
	st, err := os.Stat(path)
	if err != nil {
		return readInfo(path, true), false // gone or unreadable: say so, index nothing
	}
	if e, ok := ix[path]; ok && e.Size == st.Size() && e.ModTime.Equal(st.ModTime()) {
		return e.Info, false
	}
	in := readInfo(path, true)
	if in.Problem != "" {
		delete(ix, path) // a torn or damaged log may be written right now: read it again next time
		return in, true
	}
	ix[path] = indexEntry{Size: st.Size(), ModTime: st.ModTime(), Info: in}
	return in, true
}

// prune drops the entries of logs that were not seen, and reports whether
// it dropped any.
func (ix index) prune(seen map[string]bool) bool {
	n := len(ix)
	for p := range ix {
		if !seen[p] {
			delete(ix, p)
		}
	}
	return len(ix) != n
}

// save writes the index atomically (a temporary file renamed over it), so a
// concurrent tern reads either the old index or the new one, never half.
func (ix index) save(home string) error {
	dir := Dir(home)
	f, err := os.CreateTemp(dir, indexName+".*")
	if err != nil {
		return fmt.Errorf("write session index: %w", err)
	}
	w := bufio.NewWriterSize(f, 256<<10)
	err = errors.Join(gob.NewEncoder(w).Encode(ix), w.Flush(), f.Close())
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, indexName))
	}
	if err != nil {
		_ = os.Remove(f.Name())
		return fmt.Errorf("write session index: %w", err)
	}
	return nil
}
