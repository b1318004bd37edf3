package main

import (
	"os"
	"os/signal"
	"syscall"
)

// warmSignals starts, beside the configuration and wiring of a run, the
// thread the Go runtime keeps for changing the signal mask, and returns a
// channel closed once it runs. The runtime starts that thread at a
// program's first signal.Notify and waits for it there: `tern run`'s
// SIGINT handler, installed just before the turn, waited 0.8 ms for it
// (stamps of a short run; a new thread in this cgo build). SIGWINCH is
// asked for and released at once: its default is to be ignored, as it is
// again after Stop, so nothing the process does changes.
func warmSignals() <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, syscall.SIGWINCH)
		signal.Stop(ch)
	}()
	return done
}
