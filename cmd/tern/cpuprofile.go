package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// cpuProfileEnv names a file that receives a CPU profile of the whole run:
// a hidden switch for measuring (docs/speed.md), read as go tool pprof
// tern FILE.
const cpuProfileEnv = "TERN_CPUPROFILE"

// startCPUProfile starts profiling into the file named by TERN_CPUPROFILE,
// when set, and returns what stops it and writes the file. A profile that
// cannot start is reported and the run goes on without it.
func startCPUProfile(getenv func(string) string) (stop func()) {
	path := getenv(cpuProfileEnv)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		_, _ = fmt.Fprintf(os.Stderr, "tern: %s: %v\n", cpuProfileEnv, err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_, _ = fmt.Fprintf(os.Stderr, "tern: %s: %v\n", cpuProfileEnv, err)
		_ = f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			_, _ = fmt.Fprintf(os.Stderr, "tern: %s: %v\n", cpuProfileEnv, err)
		}
	}
}
