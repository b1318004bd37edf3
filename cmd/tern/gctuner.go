package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

const (
	// heapHeadroom is the least the interface's heap may grow between two
	// collections. With Go's default (GOGC=100) a fresh session's 4-5 MB
	// of live heap was collected about three times in every long answer
	// (14 collections in five 60 KB answers, 8 with this headroom), about
	// a seventh of the answer's CPU (0.073 -> 0.062 CPU-s, 11 alternated
	// rounds), for 1 MB of RSS (39.6 -> 40.5 MB after the five answers).
	// 16 MB saved no more CPU and cost 12 MB.
	heapHeadroom = 8 << 20
	// maxGCPercent bounds the percentage when the live heap is tiny.
	maxGCPercent = 800
)

// gcPercentFor is the GOGC that leaves at least headroom bytes between a
// live heap of live bytes and the next collection, and never less than
// base (the process's own setting): a large heap keeps base, so a long
// session's RSS does not grow by a multiple.
func gcPercentFor(live, headroom uint64, base int) int {
	if base < 0 || live == 0 {
		return base
	}
	p := int(min(headroom*100/live, maxGCPercent))
	return max(base, p)
}

// gcTuner sets GOGC after each collection from the live heap it left
// (gcPercentFor). It runs as a cleanup of a sentinel the collector frees,
// so it costs nothing between collections.
type gcTuner struct {
	headroom uint64
	base     int

	mu      sync.Mutex
	stopped bool
	percent int
	tunes   int
	sample  []metrics.Sample
}

// sentinel is what the tuner waits to see collected: large enough not to
// share a tiny-allocator block, whose cleanups may never run.
type sentinel struct {
	_ [16]byte
	_ *int
}

// tuneCollector sets GOGC from base (the process's own setting) and starts
// a gcTuner over it, returning the function that stops it and restores
// base. The first setting comes from the heap as it is, before any
// collection has measured what of it lives: start-up's allocations mostly
// stay live, and the default would collect at once. A GOGC or GOMEMLIMIT
// in the environment is the user's choice: then base is set and nothing is
// tuned.
func tuneCollector(headroom uint64, base int) (stop func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		debug.SetGCPercent(base)
		return func() {}
	}
	t := &gcTuner{headroom: headroom, base: base,
		sample: []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}}
	metrics.Read(t.sample)
	t.percent = gcPercentFor(t.sample[0].Value.Uint64(), headroom, base)
	debug.SetGCPercent(t.percent)
	t.sample[0].Name = "/gc/heap/live:bytes"
	t.arm()
	return t.stop
}

// arm waits for the next collection.
func (t *gcTuner) arm() {
	runtime.AddCleanup(&sentinel{}, (*gcTuner).tune, t)
}

// tune runs after a collection: it sets GOGC for the heap that collection
// left, then waits for the next one.
func (t *gcTuner) tune() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return
	}
	metrics.Read(t.sample)
	if t.sample[0].Value.Kind() == metrics.KindUint64 {
		if p := gcPercentFor(t.sample[0].Value.Uint64(), t.headroom, t.base); p != t.percent {
			debug.SetGCPercent(p)
			t.percent = p
		}
	}
	t.tunes++
	t.arm()
}

// stop ends the tuning and restores the setting it started from.
func (t *gcTuner) stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return
	}
	t.stopped = true
	debug.SetGCPercent(t.base)
}
