package tools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"
)

// shellWorkspace is a workspace with a subdirectory "sub".
func shellWorkspace(t testing.TB) *Workspace {
	t.Helper()
	w, err := NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(w.Root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	return w
}

// chunkLog records live output chunks and when they came.
type chunkLog struct {
	mu     sync.Mutex
	chunks []string
	times  []time.Time
	// pids receives the first number printed on a line by itself.
	pids chan int
}

func newChunkLog() *chunkLog { return &chunkLog{pids: make(chan int, 1)} }

var pidLine = regexp.MustCompile(`(?m)^(\d+)$`)

func (c *chunkLog) add(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.chunks = append(c.chunks, s)
	c.times = append(c.times, time.Now())
	if m := pidLine.FindStringSubmatch(strings.Join(c.chunks, "")); m != nil {
		if pid, err := strconv.Atoi(m[1]); err == nil {
			select {
			case c.pids <- pid:
			default:
			}
		}
	}
}

func (c *chunkLog) text() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.chunks, "")
}

// processGone reports whether pid no longer runs: it does not exist, or it
// is a zombie waiting for a parent that may never reap it.
func processGone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	state, _, ok := procState(strconv.Itoa(pid))
	return ok && (state == 'Z' || state == 'X')
}

// waitGone fails the test unless pid is gone within a few seconds.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !processGone(pid) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("process %d is still running", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestRunShell(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		args        map[string]any
		env         []string
		wantStatus  Status
		wantExit    int
		wantSummary string
		wantOutput  string // exact, unless wantContains
		wantPrefix  string
	}{
		{
			name:        "output and exit code",
			args:        map[string]any{"command": "echo out; echo err >&2; exit 3"},
			wantStatus:  StatusOK,
			wantExit:    3,
			wantSummary: "exit 3",
			wantOutput:  "out\nerr\nexit code: 3\n",
		},
		{
			name:        "no output",
			args:        map[string]any{"command": "true"},
			wantStatus:  StatusOK,
			wantSummary: "exit 0",
			wantOutput:  "(no output)\nexit code: 0\n",
		},
		{
			name:        "stdin is empty",
			args:        map[string]any{"command": "cat; echo done"},
			wantStatus:  StatusOK,
			wantSummary: "exit 0",
			wantOutput:  "done\nexit code: 0\n",
		},
		{
			name:        "no final newline",
			args:        map[string]any{"command": "printf abc"},
			wantStatus:  StatusOK,
			wantSummary: "exit 0",
			wantOutput:  "abc\nexit code: 0\n",
		},
		{
			name:        "killed by a signal",
			args:        map[string]any{"command": "kill -KILL $$"},
			wantStatus:  StatusOK,
			wantExit:    137,
			wantSummary: "exit 137",
			wantOutput:  "(no output)\nexit code: 137\n",
		},
		{
			name:        "tern's API keys are not passed on",
			args:        map[string]any{"command": `echo "[$LLM_API_KEY][$OPENAI_API_KEY][$OTHER_API_KEY][$FOO]"`},
			env:         []string{"LLM_API_KEY=sk-llm", "OPENAI_API_KEY=sk-openai", "OTHER_API_KEY=theirs", "FOO=bar", "PATH=" + os.Getenv("PATH")},
			wantStatus:  StatusOK,
			wantSummary: "exit 0",
			wantOutput:  "[][][theirs][bar]\nexit code: 0\n",
		},
		{
			name:        "workdir",
			args:        map[string]any{"command": "basename \"$(pwd)\"; basename \"$PWD\"", "workdir": "sub"},
			wantStatus:  StatusOK,
			wantSummary: "exit 0",
			wantOutput:  "sub\nsub\nexit code: 0\n",
		},
		{
			name:        "workdir outside",
			args:        map[string]any{"command": "pwd", "workdir": ".."},
			wantStatus:  StatusError,
			wantSummary: "refused",
			wantPrefix:  "workdir: ",
		},
		{
			name:        "workdir absolute outside",
			args:        map[string]any{"command": "pwd", "workdir": "/"},
			wantStatus:  StatusError,
			wantSummary: "refused",
			wantPrefix:  "workdir: ",
		},
		{
			name:        "workdir missing",
			args:        map[string]any{"command": "pwd", "workdir": "nope"},
			wantStatus:  StatusError,
			wantSummary: "no such directory",
			wantOutput:  "workdir nope does not exist",
		},
		{
			name:        "empty command",
			args:        map[string]any{"command": "  "},
			wantStatus:  StatusError,
			wantSummary: "no command",
			wantOutput:  "command is required",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := shellWorkspace(t)
			env := tc.env
			if env == nil {
				env = os.Environ()
			}
			res := NewRunShell(w, env).Run(context.Background(), toolArgs(t, tc.args), nil)
			if res.Status != tc.wantStatus || res.ExitCode != tc.wantExit || res.Summary != tc.wantSummary {
				t.Errorf("got status %v exit %d summary %q, want %v %d %q", res.Status, res.ExitCode, res.Summary, tc.wantStatus, tc.wantExit, tc.wantSummary)
			}
			switch {
			case tc.wantPrefix != "":
				if !strings.HasPrefix(res.Output, tc.wantPrefix) || !strings.Contains(res.Output, "outside the workspace") {
					t.Errorf("output = %q", res.Output)
				}
			case res.Output != tc.wantOutput:
				t.Errorf("output = %q, want %q", res.Output, tc.wantOutput)
			}
		})
	}
}

func TestRunShellStreamsOutputAsItComes(t *testing.T) {
	t.Parallel()
	log := newChunkLog()
	res := NewRunShell(shellWorkspace(t), os.Environ()).Run(context.Background(),
		toolArgs(t, map[string]any{"command": "echo a; sleep 0.4; echo b"}), log.add)
	end := time.Now()
	if res.Output != "a\nb\nexit code: 0\n" {
		t.Fatalf("output = %q", res.Output)
	}
	if got := log.text(); got != "a\nb\n" {
		t.Fatalf("streamed %q, want %q", got, "a\nb\n")
	}
	log.mu.Lock()
	defer log.mu.Unlock()
	if log.chunks[0] != "a\n" {
		t.Fatalf("first chunk %q, want %q", log.chunks[0], "a\n")
	}
	if early := end.Sub(log.times[0]); early < 250*time.Millisecond {
		t.Fatalf("first chunk arrived only %v before the command ended", early)
	}
}

func TestRunShellChunksAreWholeUTF8(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var chunks []string
	// 3-byte characters in 200 KB of output, so reads end mid-character.
	res := NewRunShell(shellWorkspace(t), os.Environ()).Run(context.Background(),
		toolArgs(t, map[string]any{"command": `for i in $(seq 1 2000); do printf '€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€'; done`}),
		func(s string) {
			mu.Lock()
			defer mu.Unlock()
			chunks = append(chunks, s)
		})
	if res.Status != StatusOK || res.ExitCode != 0 {
		t.Fatalf("%v %d", res.Status, res.ExitCode)
	}
	mu.Lock()
	defer mu.Unlock()
	total := 0
	for i, c := range chunks {
		if !utf8.ValidString(c) {
			t.Fatalf("chunk %d of %d splits a character", i, len(chunks))
		}
		total += len(c)
	}
	if want := 2000 * 33 * 3; total != want {
		t.Fatalf("streamed %d bytes, want %d", total, want)
	}
	if !utf8.ValidString(res.Output) {
		t.Fatal("capped output splits a character")
	}
}

func TestRunShellTimeoutKillsGroup(t *testing.T) {
	t.Parallel()
	log := newChunkLog()
	start := time.Now()
	res := NewRunShell(shellWorkspace(t), os.Environ()).Run(context.Background(),
		toolArgs(t, map[string]any{"command": "sleep 30 & echo $!; sleep 30; wait", "timeout_s": 1}), log.add)
	if took := time.Since(start); took > 4*time.Second {
		t.Errorf("Run took %v with a 1 s timeout", took)
	}
	if res.Status != StatusOK || res.Summary != "timed out after 1s" || !strings.HasSuffix(res.Output, "\ntimed out after 1s; process group killed\n") {
		t.Errorf("got %v %q %q", res.Status, res.Summary, res.Output)
	}
	select {
	case pid := <-log.pids:
		waitGone(t, pid)
	default:
		t.Fatalf("no child pid in output %q", log.text())
	}
}

func TestRunShellCancelKillsGroup(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		command string
		// maxTook bounds the time from cancel to Run returning.
		maxTook time.Duration
	}{
		{"children", "bash -c 'sleep 30' & echo $!; sleep 30; wait", 1500 * time.Millisecond},
		// Ignoring SIGTERM only delays the end by the 2 s grace before SIGKILL.
		{"ignores SIGTERM", "trap '' TERM; sleep 30 & echo $!; sleep 30; wait", 4 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			log := newChunkLog()
			done := make(chan Result, 1)
			go func() {
				done <- NewRunShell(shellWorkspace(t), os.Environ()).Run(ctx, toolArgs(t, map[string]any{"command": tc.command}), log.add)
			}()
			var pid int
			select {
			case pid = <-log.pids:
			case <-time.After(10 * time.Second):
				t.Fatal("the command printed no pid")
			}
			cancelled := time.Now()
			cancel()
			var res Result
			select {
			case res = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("Run did not return after cancel")
			}
			if took := time.Since(cancelled); took > tc.maxTook {
				t.Errorf("Run returned %v after cancel, want under %v", took, tc.maxTook)
			}
			if res.Status != StatusCancelled || res.Summary != "cancelled" || !strings.HasSuffix(res.Output, "\ncancelled by the user; process group killed\n") {
				t.Errorf("got %v %q %q", res.Status, res.Summary, res.Output)
			}
			waitGone(t, pid)
		})
	}
}

func TestRunShellBackgroundProcessDoesNotOutliveTheCall(t *testing.T) {
	t.Parallel()
	log := newChunkLog()
	start := time.Now()
	res := NewRunShell(shellWorkspace(t), os.Environ()).Run(context.Background(),
		toolArgs(t, map[string]any{"command": "sleep 30 & echo $!"}), log.add)
	if took := time.Since(start); took > 1500*time.Millisecond {
		t.Errorf("Run took %v; it waited for the background process", took)
	}
	if res.Status != StatusOK || res.ExitCode != 0 {
		t.Errorf("got %v exit %d: %q", res.Status, res.ExitCode, res.Output)
	}
	select {
	case pid := <-log.pids:
		waitGone(t, pid)
	default:
		t.Fatalf("no pid in output %q", log.text())
	}
}

func TestRunShellDaemonHoldingThePipe(t *testing.T) {
	t.Parallel()
	// setsid puts the daemon out of reach of the group kill; Run must still
	// return instead of waiting for the pipe it holds open.
	log := newChunkLog()
	start := time.Now()
	res := NewRunShell(shellWorkspace(t), os.Environ()).Run(context.Background(),
		toolArgs(t, map[string]any{"command": "setsid sleep 30 & echo $!; sleep 0.1"}), log.add)
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("Run took %v", took)
	}
	if res.Status != StatusOK {
		t.Errorf("got %v: %q", res.Status, res.Output)
	}
	select {
	case pid := <-log.pids:
		_ = syscall.Kill(pid, syscall.SIGKILL)
	default:
	}
}

func TestRunShellCapsOutput(t *testing.T) {
	t.Parallel()
	w := shellWorkspace(t)
	w.OutputCap = 2000
	res := NewRunShell(w, os.Environ()).Run(context.Background(), toolArgs(t, map[string]any{"command": "seq 1 100000"}), nil)
	if len(res.Output) > 2000 {
		t.Errorf("output is %d bytes, cap 2000", len(res.Output))
	}
	for _, want := range []string{"left out", "redirect the command's output to a file"} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if !strings.HasPrefix(res.Output, "1\n2\n3\n") || !strings.HasSuffix(res.Output, "\n99999\n100000\nexit code: 0\n") {
		t.Errorf("head or tail missing: %q", res.Output)
	}
}

func TestShellOutputOverflow(t *testing.T) {
	t.Parallel()
	o := newShellOutput(100)
	for i := range 1000 {
		o.add(fmt.Sprintf("%03d\n", i))
	}
	if want := "000\n001\n002\n"; !strings.HasPrefix(string(o.head), want) || len(o.head) != 100 {
		t.Errorf("head = %q", o.head)
	}
	if len(o.tail) > 200 || !strings.HasSuffix(string(o.tail), "998\n999\n") {
		t.Errorf("tail = %q", o.tail)
	}
	if o.total != 4000 || o.lines != 1000 || o.dropped != 4000-len(o.head)-len(o.tail) || o.droppedLines*4 != o.dropped {
		t.Errorf("total %d lines %d dropped %d (%d lines)", o.total, o.lines, o.dropped, o.droppedLines)
	}
	out := o.render(300, "exit code: 0")
	if len(out) > 300 || !strings.HasPrefix(out, "000\n001\n") || !strings.HasSuffix(out, "\n999\nexit code: 0\n") {
		t.Fatalf("render = %q", out)
	}
	m := regexp.MustCompile(`\[\.\.\. (\d+) lines \(([^)]+)\) left out; the command printed 4 KiB in 1000 lines in all; to see all of it`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no marker in %q", out)
	}
	shown := strings.Count(out, "\n") - 2 // the marker and the trailer
	if n, _ := strconv.Atoi(m[1]); n+shown != 1000 {
		t.Errorf("marker says %s lines left out, %d shown: not 1000", m[1], shown)
	}
	if want := formatSize(4 * (1000 - shown)); m[2] != want {
		t.Errorf("marker says %s left out, want %s", m[2], want)
	}
}

func TestRunShellPlan(t *testing.T) {
	t.Parallel()
	w := shellWorkspace(t)
	sh := NewRunShell(w, nil).(*runShell)
	tests := []struct {
		name        string
		args        map[string]any
		wantTimeout time.Duration
		wantNote    string
	}{
		{"default", map[string]any{"command": "x"}, DefaultShellTimeout, ""},
		{"given", map[string]any{"command": "x", "timeout_s": 30}, 30 * time.Second, ""},
		{"clamped", map[string]any{"command": "x", "timeout_s": 1000}, MaxShellTimeout, "note: timeout_s 1000 is above the limit; the command ran with a timeout of 600s"},
		{"too small", map[string]any{"command": "x", "timeout_s": 0}, time.Second, "note: timeout_s 0 is below the minimum; the command ran with a timeout of 1s"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := sh.plan(toolArgs(t, tc.args))
			if err != nil {
				t.Fatal(err)
			}
			if p.timeout != tc.wantTimeout || p.note != tc.wantNote {
				t.Errorf("timeout %v note %q, want %v %q", p.timeout, p.note, tc.wantTimeout, tc.wantNote)
			}
		})
	}
}

func TestRunShellPreview(t *testing.T) {
	t.Parallel()
	w := shellWorkspace(t)
	sh := NewRunShell(w, nil)
	p, err := sh.Preview(context.Background(), toolArgs(t, map[string]any{"command": "go test ./...\necho done", "workdir": "sub"}))
	if err != nil {
		t.Fatal(err)
	}
	want := Preview{Title: "run go test ./... …", Command: "go test ./...\necho done", Workdir: "sub"}
	if p != want {
		t.Errorf("preview = %#v, want %#v", p, want)
	}
	p, err = sh.Preview(context.Background(), toolArgs(t, map[string]any{"command": "ls"}))
	if err != nil || p.Workdir != "." {
		t.Errorf("preview = %#v, %v; want workdir \".\"", p, err)
	}
	if _, err := sh.Preview(context.Background(), toolArgs(t, map[string]any{"command": "ls", "workdir": "../"})); err == nil {
		t.Error("Preview accepted a workdir outside the workspace")
	}
}

func TestFilterEnv(t *testing.T) {
	t.Parallel()
	got := FilterEnv([]string{"A=1", "LLM_API_KEY=x", "OPENAI_API_KEY=y", "OPENAI_API_KEY_FILE=z", "B=", "LLM_API_KEYS=w"})
	want := []string{"A=1", "OPENAI_API_KEY_FILE=z", "B=", "LLM_API_KEYS=w"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("FilterEnv = %q, want %q", got, want)
	}
	if FilterEnv(nil) == nil {
		t.Error("FilterEnv(nil) is nil; a nil Cmd.Env would inherit tern's environment")
	}
}

func TestCompleteRunes(t *testing.T) {
	t.Parallel()
	euro := []byte("€") // 3 bytes
	tests := []struct {
		in   []byte
		want int
	}{
		{[]byte("abc"), 3},
		{append([]byte("a"), euro...), 4},
		{append([]byte("a"), euro[:1]...), 1},
		{append([]byte("a"), euro[:2]...), 1},
		{[]byte{'a', 0xff}, 2},
		{nil, 0},
	}
	for _, tc := range tests {
		if got := completeRunes(tc.in); got != tc.want {
			t.Errorf("completeRunes(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}
