package session_test

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/ternhq/tern/internal/gen"
	"github.com/ternhq/tern/session"
)

// BenchmarkPreview is the guard of what `tern -c` reads before its first
// frame: the last turns of a generated session (200 turns, or
// TERN_BENCH_TURNS), found by LatestLog and read by Preview. Its cost must
// not grow with the session (2,000 turns cost as much as 200).
func BenchmarkPreview(b *testing.B) {
	turns := 200
	if v, err := strconv.Atoi(os.Getenv("TERN_BENCH_TURNS")); err == nil && v > 0 {
		turns = v
	}
	home, ws := b.TempDir(), b.TempDir()
	if _, err := gen.Session(home, gen.SessionSpec{Turns: turns, CompactEvery: 400, Seed: 1, Workspace: ws,
		Created: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		info, err := session.LatestLog(home, ws)
		if err != nil {
			b.Fatal(err)
		}
		evs, err := session.Preview(info.Path)
		if err != nil || len(evs) == 0 {
			b.Fatal(err, len(evs))
		}
	}
}
