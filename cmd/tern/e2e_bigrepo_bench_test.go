package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sahilm/fuzzy"

	"github.com/ternhq/tern/internal/gen"
	"github.com/ternhq/tern/tools"
)

// The big-repository benchmark (issue 20): a generated repository of
// 200,000 files (internal/gen: nested folders, a 2,000-rule .gitignore,
// three 10 MB files). It measures, alternating runs:
//   - start-up to the ready prompt there and in a small repository;
//   - the @ picker in a 120x40 tmux pane: `@` → its first rows on screen,
//     the whole 50,000-file list, and each keystroke of a query → the rows
//     the picker's ranking (sahilm/fuzzy's, which it reproduces) puts first
//     and their count on screen;
//   - the grep and list_files tools, in this process, against ripgrep on
//     the same tree (`rg PATTERN`, `rg --files`), when rg is installed.
//
// On demand, not in CI:
//
//	TERN_E2E_BENCH=1 TERN_BENCH_REPO=/tmp/repo go test -run TestE2EBigRepoBench -v ./cmd/tern/
//
// TERN_BENCH_SKIP_TOOLS=1 leaves the tools out (they take minutes).
// TERN_BENCH_REPO names a repository made by `ternbench -gen repo -n 200000`
// (git init'ed, so that ripgrep honours its .gitignore too); without it one
// is generated in a temporary folder, which takes a minute. With
// TERN_E2E_BIN=<path> it measures that build's interface instead (the tools
// are this tree's).

// Targets of issue 20 for a big repository.
const (
	targetPickerFirst = 100 * time.Millisecond
	targetPickerKey   = 16 * time.Millisecond
	targetVsRipgrep   = 1.2
	repoRuns          = 5
)

func TestE2EBigRepoBench(t *testing.T) {
	if os.Getenv("TERN_E2E_BENCH") != "1" {
		t.Skip("the big-repository benchmark runs on demand: TERN_E2E_BENCH=1 TERN_BENCH_REPO=/tmp/repo go test -run TestE2EBigRepoBench -v ./cmd/tern/")
	}
	needTmux(t)
	repo := os.Getenv("TERN_BENCH_REPO")
	if repo == "" {
		repo = t.TempDir()
		if err := gen.Repo(repo, gen.RepoSpec{Files: 200000, Big: 3, IgnoreRules: 2000, Seed: 1}); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
			t.Logf("git init: %v %s (ripgrep will not honour the .gitignore)", err, out)
		}
	}
	small := t.TempDir()
	if err := os.WriteFile(filepath.Join(small, "main.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pressure := []string{cpuPressure()}

	// The picker's list, and the rows and count it must show for a query.
	w, err := tools.NewWorkspace(repo)
	if err != nil {
		t.Fatal(err)
	}
	list, err := w.ListFiles(context.Background(), 50000)
	if err != nil {
		t.Fatal(err)
	}

	g := newSSEGateway(t, func(s *sse, _ chatRequest, _ *http.Request) { s.event("data: [DONE]\n\n") })
	s := startTmux(t, tmuxEnv(t, g.srv.URL), repo, "exec cat")
	b := &bench{t: t, c: s.control(), out: s.outputs()}
	echo := tmuxSession + ":0"
	var floor []time.Duration
	for i := range 10 {
		c := string(rune('a' + i))
		want := strings.Repeat("x", i) + c
		floor = append(floor, b.keystroke(echo, c, func(scr string) bool { return strings.Contains(scr, want) }))
		b.must("send-keys -t " + echo + " BSpace")
		b.typed(echo, "x")
	}

	// Start-up: the big repository and the small one, alternated.
	var bigLaunch, smallLaunch []time.Duration
	for i := range repoRuns {
		win, _, took, _ := b.launch(2*i, repo)
		bigLaunch = append(bigLaunch, took)
		b.must("kill-window -t " + win)
		win, _, took, _ = b.launch(2*i+1, small)
		smallLaunch = append(smallLaunch, took)
		b.must("kill-window -t " + win)
	}
	pressure = append(pressure, cpuPressure())

	// The picker, in a fresh tern each run.
	var first, whole, keys, again []time.Duration
	queries := []string{"s", "s1", "s12", "s12t", "s12t3", "s12t34"}
	for i := range repoRuns {
		win, _, _, _ := b.launch(100+i, repo)
		b.target = win
		b.typed(win, "see ")
		b.poll(win, time.Millisecond, "see typed", func(scr string) bool { return strings.HasPrefix(pickerInput(scr), "see") })
		start := time.Now()
		b.typed(win, "@")
		first = append(first, b.poll(win, time.Millisecond, "the picker's first rows", func(scr string) bool {
			return strings.Contains(scr, "big0.dat")
		}).Sub(start))
		whole = append(whole, b.poll(win, 5*time.Millisecond, "the whole list", func(scr string) bool {
			return strings.Contains(scr, fmt.Sprintf("%d matches", len(list)))
		}).Sub(start))
		prev := ""
		for _, q := range queries {
			hits := fuzzy.Find(q, list)
			if len(hits) <= 8 {
				t.Fatalf("query %q: %d hits, too few to show the count", q, len(hits))
			}
			want, count := list[hits[0].Index], fmt.Sprintf("%d matches", len(hits))
			key := want + count
			d := b.keystroke(win, q[len(q)-1:], func(scr string) bool {
				return strings.HasPrefix(pickerInput(scr), "see @"+q) && strings.Contains(scr, want) && strings.Contains(scr, count)
			})
			if key != prev {
				keys = append(keys, d)
			}
			prev = key
			time.Sleep(20 * time.Millisecond)
		}
		// A second @: the list is kept.
		b.must("send-keys -t " + win + " Escape")
		time.Sleep(100 * time.Millisecond) // else esc and the space read as alt+space
		b.typed(win, " ")
		b.poll(win, time.Millisecond, "the picker closed", func(scr string) bool { return !strings.Contains(scr, "big0.dat") })
		start = time.Now()
		b.typed(win, "@")
		again = append(again, b.poll(win, time.Millisecond, "the picker's rows again", func(scr string) bool {
			return strings.Contains(scr, fmt.Sprintf("%d matches", len(list)))
		}).Sub(start))
		b.must("kill-window -t " + win)
	}
	pressure = append(pressure, cpuPressure())

	// The tools against ripgrep, alternated, warm cache.
	type toolRow struct {
		name, args string
		rg         []string
		tern, rgs  []timing
	}
	rows := []*toolRow{
		{name: "grep, one match (walks and reads everything)", args: `{"pattern":"tern-needle-4242"}`, rg: []string{"tern-needle-4242"}},
		{name: "grep, a match in every file (shows 200, counts all)", args: `{"pattern":"Step"}`, rg: []string{"--count", "Step"}},
		{name: "list_files (stops listing at 1,000, counts all)", args: `{}`, rg: []string{"--files"}},
	}
	rg, rgErr := exec.LookPath("rg")
	toolRuns := 3
	if os.Getenv("TERN_BENCH_SKIP_TOOLS") == "1" {
		toolRuns = 0
	}
	for range toolRuns {
		for _, r := range rows {
			tool := tools.NewGrep(w)
			if r.args == `{}` {
				tool = tools.NewListFiles(w)
			}
			r.tern = append(r.tern, timeSelf(func() {
				if res := tool.Run(context.Background(), json.RawMessage(r.args), nil); res.Status != tools.StatusOK {
					t.Fatal(res.Output)
				}
			}))
			if rgErr == nil {
				r.rgs = append(r.rgs, timeChild(t, repo, rg, r.rg...))
			}
		}
	}
	pressure = append(pressure, cpuPressure())

	rd := func(d time.Duration) string { return d.Round(100 * time.Microsecond).String() }
	rng := func(ds []time.Duration) string {
		return fmt.Sprintf("%s [%s-%s]", rd(median(ds)), rd(slices.Min(ds)), rd(slices.Max(ds)))
	}
	var out strings.Builder
	fmt.Fprintf(&out, "big-repository benchmark (tern %s, %s, %d files in the picker; CPU pressure %s):",
		ternBin, repo, len(list), strings.Join(pressure, " / "))
	fmt.Fprintf(&out, "\n  keystroke floor (tmux echo of cat, median) %s", rd(median(floor)))
	fmt.Fprintf(&out, "\n  start-up to the ready prompt: big repository %s, small %s (medians [ranges] of %d, alternated)",
		rng(bigLaunch), rng(smallLaunch), repoRuns)
	fmt.Fprintf(&out, "\n  @ → first rows %s  target ≤ %v; → the whole list %s; a second @ %s",
		rng(first), targetPickerFirst, rng(whole), rng(again))
	fmt.Fprintf(&out, "\n  a query's keystroke → its rows and count on screen, minus the floor: median %s, max %s (%d keys)  target ≤ %v",
		rd(median(keys)-median(floor)), rd(slices.Max(keys)-median(floor)), len(keys), targetPickerKey)
	for _, r := range rows {
		if len(r.tern) == 0 {
			continue
		}
		tw, tc := medianTiming(r.tern)
		fmt.Fprintf(&out, "\n  %s: tern %s wall, %s CPU", r.name, rd(tw), rd(tc))
		if len(r.rgs) > 0 {
			rw, rc := medianTiming(r.rgs)
			fmt.Fprintf(&out, "; rg %s %s wall, %s CPU; ratio %.2f  target ≤ %.1f",
				strings.Join(r.rg, " "), rd(rw), rd(rc), float64(tw)/float64(rw), targetVsRipgrep)
		}
	}
	if rgErr != nil {
		out.WriteString("\n  ripgrep not installed: no comparison")
	}
	t.Log(out.String())
	benchTable(t, "big repository: start-up to the ready prompt, big vs small repository (medians)", rd(median(bigLaunch))+" vs "+rd(median(smallLaunch)), "", true)
	benchTable(t, "big repository: @ → first rows (median)", rd(median(first)), "≤ 100ms", median(first) <= targetPickerFirst)
	keyNet := median(keys) - median(floor)
	benchTable(t, "big repository: a query keystroke → its rows, over the floor (median)", rd(keyNet), "≤ 16ms", keyNet <= targetPickerKey)
	for _, r := range rows {
		if len(r.tern) == 0 || len(r.rgs) == 0 {
			continue
		}
		tw, _ := medianTiming(r.tern)
		rw, _ := medianTiming(r.rgs)
		ratio := float64(tw) / float64(rw)
		benchTable(t, "big repository: "+r.name+", tern / ripgrep wall", fmt.Sprintf("%.2f×", ratio), fmt.Sprintf("≤ %.1f×", targetVsRipgrep), ratio <= targetVsRipgrep)
	}
	if median(first) > targetPickerFirst {
		t.Errorf("@ → first rows %v, want ≤ %v", median(first), targetPickerFirst)
	}
	if k := median(keys) - median(floor); k > targetPickerKey {
		t.Errorf("picker keystroke %v over the floor, want ≤ %v", k, targetPickerKey)
	}
}

// pickerInput is the input's first line while the picker is open: its
// selected row starts with the same mark, above the input.
func pickerInput(scr string) string {
	lines := strings.Split(scr, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(lines[i], "› "); ok {
			return v
		}
	}
	return ""
}

// timing is one run's wall and CPU time.
type timing struct{ wall, cpu time.Duration }

// medianTiming returns the median wall and CPU times of runs.
func medianTiming(runs []timing) (wall, cpu time.Duration) {
	var ws, cs []time.Duration
	for _, r := range runs {
		ws, cs = append(ws, r.wall), append(cs, r.cpu)
	}
	return median(ws), median(cs)
}

// timeSelf times fn, with this process's CPU time (fn should be all it
// does meanwhile).
func timeSelf(fn func()) timing {
	cpu := func() time.Duration {
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	c0, start := cpu(), time.Now()
	fn()
	return timing{wall: time.Since(start), cpu: cpu() - c0}
}

// timeChild runs a command in dir, its output discarded, and times it.
func timeChild(t *testing.T, dir, name string, args ...string) timing {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Stdout = io.Discard // a pipe: ripgrep treats /dev/null as -q
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	wall := time.Since(start)
	st := cmd.ProcessState
	return timing{wall: wall, cpu: st.UserTime() + st.SystemTime()}
}
