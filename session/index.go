package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// indexName is the file beside the session folders that caches each log's
// Info, so listing 10,000 sessions reads one file instead of opening and
// scanning every log. The version is in the name: a new layout starts a
// new file (index_codec.go holds this one's).
const indexName = "index-v3.bin"

// oldIndexNames are the files of earlier layouts, removed when the index is
// written: v1 was gob, whose decoding allocated every string on its own;
// v2 had no folder stamps, so every list stated every log.
var oldIndexNames = []string{"index-v1.gob", "index-v2.bin"}

// racyWindow is how recent a folder's change may be for its stamp to be
// trusted by the next list: a change within the same clock tick as the
// list's look at the folder would leave the stamp as it was (the racy-git
// problem), so a folder changed this recently is looked into again next
// time. Seconds, for filesystems whose times are that coarse.
const racyWindow = 5 * time.Second

// folderStamp is what a day folder's stat says of its entries: its inode
// and its change and modification times (nanoseconds). Adding, removing or
// renaming a log changes them, and so does every Writer, which marks the
// folder after each write to a log in it (markFolder). The zero stamp is
// trusted for nothing.
type folderStamp struct {
	ino          uint64
	ctime, mtime int64
}

// entryMeta is what the index keeps of a log besides its Info: its path
// below the sessions folder and the size and modification time it was
// read at.
type entryMeta struct {
	rel  string
	size int64
	mod  int64 // nanoseconds since 1970
	// link is set for a log that is a symbolic link: what changes its
	// target changes nothing in its folder, so it is always stated.
	link bool
}

// volatile says the entry is checked by a stat even in a folder that did
// not change: a damaged log may be being written (a torn line), and a
// link's target lives elsewhere.
func volatile(m *entryMeta, in *Info) bool { return m.link || in.Problem != "" }

// index is what the file holds: the stamp of each day folder (its path
// below the sessions folder) as it was when its logs were last read, and
// every log's Info, empty and damaged logs included, in List's order, with
// its entryMeta at the same place in meta. The Infos are a slice of their
// own so that a list is the index's slice itself, not a copy of it.
type index struct {
	folders map[string]folderStamp
	infos   []Info
	meta    []entryMeta
}

// add appends a log's entry.
func (ix *index) add(m entryMeta, in Info) {
	ix.meta = append(ix.meta, m)
	ix.infos = append(ix.infos, in)
}

// shown drops the entries a list does not show (empty logs), in place,
// and returns the Infos left: ix is spent.
func (ix *index) shown() []Info {
	out := ix.infos[:0]
	for i := range ix.infos {
		if !ix.infos[i].empty() {
			out = append(out, ix.infos[i])
		}
	}
	return out
}

// loadIndex reads the index of home; a missing or unreadable index is an
// empty one (every folder is read again, and the index rewritten).
func loadIndex(home string) index { return loadIndexBy(home, os.ReadFile) }

// loadIndexBy is loadIndex with the index file's bytes got by read (read
// into one buffer sized by a stat, or mapped: mapIndex).
func loadIndexBy(home string, read func(string) ([]byte, error)) index {
	root := Dir(home)
	data, err := read(filepath.Join(root, indexName))
	if err != nil {
		return index{}
	}
	ix, err := decodeIndex(data, root)
	if err != nil {
		return index{}
	}
	return ix
}

// save writes the index atomically (a temporary file renamed over it), so a
// concurrent tern reads either the old index or the new one, never half.
func (ix index) save(home string) error {
	dir := Dir(home)
	data := encodeIndex(ix, dir)
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
