package main

import (
	"runtime/debug"
	"time"
)

const (
	// collectorPause is how long start-up runs without collections: longer
	// than it takes to reach the first frame on a busy machine, short
	// enough that the process soon collects as configured.
	collectorPause = 300 * time.Millisecond
	// pausedHeapLimit bounds the heap while collections are paused, so an
	// unusually large start (resuming a long session) still collects.
	pausedHeapLimit = 64 << 20
)

// pauseCollector stops garbage collection for d, then restores
// the settings the process started with (GOGC and GOMEMLIMIT included); a
// resume function, if given, is handed the GOGC to restore and sets it.
// Start-up allocates a few MB that mostly stay live; collecting them on the
// way to the interface's first frame delays it more than skipping the
// collections costs in RSS (the launch rows of cmd/tern/e2e_bench_test.go).
func pauseCollector(d time.Duration, resume func(percent int)) {
	percent := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(-1) // a negative limit reads it without changing it
	debug.SetMemoryLimit(min(limit, pausedHeapLimit))
	time.AfterFunc(d, func() {
		debug.SetMemoryLimit(limit)
		if resume == nil {
			debug.SetGCPercent(percent)
			return
		}
		resume(percent)
	})
}
