package tools

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// pendingMax bounds the files a walk holds open while they wait for their
// folder's second look, so a huge folder does not run out of descriptors.
const pendingMax = 128

// pendingFile is a file the walk opened and saw with one link, to be looked
// at again after its folder's barrier (linksettle.go).
type pendingFile struct {
	name, rel string
	fd        int
	st        unix.Stat_t
	// several: seen with several links, so shown only if the secret index
	// clears its identity; no second look by name is needed.
	several bool
}

// flush waits once for any rename or unlink under way in the folder d, then
// looks again at each pending file of that folder and visits those still
// named as they were and not secret files under another name. One barrier
// serves every file of the folder, which keeps a search's added cost to one
// stat a file.
func (wk *walker) flush(d *os.File) error {
	if len(wk.pending) == 0 {
		return nil
	}
	var berr error
	if err := dirControl(d, func(dirfd int) { berr = dirBarrier(dirfd) }); err != nil || berr != nil {
		wk.dropPending()
		if err == nil {
			err = berr
		}
		return removedIsGone(err)
	}
	return wk.settle(d)
}

// settle is flush after the barrier: it looks again at each pending file
// seen with one link and visits those that may be shown.
func (wk *walker) settle(d *os.File) error {
	if len(wk.pending) == 0 {
		return nil
	}
	pending := wk.pending
	wk.pending = wk.pending[:0]
	if err := dirControl(d, func(dirfd int) {
		for i := range pending {
			if pending[i].several {
				continue // judged by its identity in show
			}
			links, err := linksAfterBarrier(dirfd, pending[i].name, pending[i].fd, wk.w.absOf(pending[i].rel), &pending[i].st)
			if err != nil {
				_ = unix.Close(pending[i].fd)
				pending[i].fd = -1 // gone or swapped since: left out
				continue
			}
			if links > 1 {
				pending[i].st.Nlink = 2
			}
		}
	}); err != nil {
		closePending(pending)
		return err
	}
	for i, p := range pending {
		if p.fd < 0 {
			continue
		}
		if err := wk.show(p.rel, p.fd, &pending[i].st); err != nil {
			closePending(pending[i+1:])
			return err
		}
	}
	return nil
}

// removedIsGone is nil for the error of reading a folder removed since it
// was opened (the kernel's dead directory: ENOENT): its files are left out,
// as a folder that cannot be listed is, rather than the walk failed.
func removedIsGone(err error) error {
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	return err
}

// dropPending closes the files still waiting when a walk ends early.
func (wk *walker) dropPending() {
	closePending(wk.pending)
	wk.pending = nil
}

// closePending closes the descriptors of files that will not be visited.
func closePending(files []pendingFile) {
	for _, p := range files {
		if p.fd >= 0 {
			_ = unix.Close(p.fd)
		}
	}
}
