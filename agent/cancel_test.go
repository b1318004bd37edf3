package agent

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// maxCancelLatency is how fast Cancel must stop a streaming answer.
const maxCancelLatency = 100 * time.Millisecond

func TestCancelDuringStream(t *testing.T) {
	t.Parallel()
	read, _, _ := fakeTools()
	// A slow stream: text, the start of a call, then more text that never
	// comes because the user cancels.
	var ds []provider.Delta
	ds = append(ds, text("Let me "), text("look"), callFrag(0, "c1", "read_file", `{"pa`))
	for range 100 {
		ds = append(ds, text("."))
	}
	h := newHarness(t, tools.NewRegistry(read), nil, script{Deltas: append(ds, finish(provider.FinishStop)), Delay: 20 * time.Millisecond})
	var cancelledAt time.Time
	evs := h.turn("look", func(ev Event) {
		if ev.Kind == EventToolCallStarted {
			cancelledAt = time.Now()
			h.a.Cancel()
		}
	})
	latency := time.Since(cancelledAt)
	wantKinds(t, evs, kStart, kText, kText, kCall, kDone, kEnd)
	if latency > maxCancelLatency {
		t.Errorf("turn finished %v after Cancel, want < %v", latency, maxCancelLatency)
	}
	if r := evs[4].Result; r.Status != tools.StatusCancelled || evs[4].Call.ID != "c1" {
		t.Errorf("started call result = %+v", r)
	}
	fin := finishOf(t, evs)
	if fin.Reason != FinishCancelled || fin.Err != nil || fin.Steps != 1 {
		t.Errorf("finish = %+v", fin)
	}
	msgs := h.a.Messages()
	checkHistory(t, msgs)
	if len(msgs) != 3 || msgs[2].Content != "Let me look\n\n[interrupted by the user]" || len(msgs[2].ToolCalls) != 0 {
		t.Errorf("history:\n%s", dumpHistory(msgs))
	}
	if len(read.runs()) != 0 {
		t.Error("the unfinished call ran")
	}
}

// TestCancelLatency measures Cancel against a provider that streams slowly
// and one that stalls between deltas.
func TestCancelLatency(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		s    script
	}{
		{"slow deltas", script{Deltas: repeatText("tok ", 200), Delay: 30 * time.Millisecond}},
		{"stalled stream", script{Deltas: []provider.Delta{text("thinking")}, Hang: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			read, _, _ := fakeTools()
			h := newHarness(t, tools.NewRegistry(read), nil, tc.s)
			var worst time.Duration
			var cancelledAt time.Time
			evs := h.turn("go", func(ev Event) {
				if ev.Kind == EventTextDelta && cancelledAt.IsZero() {
					cancelledAt = time.Now()
					h.a.Cancel()
				}
			})
			worst = time.Since(cancelledAt)
			if fin := finishOf(t, evs); fin.Reason != FinishCancelled {
				t.Fatalf("finish = %+v", fin)
			}
			if worst > maxCancelLatency {
				t.Errorf("cancel took %v, want < %v", worst, maxCancelLatency)
			}
			t.Logf("cancel latency %v", worst)
		})
	}
}

func repeatText(s string, n int) []provider.Delta {
	ds := make([]provider.Delta, 0, n+1)
	for range n {
		ds = append(ds, text(s))
	}
	return append(ds, finish(provider.FinishStop))
}

func TestCancelDuringApproval(t *testing.T) {
	t.Parallel()
	_, edit, _ := fakeTools()
	h := newHarness(t, tools.NewRegistry(edit), nil,
		calls("edit_file", `{"path":"a.go"}`, "edit_file", `{"path":"b.go"}`))
	var req *ApprovalRequest
	evs := h.turn("edit", func(ev Event) {
		if ev.Kind == EventApprovalRequested {
			req = ev.Approval
			h.a.Cancel()
		}
	})
	wantKinds(t, evs, kStart, kCall, kCall, kReady, kReady, kUsage, kAsk, kResolved, kDone, kDone, kEnd)
	if d := evs[7].Decision; d.Kind != Cancelled || evs[7].Approval != req {
		t.Errorf("resolved = %+v", evs[7])
	}
	for _, e := range evs[8:10] {
		if e.Result.Status != tools.StatusCancelled || !strings.Contains(e.Result.Output, "Cancelled by the user") {
			t.Errorf("result of %s = %+v", e.Call.ID, e.Result)
		}
	}
	if req.Reply(Decision{Kind: AllowOnce}) {
		t.Error("a reply after cancellation was taken")
	}
	if len(edit.runs()) != 0 {
		t.Error("an edit ran")
	}
	if finishOf(t, evs).Reason != FinishCancelled {
		t.Error("turn not cancelled")
	}
	msgs := h.a.Messages()
	checkHistory(t, msgs)
	if !strings.Contains(msgs[3].Content, `status="cancelled"`) || !strings.Contains(msgs[4].Content, "cancelled by the user") &&
		!strings.Contains(msgs[4].Content, "Cancelled by the user") {
		t.Errorf("tool messages:\n%s", dumpHistory(msgs))
	}
}

func TestCancelBeforeTurnStarts(t *testing.T) {
	t.Parallel()
	read, _, _ := fakeTools()
	h := newHarness(t, tools.NewRegistry(read), nil, script{Hang: true})
	if err := h.a.Submit("hi"); err != nil {
		t.Fatal(err)
	}
	h.a.Cancel()
	evs := h.collect(nil)
	if finishOf(t, evs).Reason != FinishCancelled {
		t.Errorf("events %v", kinds(evs))
	}
	h.a.Cancel() // idle: nothing happens
}

func TestCancelDuringToolRun(t *testing.T) {
	t.Parallel()
	read, _, _ := fakeTools()
	read.run = func(ctx context.Context, _ json.RawMessage, out func(string)) tools.Result {
		out("partial\n")
		<-ctx.Done()
		return tools.Result{Status: tools.StatusError, Output: "partial\n", Summary: "killed"}
	}
	// One at a time: the second read is still waiting when the first is cancelled.
	h := newHarness(t, tools.NewRegistry(read), func(o *Options) { o.MaxParallel = 1 },
		calls("read_file", `{"path":"a"}`, "read_file", `{"path":"b"}`))
	evs := h.turn("go", func(ev Event) {
		if ev.Kind == EventToolOutput {
			h.a.Cancel()
		}
	})
	wantKinds(t, evs, kStart, kCall, kCall, kReady, kReady, kUsage, kRunning, kOutput, kDone, kDone, kEnd)
	first, second := evs[8].Result, evs[9].Result
	if first.Status != tools.StatusCancelled || !strings.Contains(first.Output, "Output before it stopped:\npartial") {
		t.Errorf("running call result = %+v", first)
	}
	if second.Status != tools.StatusCancelled || !strings.Contains(second.Output, "not run") {
		t.Errorf("pending call result = %+v", second)
	}
	if n := len(read.runs()); n != 1 {
		t.Errorf("%d calls ran", n)
	}
	checkHistory(t, h.a.Messages())
}

// execShell is a run_shell stand-in that runs bash in its own process group
// and kills the group when ctx is cancelled.
func execShell() *fakeTool {
	return &fakeTool{name: "run_shell", kind: tools.KindShell, schema: shellSchema,
		run: func(ctx context.Context, args json.RawMessage, out func(string)) tools.Result {
			var a struct{ Command string }
			if err := json.Unmarshal(args, &a); err != nil {
				return tools.Result{Status: tools.StatusError, Output: err.Error()}
			}
			cmd := exec.Command("bash", "-c", a.Command)
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			r, w, err := os.Pipe()
			if err != nil {
				return tools.Result{Status: tools.StatusError, Output: err.Error()}
			}
			cmd.Stdout, cmd.Stderr = w, w
			if err := cmd.Start(); err != nil {
				_ = w.Close()
				_ = r.Close()
				return tools.Result{Status: tools.StatusError, Output: err.Error()}
			}
			_ = w.Close()
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				sc := bufio.NewScanner(r)
				for sc.Scan() {
					out(sc.Text() + "\n")
				}
			}()
			waited := make(chan error, 1)
			go func() { waited <- cmd.Wait() }()
			select {
			case <-ctx.Done():
				_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				werr := <-waited
				wg.Wait()
				_ = r.Close()
				return tools.Result{Status: tools.StatusCancelled, Output: fmt.Sprintf("killed: %v", werr)}
			case err := <-waited:
				wg.Wait()
				_ = r.Close()
				if err != nil {
					return tools.Result{Status: tools.StatusError, Output: err.Error()}
				}
				return tools.Result{Status: tools.StatusOK}
			}
		}}
}

// TestCancelKillsCommands runs a command that leaves a sleeping child, with
// the real run_shell and with a stand-in, cancels, and checks that no process
// is left behind.
func TestCancelKillsCommands(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed")
	}
	for _, tc := range []struct {
		name string
		tool func(*tools.Workspace) tools.Tool
	}{
		{"real run_shell", func(w *tools.Workspace) tools.Tool { return tools.NewRunShell(w, os.Environ()) }},
		{"exec stand-in", func(*tools.Workspace) tools.Tool { return execShell() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			reg := tools.NewRegistry()
			h := newHarness(t, reg, func(o *Options) { o.Policy = PolicyFullAuto },
				calls("run_shell", `{"command":"sleep 30 & echo $! ; wait"}`))
			reg.Add(tc.tool(h.ws))
			pid := 0
			var cancelledAt time.Time
			evs := h.turn("run it", func(ev Event) {
				if ev.Kind != EventToolOutput || pid != 0 {
					return
				}
				if n, err := strconv.Atoi(strings.TrimSpace(ev.Text)); err == nil {
					pid = n
					cancelledAt = time.Now()
					h.a.Cancel()
				}
			})
			took := time.Since(cancelledAt)
			if pid == 0 {
				t.Fatalf("no pid printed; events %v", kinds(evs))
			}
			if fin := finishOf(t, evs); fin.Reason != FinishCancelled {
				t.Fatalf("finish = %+v", fin)
			}
			if r := eventsOf(evs, kDone)[0].Result; r.Status != tools.StatusCancelled {
				t.Errorf("result = %+v", r)
			}
			deadline := time.Now().Add(3 * time.Second)
			for alive(pid) {
				if time.Now().After(deadline) {
					_ = syscall.Kill(pid, syscall.SIGKILL)
					t.Fatalf("process %d still running after Cancel", pid)
				}
				time.Sleep(5 * time.Millisecond)
			}
			checkHistory(t, h.a.Messages())
			t.Logf("turn finished %v after Cancel", took)
		})
	}
}

// alive reports whether pid runs (a zombie waiting to be reaped has exited).
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return !errors.Is(err, os.ErrNotExist)
	}
	if i := strings.LastIndexByte(string(stat), ')'); i >= 0 && i+2 < len(stat) {
		return stat[i+2] != 'Z' && stat[i+2] != 'X'
	}
	return true
}
