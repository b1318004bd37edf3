//go:build !linux

package tools

import (
	"io/fs"
	"os"
)

// list reads the entries of the folder d, always to the end here.
func (wk *walker) list(d *os.File) (entries []dirEntry, complete bool, err error) {
	des, err := d.ReadDir(-1)
	for _, e := range des {
		typ := e.Type()
		if !typ.IsDir() && !typ.IsRegular() && typ&fs.ModeSymlink == 0 {
			typ = fs.ModeIrregular
		}
		entries = append(entries, dirEntry{name: e.Name(), typ: typ})
	}
	return entries, true, err
}

// readMore is not needed where list always reads to the end; it is the
// folder's barrier.
func (wk *walker) readMore(d *os.File) ([]dirEntry, error) {
	return nil, dirControl(d, func(dirfd int) { _ = dirBarrier(dirfd) })
}
