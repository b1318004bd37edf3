//go:build linux

package tui

import (
	"runtime"
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/sys/unix"
)

// BenchmarkKeystrokePaced types as a person does, a key every 20 ms, into
// the input under three long answers, and reports what each key's Update,
// View and row-wise screen write cost (median and 90th percentile, and the
// heap allocated per key). Between keys the caches go cold and other
// processes run, as in the real interface, where a key cost several times
// what BenchmarkKeystroke's back-to-back keys cost; what a key touches
// (code, fresh memory) counts here as it does there. On demand: it sleeps.
//
//	go test -run XXX -bench KeystrokePaced -benchtime 200x ./tui/
func BenchmarkKeystrokePaced(b *testing.B) {
	m := keystrokeModel(b)
	sim := newScreenSim(120, 40)
	sim.flushRows(m.View().Content)
	// The thread's own CPU time, read from the kernel, counts only what
	// the key cost, not the time other processes ran meanwhile.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var samples, cpus []time.Duration
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	alloc0 := ms.TotalAlloc
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		time.Sleep(20 * time.Millisecond)
		cpu0 := threadCPU(b)
		start := time.Now()
		if i%60 == 59 {
			m.Update(tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl})
		} else {
			m.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
		}
		sim.flushRows(m.View().Content)
		samples = append(samples, time.Since(start))
		cpus = append(cpus, threadCPU(b)-cpu0)
	}
	b.StopTimer()
	runtime.ReadMemStats(&ms)
	slices.Sort(samples)
	slices.Sort(cpus)
	b.ReportMetric(float64(samples[len(samples)/2].Microseconds()), "us-median")
	b.ReportMetric(float64(samples[len(samples)*9/10].Microseconds()), "us-p90")
	b.ReportMetric(float64(cpus[len(cpus)/2].Microseconds()), "us-cpu-median")
	b.ReportMetric(float64(ms.TotalAlloc-alloc0)/float64(len(samples)), "B-alloc/key")
}

// threadCPU is the CPU time the calling OS thread has run.
func threadCPU(b *testing.B) time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		b.Fatalf("the thread's CPU time: %v", err)
	}
	return time.Duration(ts.Nano())
}
