//go:build linux

package tools

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// markerSeq makes every marker of this test binary unique.
var markerSeq atomic.Int64

// sleepMarker returns a sleep duration that no other process uses, so its
// processes can be found by their command line: "300.<pid><n>" seconds.
func sleepMarker() string {
	return fmt.Sprintf("300.%d%06d", os.Getpid(), markerSeq.Add(1))
}

// liveWithArg returns the processes, not zombies, whose command line has
// the argument arg.
func liveWithArg(arg string) []string {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.Contains(append([]byte{0}, cmdline...), []byte("\x00"+arg+"\x00")) {
			continue
		}
		if state, _, ok := procState(e.Name()); ok && (state == 'Z' || state == 'X') {
			continue
		}
		out = append(out, e.Name()+": "+strings.ReplaceAll(string(cmdline), "\x00", " "))
	}
	return out
}

// killWithArg kills what a failed test left behind.
func killWithArg(arg string) {
	for _, p := range liveWithArg(arg) {
		var pid int
		if _, err := fmt.Sscanf(p, "%d:", &pid); err == nil {
			_ = unix.Kill(pid, unix.SIGKILL)
		}
	}
}

// TestRunShellLeavesNoProcessBehind starts processes that leave the
// command's process group or session (setsid, a double fork, nohup) and
// checks that none is alive once run_shell returns: after the command
// ended, timed out or was cancelled, confined or not.
func TestRunShellLeavesNoProcessBehind(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		// command starts the processes; %s is the marker duration.
		command string
		timeout int
		cancel  bool
	}{
		{name: "setsid", command: "setsid sleep %s & echo started"},
		{name: "setsid, output held", command: "setsid sleep %s & sleep 0.1"},
		{name: "double fork", command: "( (sleep %s &) & ); echo started"},
		{name: "double-forked daemon", command: "( (setsid sleep %s </dev/null >/dev/null 2>&1 &) & ); echo started"},
		{name: "nohup", command: "nohup sleep %s >/dev/null 2>&1 & echo started"},
		{name: "nohup setsid, ignoring SIGTERM", command: "trap '' TERM; nohup setsid sleep %s >/dev/null 2>&1 & echo started"},
		{name: "timeout", command: "setsid sleep %s & sleep 30", timeout: 1},
		{name: "cancel", command: "setsid sleep %s & echo started; sleep 30", cancel: true},
	} {
		for _, confined := range []bool{false, true} {
			name := tc.name
			if confined {
				name += ", sandboxed"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				marker := sleepMarker()
				defer killWithArg(marker)
				var sh Tool
				if confined {
					s := newSandboxSetup(t)
					sh = NewRunShellWith(s.w, os.Environ(), s.opts)
				} else {
					sh = NewRunShell(shellWorkspace(t), os.Environ())
				}
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				args := map[string]any{"command": fmt.Sprintf(tc.command, marker)}
				if tc.timeout > 0 {
					args["timeout_s"] = tc.timeout
				}
				output := func(string) {}
				if tc.cancel {
					output = func(s string) {
						if strings.Contains(s, "started") {
							go func() { time.Sleep(100 * time.Millisecond); cancel() }()
						}
					}
				}
				res := sh.Run(ctx, toolArgs(t, args), output)
				if left := liveWithArg(marker); len(left) > 0 {
					t.Errorf("alive after run_shell returned (%s):\n%s", res.Summary, strings.Join(left, "\n"))
				}
			})
		}
	}
}

// TestRunShellDoesNotPassInheritedDescriptors gives the test process a
// descriptor without close-on-exec, as a shell's `9>>file` gives tern, and
// checks that the command cannot write through it.
func TestRunShellDoesNotPassInheritedDescriptors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bashrc")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	// F_DUPFD leaves close-on-exec off, as for a descriptor tern inherited.
	fd, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD, 100)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = unix.Close(fd) }()
	res := NewRunShell(shellWorkspace(t), os.Environ()).Run(context.Background(),
		toolArgs(t, map[string]any{"command": fmt.Sprintf("echo pwned >&%d; ls /proc/self/fd", fd)}), nil)
	if data, err := os.ReadFile(path); err != nil || len(data) > 0 {
		t.Errorf("the command wrote through inherited descriptor %d: %q, %v\n%s", fd, data, err, res.Output)
	}
	if !strings.Contains(res.Output, "Bad file descriptor") {
		t.Errorf("output: %s", res.Output)
	}
}

// TestRunShellReadOnlyPaths checks ShellOptions.ReadOnly reaches the
// launcher for an unconfined command: .git/config cannot be changed.
func TestRunShellReadOnlyPaths(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("read-only binding needs CAP_SYS_ADMIN: the launcher does it when tern runs as root")
	}
	t.Parallel()
	w := shellWorkspace(t)
	config := filepath.Join(w.Root, ".git", "config")
	if err := os.MkdirAll(filepath.Dir(config), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(config, []byte("[core]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := NewRunShellWith(w, os.Environ(), ShellOptions{ReadOnly: []string{config}}).Run(context.Background(),
		toolArgs(t, map[string]any{"command": "echo '[alias] x = !sh' >> .git/config"}), nil)
	if data, _ := os.ReadFile(config); string(data) != "[core]\n" || !strings.Contains(res.Output, "Read-only file system") {
		t.Errorf(".git/config is %q after the command:\n%s", data, res.Output)
	}
}
