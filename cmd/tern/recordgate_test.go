package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/app"
)

// fillDisk makes every later write to the session log fail as on a full
// disk: the log's open descriptor is pointed at /dev/full (ENOSPC).
func fillDisk(t *testing.T, path string) {
	t.Helper()
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	defer func() { _ = full.Close() }()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	for _, e := range entries {
		fd := filepath.Join("/proc/self/fd", e.Name())
		if target, err := os.Readlink(fd); err == nil && target == path {
			n, err := strconv.Atoi(e.Name())
			if err != nil {
				t.Fatal(err)
			}
			if err := syscall.Dup2(int(full.Fd()), n); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("the session log %s is not open", path)
}

// recordingFixture wires tern in-process against the scripted gateway (a
// write_file call, then a text answer) with a session log in a temporary
// TERN_HOME.
func recordingFixture(t *testing.T, g *fakeGateway, interactive bool, prepare ...func(ternHome string)) (*wired, *cli, *bytes.Buffer, string) {
	t.Helper()
	root := t.TempDir()
	for _, p := range prepare {
		p(filepath.Join(root, ".tern"))
	}
	ws := filepath.Join(root, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	env := online(g)
	env["HOME"], env["TERN_HOME"], env["PATH"] = root, filepath.Join(root, ".tern"), os.Getenv("PATH")
	var stdout, stderr bytes.Buffer
	c := &cli{
		stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr,
		getenv: func(k string) string { return env[k] }, environ: []string{"PATH=" + env["PATH"], "HOME=" + root}, userHome: root, cwd: ws,
	}
	fs, flags := newFlagSet("tern")
	if err := fs.Parse([]string{"--approval", "full-auto", "--sandbox", "off"}); err != nil {
		t.Fatal(err)
	}
	cfg, err := c.loadConfig(flags)
	if err != nil {
		t.Fatal(err)
	}
	a, err := c.wire(context.Background(), cfg, wireOptions{interactive: interactive, notices: &stderr, session: app.Choice{Mode: app.ResumeNone}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close() })
	return a, c, &stdout, ws
}

// TestRecordingFailureStopsHeadlessRun fills the disk under the session log
// before the run, and in the middle of it (while the gateway answers the
// first request, whose answer is a write_file call): the run stops with
// exit status 1 and a message that says recording failed and why, before
// the next model request and before the tool call.
func TestRecordingFailureStopsHeadlessRun(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		midTurn  bool
		requests int32
	}{
		{"before the first request", false, 0},
		{"before the tool call", true, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			g := newFakeGateway(t, scripted)
			a, c, stdout, ws := recordingFixture(t, g, false)
			path := a.Session.LogPath()
			if err := a.Session.Sync(); err != nil { // the header is on disk
				t.Fatal(err)
			}
			if tt.midTurn {
				g.onRequest = func() { fillDisk(t, path) }
			} else {
				fillDisk(t, path)
			}
			code := c.runTurn(context.Background(), a, turnInput{prompt: "create hello.txt"}, true)
			if code != exitFailed {
				t.Errorf("exit %d, want %d\n%s", code, exitFailed, stdout)
			}
			last := lastLine(t, stdout.String())
			e, _ := last["error"].(map[string]any)
			msg, _ := e["message"].(string)
			if last["type"] != "turn.failed" || !strings.Contains(msg, "recording the session failed") ||
				!strings.Contains(msg, "no space left on device") {
				t.Errorf("last line %v", last)
			}
			if n := g.requests.Load(); n != tt.requests {
				t.Errorf("%d requests reached the gateway, want %d", n, tt.requests)
			}
			if _, err := os.Stat(filepath.Join(ws, "hello.txt")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("write_file ran: %v", err)
			}
		})
	}
}

// TestContinueUnrecorded checks the interactive way on: after the failure
// stopped a turn (a write failed, or the log could not be opened at all),
// nothing runs until the user chooses to go on unrecorded; then the next
// turn runs to its end.
func TestContinueUnrecorded(t *testing.T) {
	t.Parallel()
	t.Run("write failed", func(t *testing.T) {
		t.Parallel()
		g := newFakeGateway(t, scripted)
		a, _, _, ws := recordingFixture(t, g, true)
		if a.Session.ContinueUnrecorded() {
			t.Error("continueUnrecorded accepted while recording works")
		}
		if err := a.Session.Sync(); err != nil { // the header is on disk
			t.Fatal(err)
		}
		fillDisk(t, a.Session.LogPath())
		turnsUntilTheChoice(t, g, a, ws)
	})
	t.Run("log not opened", func(t *testing.T) {
		t.Parallel()
		g := newFakeGateway(t, scripted)
		a, _, _, ws := recordingFixture(t, g, true, func(home string) {
			// A file where the sessions folder should be.
			if err := os.MkdirAll(home, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(home, "sessions"), nil, 0o600); err != nil {
				t.Fatal(err)
			}
		})
		if a.Session.Recorded() {
			t.Fatal("the log opened in a broken TERN_HOME")
		}
		turnsUntilTheChoice(t, g, a, ws)
	})
}

// turnsUntilTheChoice runs turns on a whose log failed: refused until the
// choice, then run.
func turnsUntilTheChoice(t *testing.T, g *fakeGateway, a *wired, ws string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go a.Session.Run(ctx)
	turn := func() *agent.Event {
		t.Helper()
		if err := a.Session.Submit("create hello.txt"); err != nil {
			t.Fatal(err)
		}
		timeout := time.After(10 * time.Second)
		for {
			select {
			case ev := <-a.Session.Events():
				if ev.Kind == agent.EventTurnFinished {
					return &ev
				}
			case <-timeout:
				t.Fatal("the turn did not finish")
			}
		}
	}
	for range 2 { // a failure is not forgotten by sending again
		ev := turn()
		if !errors.Is(ev.Err, agent.ErrRecording) || !strings.Contains(ev.Text, "/unrecorded") {
			t.Fatalf("turn ended with %v, want a recording failure naming /unrecorded", ev.Err)
		}
	}
	if n := g.requests.Load(); n != 0 {
		t.Fatalf("%d requests reached the gateway before the choice", n)
	}
	if !a.Session.ContinueUnrecorded() {
		t.Fatal("continueUnrecorded refused after a failure")
	}
	if ev := turn(); ev.Finish == nil || ev.Finish.Reason != agent.FinishDone {
		t.Fatalf("turn after the choice ended %+v (%v)", ev.Finish, ev.Err)
	}
	if n := g.requests.Load(); n != 2 {
		t.Errorf("%d requests after the choice, want 2", n)
	}
	if _, err := os.Stat(filepath.Join(ws, "hello.txt")); err != nil {
		t.Errorf("write_file did not run after the choice: %v", err)
	}
}
