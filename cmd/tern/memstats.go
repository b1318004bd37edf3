package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// envMemStats names a file: when set, each SIGUSR1 makes tern collect
// garbage, return freed memory to the system and append one JSON line of
// memory figures to it (memSample), with a heap profile beside it in
// <file>.heap.<n> and the goroutines' stacks in <file>.goroutines.<n>. It is
// for measuring long sessions (the day-long benchmark of docs/speed.md),
// not a user setting, so it is not documented with the configuration.
const envMemStats = "TERN_MEMSTATS"

// memProfileRate is the heap profile's sampling rate under TERN_MEMSTATS.
const memProfileRate = 4 << 10

// memSample is one line of the TERN_MEMSTATS file.
type memSample struct {
	N          int       `json:"n"`
	Time       time.Time `json:"time"`
	Goroutines int       `json:"goroutines"`
	HeapAlloc  uint64    `json:"heap_alloc"`
	HeapInuse  uint64    `json:"heap_inuse"`
	HeapObj    uint64    `json:"heap_objects"`
	Sys        uint64    `json:"sys"`
	NumGC      uint32    `json:"num_gc"`
	// RSS is VmRSS after the collection, in bytes.
	RSS int64 `json:"rss"`
}

// memStatsOnSignal writes a memSample to path on each SIGUSR1 until ctx
// ends; the returned stop ends it sooner. With path empty it does nothing.
func memStatsOnSignal(ctx context.Context, path string) (stop func()) {
	if path == "" {
		return func() {}
	}
	// Sample the heap finely (every 4 KB allocated rather than 512 KB), so
	// the profiles of two samples can be compared object by object.
	runtime.MemProfileRate = memProfileRate
	ctx, cancel := context.WithCancel(ctx)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGUSR1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for n := 1; ; n++ {
			select {
			case <-ctx.Done():
				return
			case <-sig:
				// A failed write only loses a sample the benchmark then
				// misses; there is no one to tell.
				_ = writeMemSample(path, n)
			}
		}
	}()
	return func() {
		signal.Stop(sig)
		cancel()
		<-done
	}
}

// writeMemSample collects garbage and appends sample n to path, with its
// heap profile and goroutine stacks beside it.
func writeMemSample(path string, n int) error {
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	s := memSample{N: n, Time: time.Now().UTC(), Goroutines: runtime.NumGoroutine(), HeapAlloc: ms.HeapAlloc,
		HeapInuse: ms.HeapInuse, HeapObj: ms.HeapObjects, Sys: ms.Sys, NumGC: ms.NumGC, RSS: selfRSS()}
	for name, p := range map[string]struct {
		prof  string
		debug int
	}{".heap.": {"heap", 0}, ".goroutines.": {"goroutine", 1}} {
		f, err := os.Create(path + name + strconv.Itoa(n))
		if err != nil {
			return fmt.Errorf("memstats: %w", err)
		}
		err = pprof.Lookup(p.prof).WriteTo(f, p.debug)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("memstats: write %s profile: %w", p.prof, err)
		}
	}
	line, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("memstats: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("memstats: %w", err)
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("memstats: %w", err)
	}
	return nil
}

// selfRSS is this process's VmRSS in bytes, 0 when /proc cannot tell.
func selfRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
