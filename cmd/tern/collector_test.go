package main

import (
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"
)

// TestPauseCollectorRestoresSettings checks that the start-up pause turns
// collection off with a bounded heap, then gives back exactly the settings
// the process had (a user's GOGC and GOMEMLIMIT included). It changes
// process-wide settings, so it does not run in parallel.
func TestPauseCollectorRestoresSettings(t *testing.T) {
	const percent, limit = 77, 48 << 20
	oldPercent := debug.SetGCPercent(percent)
	oldLimit := debug.SetMemoryLimit(limit)
	t.Cleanup(func() {
		debug.SetGCPercent(oldPercent)
		debug.SetMemoryLimit(oldLimit)
	})
	// readPercent reads GOGC without setting it, which could race with the
	// restore.
	readPercent := func() int {
		s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
		metrics.Read(s)
		return int(int64(s[0].Value.Uint64())) // off reads as -1
	}

	const pause = 50 * time.Millisecond
	pauseCollector(pause, nil)
	if p := readPercent(); p != -1 {
		t.Errorf("during the pause GOGC is %d, want -1 (off)", p)
	}
	if l := debug.SetMemoryLimit(-1); l != min(limit, pausedHeapLimit) {
		t.Errorf("during the pause the memory limit is %d, want %d", l, min(limit, pausedHeapLimit))
	}
	deadline := time.Now().Add(5 * time.Second)
	for readPercent() != percent {
		if time.Now().After(deadline) {
			t.Fatalf("5 s after a %v pause GOGC is %d, want %d back", pause, readPercent(), percent)
		}
		time.Sleep(pause / 5)
	}
	if l := debug.SetMemoryLimit(-1); l != limit {
		t.Errorf("after the pause the memory limit is %d, want %d back", l, limit)
	}
	// A resume function is handed the GOGC to restore, and sets it.
	var handed atomic.Int64
	handed.Store(-2)
	pauseCollector(pause, func(p int) { handed.Store(int64(p)) })
	for handed.Load() != percent {
		if time.Now().After(deadline) {
			t.Fatalf("the resume function was handed %d, want %d", handed.Load(), percent)
		}
		time.Sleep(pause / 5)
	}
	if p := readPercent(); p != -1 {
		t.Errorf("GOGC is %d after a resume function that set nothing, want -1 still", p)
	}
	debug.SetGCPercent(percent)
}
