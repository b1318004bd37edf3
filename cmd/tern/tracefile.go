package main

import (
	"fmt"
	"os"
	"runtime/trace"
)

// traceEnv names a file that receives a runtime execution trace of the
// whole run: a hidden switch for measuring wake-ups (docs/speed.md), read
// with go tool trace FILE.
const traceEnv = "TERN_TRACE"

// startTrace starts tracing into the file named by TERN_TRACE, when set,
// and returns what stops it and closes the file. A trace that cannot start
// is reported and the run goes on without it.
func startTrace(getenv func(string) string) (stop func()) {
	path := getenv(traceEnv)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		_, _ = fmt.Fprintf(os.Stderr, "tern: %s: %v\n", traceEnv, err)
		return func() {}
	}
	if err := trace.Start(f); err != nil {
		_, _ = fmt.Fprintf(os.Stderr, "tern: %s: %v\n", traceEnv, err)
		_ = f.Close()
		return func() {}
	}
	return func() {
		trace.Stop()
		if err := f.Close(); err != nil {
			_, _ = fmt.Fprintf(os.Stderr, "tern: %s: %v\n", traceEnv, err)
		}
	}
}
