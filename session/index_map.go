package session

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// mapIndex maps the file at path read-only into memory, for ListMapped: the
// kernel lays the page cache's pages into the process (a fault per 16 of
// them at most) instead of copying them into fresh memory. The mapping
// is never unmapped: strings of the list point into it.
func mapIndex(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // the mapping outlives the descriptor
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() <= 0 || st.Size() > 1<<31 {
		return nil, errors.New("the session index is empty or too large to map")
	}
	data, err := unix.Mmap(int(f.Fd()), 0, int(st.Size()), unix.PROT_READ, unix.MAP_PRIVATE)
	if err != nil {
		return nil, fmt.Errorf("map the session index: %w", err)
	}
	return data, nil
}
