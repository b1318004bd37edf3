package main

import (
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/internal/gen"
)

// The many-sessions benchmark (issue 20): `tern sessions` and the /resume
// picker over 10,000 recorded sessions (internal/gen), the picker measured
// on screen in a 120x40 tmux pane like TestE2EStreamingBench. On demand:
//
//	TERN_E2E_BENCH=1 go test -run TestE2ESessionsBench -v ./cmd/tern/
//
// Generating the sessions takes a minute on a busy machine; to reuse them,
// write them once (ternbench -gen sessions -home H -workspace W -n 10000)
// and pass TERN_BENCH_HOME=H TERN_BENCH_WORKSPACE=W. With
// TERN_E2E_BIN=<path> (a binary named tern) it measures that build.

// Targets of issue 20 for many sessions.
const (
	targetSessionsList = 200 * time.Millisecond
	targetPicker       = 200 * time.Millisecond
	manySessions       = 10000
	sessionsRuns       = 5
)

func TestE2ESessionsBench(t *testing.T) {
	if os.Getenv("TERN_E2E_BENCH") != "1" {
		t.Skip("the many-sessions benchmark runs on demand: TERN_E2E_BENCH=1 go test -run TestE2ESessionsBench -v ./cmd/tern/")
	}
	needTmux(t)
	home, ws := os.Getenv("TERN_BENCH_HOME"), os.Getenv("TERN_BENCH_WORKSPACE")
	if home == "" || ws == "" {
		home, ws = t.TempDir(), t.TempDir()
		if err := gen.Sessions(home, ws, manySessions, 1); err != nil {
			t.Fatal(err)
		}
	}
	g := newSSEGateway(t, func(s *sse, _ chatRequest, _ *http.Request) { s.event("data: [DONE]\n\n") })
	env := tmuxEnv(t, g.srv.URL)
	for i, e := range env {
		if strings.HasPrefix(e, "TERN_HOME=") {
			env[i] = "TERN_HOME=" + home
		}
	}
	pressureAtStart := cpuPressure()

	// tern sessions, the index in place (the first run builds it if not).
	list := func() (cpu, wall time.Duration, lines int) {
		cmd := exec.Command(ternBin, "sessions")
		cmd.Dir, cmd.Env = ws, env
		start := time.Now()
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("tern sessions: %v", err)
		}
		return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), time.Since(start), strings.Count(string(out), "\n")
	}
	if _, _, n := list(); n < manySessions {
		t.Fatalf("tern sessions listed %d lines, want %d sessions and a heading", n, manySessions)
	}
	var walls, cpus []time.Duration
	for range sessionsRuns {
		cpu, wall, _ := list()
		walls, cpus = append(walls, wall), append(cpus, cpu)
	}

	// The picker: /resume typed, then Enter until its first rows show.
	s := startTmux(t, env, ws, "exec cat")
	b := &bench{t: t, c: s.control()}
	var picks []time.Duration
	for i := range resumeRuns {
		win, _, _, _ := b.launch(i, ws)
		b.typed(win, "/resume")
		b.poll(win, 5*time.Millisecond, "/resume typed", func(scr string) bool {
			l, ok := inputLine(scr)
			return ok && strings.HasPrefix(l, "/resume")
		})
		start := time.Now()
		b.must("send-keys -t " + win + " Enter")
		seen := b.poll(win, 2*time.Millisecond, "the picker's first rows", func(scr string) bool {
			return strings.Contains(scr, "Resume a session") && strings.Contains(scr, "messages ·")
		})
		picks = append(picks, seen.Sub(start))
		b.must("kill-window -t " + win)
	}

	r := func(d time.Duration) string { return d.Round(100 * time.Microsecond).String() }
	t.Logf("many-sessions benchmark (tern %s, %d sessions; CPU pressure at the start %s, at the end %s):"+
		"\n  tern sessions: wall (median of %d, range %s-%s) %s  target ≤ %v; CPU (median, range %s-%s) %s"+
		"\n  /resume Enter → picker's first rows on screen (median of %d, range %s-%s) %s  target ≤ %v",
		ternBin, manySessions, pressureAtStart, cpuPressure(),
		sessionsRuns, r(slices.Min(walls)), r(slices.Max(walls)), r(median(walls)), targetSessionsList,
		r(slices.Min(cpus)), r(slices.Max(cpus)), r(median(cpus)),
		resumeRuns, r(slices.Min(picks)), r(slices.Max(picks)), r(median(picks)), targetPicker)
	benchTable(t, "tern sessions, "+strconv.Itoa(manySessions)+" sessions: wall (median of "+strconv.Itoa(sessionsRuns)+")", r(median(walls)), "≤ 200ms", median(walls) <= targetSessionsList)
	benchTable(t, "/resume Enter → picker's first rows, "+strconv.Itoa(manySessions)+" sessions (median of "+strconv.Itoa(resumeRuns)+")", r(median(picks)), "≤ 200ms", median(picks) <= targetPicker)
	if median(walls) > targetSessionsList {
		t.Errorf("tern sessions over %d sessions took %v, want ≤ %v", manySessions, median(walls), targetSessionsList)
	}
	if median(picks) > targetPicker {
		t.Errorf("the /resume picker over %d sessions opened in %v, want ≤ %v", manySessions, median(picks), targetPicker)
	}
}
