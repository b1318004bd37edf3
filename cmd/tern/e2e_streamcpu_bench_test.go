package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The streaming-CPU comparison: the few figures of the streaming benchmark
// that cost CPU (a 60 KB answer at full speed and a 20 KB one at 4 KB/s, in
// the interface and in `tern run`), for several builds, alternated round by
// round so that each sees the same load. It runs on demand:
//
//	TERN_E2E_BENCH=1 TERN_E2E_BINS=/tmp/a,/tmp/b TERN_E2E_ROUNDS=3 go test -run TestE2EStreamCPUCompare -v ./cmd/tern/
//
// TERN_E2E_PERF_DIR=<dir> records the slow answers with perf
// (<dir>/<binary>.tui.perf and .run.perf; the run's CPU then includes perf's).
// TERN_E2E_PARTS=tui or =run measures only the interface or only tern run,
// =fast only the fast answer in the interface; TERN_E2E_TERN_ENV=K=V adds
// one variable to the interface's environment (TERN_CPUPROFILE=<file>).
// CPU is the whole process's, its waited-for children included, from /proc.
// It drives any build that answers the scripted gateway, old ones included:
// the input is found by its prompt mark, not by its placeholder.

// cpuFigures is one build's figures in one round.
type cpuFigures struct {
	fastCPU, fastEnd, slowPerSec, runSlowPerSec, runFastCPU float64
	// runShortCPU is tern run of a one-section answer: start-up and exit;
	// runSlowNet is the slow stream's CPU per second without it.
	runShortCPU, runSlowNet float64
	// slowSwitches is the interface's voluntary context switches (all its
	// threads) per second of the slow answer: its wake-ups, which cost
	// more CPU than the work they wake for, and a steadier figure than CPU
	// on a loaded machine.
	slowSwitches float64
	pressure     string
}

func TestE2EStreamCPUCompare(t *testing.T) {
	if os.Getenv("TERN_E2E_BENCH") != "1" {
		t.Skip("on demand: TERN_E2E_BENCH=1 TERN_E2E_BINS=a,b go test -run TestE2EStreamCPUCompare -v ./cmd/tern/")
	}
	needTmux(t)
	bins := strings.Split(os.Getenv("TERN_E2E_BINS"), ",")
	if bins[0] == "" {
		bins = []string{ternBin}
	}
	rounds := 3
	if n, err := strconv.Atoi(os.Getenv("TERN_E2E_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	times := make(chan streamed, 1)
	g := newSSEGateway(t, benchScript(times))
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "main.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := make([][]cpuFigures, len(bins))
	for r := range rounds {
		for i, bin := range bins {
			f := streamCPUOnce(t, g, times, ws, bin, r)
			got[i] = append(got[i], f)
			t.Logf("round %d %s: fast %.3f CPU s, end %.0f ms; slow %.3f CPU s/s, %.0f switches/s; run slow %.3f CPU s/s (%.3f without start-up); run fast %.3f CPU s; run short %.3f CPU s; pressure %s",
				r+1, bin, f.fastCPU, f.fastEnd*1000, f.slowPerSec, f.slowSwitches, f.runSlowPerSec, f.runSlowNet, f.runFastCPU, f.runShortCPU, f.pressure)
		}
	}
	var report strings.Builder
	for i, bin := range bins {
		col := func(pick func(cpuFigures) float64) string {
			var v []float64
			for _, f := range got[i] {
				v = append(v, pick(f))
			}
			slices.Sort(v)
			return fmt.Sprintf("%.3f [%.3f-%.3f]", v[len(v)/2], v[0], v[len(v)-1])
		}
		fmt.Fprintf(&report, "\n  %s\n    60 KB fast, CPU s:          %s\n    60 KB fast, end (s):        %s\n    4 KB/s, CPU s/s:            %s\n    4 KB/s, switches/s:         %s\n    tern run 4 KB/s, CPU s/s:   %s\n    tern run 4 KB/s, net CPU s/s: %s\n    tern run 60 KB fast, CPU s: %s\n    tern run short, CPU s:      %s",
			bin,
			col(func(f cpuFigures) float64 { return f.fastCPU }),
			col(func(f cpuFigures) float64 { return f.fastEnd }),
			col(func(f cpuFigures) float64 { return f.slowPerSec }),
			col(func(f cpuFigures) float64 { return f.slowSwitches }),
			col(func(f cpuFigures) float64 { return f.runSlowPerSec }),
			col(func(f cpuFigures) float64 { return f.runSlowNet }),
			col(func(f cpuFigures) float64 { return f.runFastCPU }),
			col(func(f cpuFigures) float64 { return f.runShortCPU }))
	}
	t.Logf("medians [ranges] of %d rounds:%s", rounds, report.String())
}

// streamCPUOnce measures one build once: in a fresh tmux server, a fast and
// a slow answer in the interface, then both headless.
func streamCPUOnce(t *testing.T, g *sseGateway, times chan streamed, ws, bin string, round int) cpuFigures {
	t.Helper()
	var f cpuFigures
	f.pressure = cpuPressure()
	parts := os.Getenv("TERN_E2E_PARTS")
	if parts == "" || strings.Contains(parts, "tui") || parts == "fast" {
		streamCPUInterface(t, g, times, ws, bin, round, &f)
	}
	if parts == "" || strings.Contains(parts, "run") {
		streamCPUHeadless(t, g, times, bin, &f)
	}
	return f
}

// streamCPUInterface measures a fast and a slow answer in the interface.
func streamCPUInterface(t *testing.T, g *sseGateway, times chan streamed, ws, bin string, round int, f *cpuFigures) {
	t.Helper()
	env := tmuxEnv(t, g.srv.URL)
	if extra := os.Getenv("TERN_E2E_TERN_ENV"); extra != "" {
		env = append(env, extra)
	}
	s := startTmux(t, env, ws, "exec "+shellQuote(bin))
	b := &bench{t: t, c: s.control(), target: tmuxSession + ":0"}
	b.poll(b.target, 5*time.Millisecond, "the input", func(scr string) bool {
		_, ok := inputLine(scr)
		return ok
	})
	pid, err := strconv.Atoi(strings.TrimSpace(b.must("display-message -p -t " + b.target + " '#{pane_pid}'")))
	if err != nil {
		t.Fatal(err)
	}
	p := treeProc{t: t, pid: pid}
	time.Sleep(200 * time.Millisecond) // start-up settles
	end, cpu, _ := b.answer(p, fmt.Sprintf("fast %d", round+1), times)
	f.fastEnd, f.fastCPU = end.Seconds(), cpu.Seconds()
	var stop func()
	if dir := os.Getenv("TERN_E2E_PERF_DIR"); dir != "" {
		stop = perfRecord(t, pid, filepath.Join(dir, filepath.Base(bin)), ".tui.perf")
	}
	if os.Getenv("TERN_E2E_PARTS") == "fast" {
		b.must("send-keys -t " + b.target + " C-c")
		b.must("send-keys -t " + b.target + " C-c")
		time.Sleep(300 * time.Millisecond) // a profile is written on the way out
		_, _ = s.run("kill-server")
		return
	}
	cs := contextSwitches(pid)
	_, cpu, took := b.answer(p, fmt.Sprintf("slow %d", round+1), times)
	f.slowSwitches = float64(contextSwitches(pid)-cs) / took.Seconds()
	if stop != nil {
		stop()
	}
	f.slowPerSec = cpu.Seconds() / took.Seconds()
	b.must("send-keys -t " + b.target + " C-c")
	time.Sleep(100 * time.Millisecond) // tern quits before its server goes
	_, _ = s.run("kill-server")
}

// streamCPUHeadless measures tern run of a slow and a fast answer.
func streamCPUHeadless(t *testing.T, g *sseGateway, times chan streamed, bin string, f *cpuFigures) {
	t.Helper()
	runCPU := func(prompt string) (time.Duration, streamed) {
		cmd := exec.Command(bin, "run", prompt)
		if dir := os.Getenv("TERN_E2E_PERF_DIR"); dir != "" && strings.HasPrefix(prompt, "slow") {
			out := filepath.Join(dir, filepath.Base(bin)+".run.perf")
			cmd = exec.Command("perf", "record", "-F", "1999", "-g", "-o", out, "--", bin, "run", prompt)
		}
		cmd.Dir = t.TempDir()
		cmd.Env = tmuxEnv(t, g.srv.URL)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s run %s: %v\n%s", bin, prompt, err, out)
		}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && strings.HasPrefix(prompt, "slow") {
			t.Logf("%s run %s: %d voluntary and %d involuntary context switches", bin, prompt, ru.Nvcsw, ru.Nivcsw)
		}
		return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), <-times
	}
	short, _ := runCPU("short")
	c, st := runCPU("slow 9")
	f.runShortCPU = short.Seconds()
	f.runSlowPerSec = c.Seconds() / st.last.Sub(st.first).Seconds()
	f.runSlowNet = (c - short).Seconds() / st.last.Sub(st.first).Seconds()
	c, _ = runCPU("fast 9")
	f.runFastCPU = c.Seconds()
}

// treeProc is a process whose CPU counts its waited-for children's too.
type treeProc struct {
	t   testing.TB
	pid int
}

// cpu is the process's own CPU (as proc's, to the nanosecond where the
// kernel keeps it) plus its waited-for children's (cutime and cstime).
func (p treeProc) cpu() time.Duration {
	p.t.Helper()
	return proc(p).cpu() + statTicks(p.t, p.pid, 13, 14)
}

// contextSwitches sums the voluntary context switches of pid's threads.
func contextSwitches(pid int) int64 {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/status", pid))
	var n int64
	for _, task := range tasks {
		b, err := os.ReadFile(task)
		if err != nil {
			continue // the thread ended
		}
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "voluntary_ctxt_switches:"); ok {
				k, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
				n += k
			}
		}
	}
	return n
}
