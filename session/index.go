package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// indexName is the file beside the session folders that caches each log's
// Info, so listing 10,000 sessions reads one file and stats the logs
// instead of opening and scanning every one of them. The version is in the
// name: a new layout starts a new file (index_codec.go holds this one's).
const indexName = "index-v2.bin"

// oldIndexNames are the files of earlier layouts, removed when the index is
// written: v1 was gob, whose decoding allocated every string on its own.
var oldIndexNames = []string{"index-v1.gob"}

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
	data, err := os.ReadFile(filepath.Join(Dir(home), indexName))
	if err != nil {
		return index{}
	}
	ix, err := decodeIndex(data)
	if err != nil {
		return index{}
	}
	return ix
}

// infoStat returns the Info of the log at path, from the index when the
// log has not changed since it was indexed (st says its size and time),
// else read and indexed again. It reports whether the index changed.
func (ix index) infoStat(path string, st logStat) (Info, bool) {
	if st.err != nil {
		return readInfo(path, true), false // gone or unreadable: say so, index nothing
	}
	if e, ok := ix[path]; ok && e.Size == st.size && e.ModTime.Equal(st.mod) {
		return e.Info, false
	}
	in := readInfo(path, true)
	if in.Problem != "" || in.empty() {
		// A torn or damaged log may be written right now, and an empty one
		// is most often the session of a tern just started (each start
		// would rewrite the whole index): read them again next time.
		_, had := ix[path]
		delete(ix, path)
		return in, had
	}
	ix[path] = indexEntry{Size: st.size, ModTime: st.mod, Info: in}
	return in, true
}

// prune drops the entries of logs that are not among paths (the logs
// seen), and reports whether it dropped any. The paths are distinct, so
// when as many of them are indexed as the index holds, nothing is stale,
// and no set of them is built.
func (ix index) prune(paths []string) bool {
	indexed := 0
	for _, p := range paths {
		if _, ok := ix[p]; ok {
			indexed++
		}
	}
	if indexed == len(ix) {
		return false
	}
	seen := make(map[string]bool, len(paths))
	for _, p := range paths {
		seen[p] = true
	}
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
	data, err := encodeIndex(ix)
	if err != nil {
		return err
	}
	dir := Dir(home)
	f, err := os.CreateTemp(dir, indexName+".*")
	if err != nil {
		return fmt.Errorf("write session index: %w", err)
	}
	_, err = f.Write(data)
	err = errors.Join(err, f.Close())
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, indexName))
	}
	if err != nil {
		_ = os.Remove(f.Name())
		return fmt.Errorf("write session index: %w", err)
	}
	for _, old := range oldIndexNames {
		_ = os.Remove(filepath.Join(dir, old)) // a cache nobody reads any more
	}
	return nil
}
