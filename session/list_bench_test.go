package session_test

import (
	"os"
	"testing"

	"github.com/ternhq/tern/internal/gen"
	"github.com/ternhq/tern/session"
)

// BenchmarkList lists generated sessions: 200 by default, or those under
// $TERN_BENCH_HOME (ternbench -gen sessions writes 10,000 there).
func BenchmarkList(b *testing.B) {
	home := os.Getenv("TERN_BENCH_HOME")
	if home == "" {
		home = b.TempDir()
		if err := gen.Sessions(home, "/ws", 200, 1); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := session.List(home); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkListIndexed is the picker's first list: the index alone, no
// folder read and no stat (same sessions as BenchmarkList).
func BenchmarkListIndexed(b *testing.B) {
	home := os.Getenv("TERN_BENCH_HOME")
	if home == "" {
		home = b.TempDir()
		if err := gen.Sessions(home, "/ws", 200, 1); err != nil {
			b.Fatal(err)
		}
		if _, err := session.List(home); err != nil { // writes the index
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		if len(session.ListIndexed(home)) == 0 {
			b.Fatal("no sessions indexed")
		}
	}
}
