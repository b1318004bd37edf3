package tui

import (
	"os"
	"strconv"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/internal/gen"
)

// BenchmarkResumeFirstFrame measures what `tern -c` does before its first
// frame, in process: find and load the newest session, rebuild its state,
// replay its events into a new interface and draw the first frame at 120x40. The
// session is generated (internal/gen) with 200 turns, or TERN_BENCH_TURNS
// (issue 20's long session: 2000). Each phase is reported apart.
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
	var load, model, frame time.Duration
	cpu0 := cpuTime()
	for b.Loop() {
		t0 := time.Now()
		saved, err := app.Find(home, ws, app.Choice{Mode: app.ResumeLatest})
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		fb := newFakeBackend()
		m := newModel(b.Context(), Options{App: fb, Theme: "dark", Workspace: ws, Replay: saved.Replay()}, noEnv)
		t2 := time.Now()
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		_ = m.View()
		t3 := time.Now()
		fb.close()
		load, model, frame = load+t1.Sub(t0), model+t2.Sub(t1), frame+t3.Sub(t2)
	}
	cpu := cpuTime() - cpu0
	n := float64(b.N) * float64(time.Millisecond)
	b.ReportMetric(float64(cpu)/n, "cpu-ms")
	b.ReportMetric(float64(load)/n, "ms-load")
	b.ReportMetric(float64(model)/n, "ms-model")
	b.ReportMetric(float64(frame)/n, "ms-frame")
}
