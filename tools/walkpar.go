package tools

import (
	"context"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// parQueuedMax bounds the opened folders waiting in a parallel walk's
// queue; past it a walker walks a subfolder itself, depth first, so a
// folder with 100,000 subfolders does not run out of descriptors.
const parQueuedMax = 256

// walkOrderLess reports whether the workspace path a comes before b in a
// walk's order: depth first, each folder's entries sorted by name. That is
// the order of the paths compared name by name, which is byte order with
// "/" below every other byte.
func walkOrderLess(a, b string) bool {
	n := min(len(a), len(b))
	for i := range n {
		ca, cb := a[i], b[i]
		if ca == cb {
			continue
		}
		if ca == '/' {
			return true
		}
		if cb == '/' {
			return false
		}
		return ca < cb
	}
	return len(a) < len(b)
}

// parDir is a folder waiting in a parallel walk: opened by its parent
// without following a symlink, with the ignore files of its parents.
type parDir struct {
	d     *os.File
	rel   string
	stack ignoreStack
}

// parWalk is the shared state of one parallel walk: a stack of opened
// folders that its walkers take from and add to.
type parWalk struct {
	mu     sync.Mutex
	cond   *sync.Cond
	queue  []parDir
	active int    // folders being walked
	err    error  // the first error, which stops every walker
	cancel func() // ends the walkers' context
}

// walkFilesParallel is walkFiles with workers walkers taking folders from
// a shared queue, each visiting the files of its folders with the visitor
// newVisit made for it, so the walk and the reading of files overlap and
// use every CPU. Every guard of walkFiles holds (it is the same walker per
// folder); only the order differs: files are visited in no fixed order
// (sort by walkOrderLess to restore walkFiles'). A visitor or ctx ending
// the walk stops every walker at its next folder or file.
func walkFilesParallel(ctx context.Context, w *Workspace, startRel string, opts walkOptions, workers int, newVisit func() func(walkFile) error) (walkStats, error) {
	var total walkStats
	if startRel == "." {
		startRel = ""
	}
	info, err := w.statInside(startRel)
	if workers < 2 || err != nil || !info.IsDir() {
		// A file, or one walker: the plain walk does it (and words errors).
		return walkFiles(ctx, w, startRel, opts, newVisit())
	}
	r, done, err := w.fsRoot()
	if err != nil {
		return total, err
	}
	defer done()
	if inGitDir(startRel) {
		return total, &shownError{gitRefusal(startRel)}
	}
	// O_NONBLOCK: the name may have become a FIFO since the look above,
	// and opening one to read would wait for a writer, past cancellation.
	f, err := openExact(r, startRel, unix.O_NONBLOCK)
	if err != nil {
		return total, rootError(startRel, err)
	}
	if fi, err := f.Stat(); err != nil || !fi.IsDir() {
		// Swapped for a file since the look above: walked as one.
		_ = f.Close()
		return walkFiles(ctx, w, startRel, opts, newVisit())
	}
	idx := new(secretIndex)
	// The walkers' context ends with ctx or at the first error, so one
	// walker failing stops the others at their next folder or file.
	outer := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pw := &parWalk{cancel: cancel}
	pw.cond = sync.NewCond(&pw.mu)
	stop := context.AfterFunc(ctx, func() {
		pw.mu.Lock()
		pw.cond.Broadcast()
		pw.mu.Unlock()
	})
	defer stop()
	seed := &walker{ctx: ctx, w: w, r: r, opts: opts, stats: &total, idx: idx}
	pw.queue = append(pw.queue, parDir{d: f, rel: startRel, stack: seed.ignoresFor(startRel)})

	stats := make([]walkStats, workers)
	var wg sync.WaitGroup
	for i := range workers {
		wk := &walker{ctx: ctx, w: w, r: r, opts: opts, visit: newVisit(), stats: &stats[i], idx: idx}
		wk.spawn = pw.offer
		wg.Add(1)
		go func() {
			defer wg.Done()
			pw.run(wk)
		}()
	}
	wg.Wait()
	for _, q := range pw.queue {
		_ = q.d.Close()
	}
	for _, s := range stats {
		total.secret += s.secret
	}
	if pw.err == nil {
		pw.err = outer.Err()
	}
	return total, pw.err
}

// run walks folders from the queue until it is empty and no walker is
// busy (one could add more), or the walk failed or was cancelled.
func (pw *parWalk) run(wk *walker) {
	for {
		pw.mu.Lock()
		for len(pw.queue) == 0 && pw.active > 0 && pw.err == nil && wk.ctx.Err() == nil {
			pw.cond.Wait()
		}
		if len(pw.queue) == 0 || pw.err != nil || wk.ctx.Err() != nil {
			pw.cond.Broadcast()
			pw.mu.Unlock()
			return
		}
		t := pw.queue[len(pw.queue)-1]
		pw.queue = pw.queue[:len(pw.queue)-1]
		pw.active++
		pw.mu.Unlock()

		err := wk.dir(t.d, t.rel, t.stack)
		wk.dropPending()
		_ = t.d.Close()

		pw.mu.Lock()
		pw.active--
		if err != nil && pw.err == nil {
			pw.err = err
			pw.cancel()
		}
		if pw.active == 0 || pw.err != nil {
			pw.cond.Broadcast()
		}
		pw.mu.Unlock()
	}
}

// offer queues the opened subfolder sub for any walker; false (the queue is
// full, or the walk is ending) leaves it to the caller.
func (pw *parWalk) offer(sub *os.File, rel string, stack ignoreStack) bool {
	pw.mu.Lock()
	defer pw.mu.Unlock()
	if len(pw.queue) >= parQueuedMax || pw.err != nil {
		return false
	}
	pw.queue = append(pw.queue, parDir{d: sub, rel: rel, stack: stack})
	pw.cond.Signal()
	return true
}
