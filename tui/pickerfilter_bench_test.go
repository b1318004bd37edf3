package tui

import (
	"fmt"
	"syscall"
	"testing"
	"time"
)

// bigFileItems returns n picker rows shaped like the big repository's paths.
func bigFileItems(n int) []palItem {
	items := make([]palItem, n)
	for i := range items {
		p := fmt.Sprintf("d%d/s%d/t%d/f%d.go", i%20, (i/20)%50, (i/1000)%200, i)
		items[i] = palItem{value: p, label: p}
	}
	return items
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkMatchItems50k measures filtering 50,000 paths for a keystroke;
// cpu-ms/op is the process's CPU time per filter, which a loaded machine
// inflates less than the wall time.
func BenchmarkMatchItems50k(b *testing.B) {
	items := bigFileItems(50000)
	for _, q := range []string{"f", "f12", "s11f1234", "zzz"} {
		b.Run(q, func(b *testing.B) {
			start := cpuTime()
			for b.Loop() {
				matchItems(items, q)
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
		})
	}
}
