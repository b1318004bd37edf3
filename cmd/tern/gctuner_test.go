package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

func TestGCPercentFor(t *testing.T) {
	t.Parallel()
	const mb = 1 << 20
	for _, c := range []struct {
		name     string
		live     uint64
		base     int
		want     int
		headroom uint64
	}{
		{"a small heap gets the headroom", 4 * mb, 100, 400, 16 * mb},
		{"a large heap keeps the base", 64 * mb, 100, 100, 16 * mb},
		{"the headroom equal to the heap", 16 * mb, 100, 100, 16 * mb},
		{"a tiny heap is capped", 1024, 100, maxGCPercent, 16 * mb},
		{"a higher base wins", 8 * mb, 300, 300, 16 * mb},
		{"collection off stays off", 4 * mb, -1, -1, 16 * mb},
		{"no heap read yet keeps the base", 0, 100, 100, 16 * mb},
	} {
		if got := gcPercentFor(c.live, c.headroom, c.base); got != c.want {
			t.Errorf("%s: gcPercentFor(%d, %d, %d) = %d, want %d", c.name, c.live, c.headroom, c.base, got, c.want)
		}
	}
}

// TestTunerFollowsCollections checks that the tuner runs after
// collections, sets GOGC from the live heap and that stopping it gives the
// process its own setting back. It changes process-wide settings, so it
// does not run in parallel.
func TestTunerFollowsCollections(t *testing.T) {
	old := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(old) })
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	// A headroom far above any test heap: the tuner must raise GOGC.
	stop := tuneCollector(1<<40, 100)
	if p := readGCPercent(); p != maxGCPercent {
		t.Errorf("GOGC is %d at once, want %d: the heap as it is was not used", p, maxGCPercent)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		s := readGCPercent()
		if s == maxGCPercent {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("GOGC is %d after collections, want %d", s, maxGCPercent)
		}
	}
	stop()
	if p := readGCPercent(); p != 100 {
		t.Errorf("GOGC is %d after stop, want 100 back", p)
	}
}

// readGCPercent reads GOGC without setting it, which could undo the
// tuner's setting made in between.
func readGCPercent() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(int64(s[0].Value.Uint64())) // off reads as -1
}

func TestTunerLeavesTheUsersSetting(t *testing.T) {
	t.Setenv("GOGC", "150")
	old := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(old) })
	stop := tuneCollector(1<<40, 150)
	defer stop()
	runtime.GC()
	time.Sleep(20 * time.Millisecond)
	if p := readGCPercent(); p != 150 {
		t.Errorf("GOGC is %d with GOGC=150 set by the user, want 150", p)
	}
}
