package openai

import (
	"context"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
)

// BenchmarkWatchdogPerEvent measures what the bounded waits add to each
// stream event: fill marks the start of a wait and the arrival of data.
func BenchmarkWatchdogPerEvent(b *testing.B) {
	_, w := startWatchdog(context.Background(), time.Hour, time.Hour,
		func(string, time.Duration) *provider.Error { return nil })
	defer w.stop()
	w.gotData()
	for b.Loop() {
		w.waiting()
		w.gotData()
	}
}
