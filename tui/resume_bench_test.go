package tui

import (
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/internal/gen"
)

// BenchmarkResumeFirstFrame measures what `tern -c` does before its first
// frame, in process: find the newest session, read its last turns from the
// end of its log (app.Located.Preview), render them into a new interface
// and draw the first frame at 120x40 (ms-first); then what follows the
// frame: read the whole log back and replace the preview by its transcript
// (ms-rest, as Session.Open and onContinued do). The session is generated
// (internal/gen) with 200 turns, or TERN_BENCH_TURNS (issue 20's long
// session: 2000). cpu-ms is the process's CPU time for both, cpu-ms-first for the first.
func BenchmarkResumeFirstFrame(b *testing.B) {
	turns := 200
	if v, err := strconv.Atoi(os.Getenv("TERN_BENCH_TURNS")); err == nil && v > 0 {
		turns = v
	}
	home, ws := b.TempDir(), b.TempDir()
	if _, err := gen.Session(home, gen.SessionSpec{Turns: turns, CompactEvery: 400, Seed: 1, Workspace: ws,
		Created: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Title: "bench"}); err != nil {
		b.Fatal(err)
	}
	var first, rest, cpuFirst time.Duration
	cpu0 := cpuTime()
	for b.Loop() {
		c0 := cpuTime()
		t0 := time.Now()
		at, err := app.Locate(home, ws, app.Choice{Mode: app.ResumeLatest})
		if err != nil {
			b.Fatal(err)
		}
		fb := newFakeBackend()
		m := newModel(b.Context(), Options{App: fb, Theme: "dark", Workspace: ws, Replay: slices.Values(at.Preview()), Continue: at.ID()}, noEnv)
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		_ = m.View()
		t1 := time.Now()
		cpuFirst += cpuTime() - c0
		saved, err := app.Find(home, ws, app.Choice{Mode: app.ResumeLatest})
		if err != nil {
			b.Fatal(err)
		}
		m.continuing = true
		m.Update(switchMsg{sw: &app.Switch{ID: saved.ID(), Replay: saved.Replay()}, what: "resume"})
		_ = m.View()
		t2 := time.Now()
		fb.close()
		first, rest = first+t1.Sub(t0), rest+t2.Sub(t1)
	}
	cpu := cpuTime() - cpu0
	n := float64(b.N) * float64(time.Millisecond)
	b.ReportMetric(float64(cpu)/n, "cpu-ms")
	b.ReportMetric(float64(first)/n, "ms-first")
	b.ReportMetric(float64(cpuFirst)/n, "cpu-ms-first")
	b.ReportMetric(float64(rest)/n, "ms-rest")
}
