//go:build linux

package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// These tests attack the launcher as a hostile model would: each call's
// command is chosen to undo a guard the launcher sets up for the next one.

// TestSandboxProtectedPathsSurviveRenamingTheirFolder moves the folder that
// holds a protected path away and makes a new one in its place, which the
// read-only bind of the path itself does not stop: the folders between a
// writable root and a protected path are pinned too, so they cannot be
// renamed or removed.
func TestSandboxProtectedPathsSurviveRenamingTheirFolder(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("read-only binding needs CAP_SYS_ADMIN: the launcher does it when tern runs as root")
	}
	t.Parallel()
	for _, tc := range []struct{ name, command string }{
		{"rename .git", "mv .git .git2 && mkdir -p .git/hooks && cp -a .git2/. .git/; echo '[alias] x = !sh' >> .git/config"},
		{"remove .git", "cp -a .git /tmp/g$$ 2>/dev/null || cp -a .git $TMPDIR/g; rm -rf .git; mkdir -p .git/hooks; echo '[alias] x = !sh' >> .git/config"},
		{"rename hooks folder's parent", "mv .git .g && mkdir -p .git/hooks && echo 'evil' > .git/hooks/pre-commit && echo '[alias] x = !sh' > .git/config"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newSandboxSetup(t)
			config := filepath.Join(s.w.Root, ".git", "config")
			if err := os.MkdirAll(filepath.Join(s.w.Root, ".git", "hooks"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(config, []byte("[core]\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			res := s.run(t, tc.command, 10)
			if data, _ := os.ReadFile(config); string(data) != "[core]\n" {
				t.Errorf(".git/config is %q after the command:\n%s", data, res.Output)
			}
			if _, err := os.Stat(filepath.Join(s.w.Root, ".git", "hooks", "pre-commit")); err == nil {
				t.Errorf("a hook appeared:\n%s", res.Output)
			}
			if !strings.Contains(res.Output, "busy") {
				t.Errorf("the command did not fail on the pinned folder:\n%s", res.Output)
			}
		})
	}
}

// TestSandboxCommandCannotWidenTheNextOnesWritableRoots replaces a cache
// the sandbox makes writable (one inside the workspace, as CI setups set
// GOCACHE=$PWD/.cache/go-build) with a symbolic link to a folder outside
// (/etc, for tern running as root): the next command must not get that
// folder writable, nor have it created there.
func TestSandboxCommandCannotWidenTheNextOnesWritableRoots(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, first string }{
		{"cache replaced by a link", "rm -rf .cache/go-build && ln -s %[1]s .cache/go-build"},
		{"missing cache's parent replaced by a link", "rm -rf .cache && ln -s %[1]s .cache"},
		{"writable root replaced by a link", "rm -rf build && ln -s %[1]s build"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newSandboxSetup(t)
			cache := filepath.Join(s.w.Root, ".cache", "go-build")
			build := filepath.Join(s.w.Root, "build")
			for _, d := range []string{cache, build} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			p := *s.opts.Sandbox
			p.Caches = []string{cache, filepath.Join(s.w.Root, ".cache", "pip")}
			p.Writable = []string{build}
			s.opts.Sandbox = &p
			// One tool for both calls, as in a session: it resolves the
			// policy once, before the first.
			sh := NewRunShellWith(s.w, append(os.Environ(), "HOME="+s.home), s.opts)
			run := func(command string) Result {
				return sh.Run(context.Background(), toolArgs(t, map[string]any{"command": command, "timeout_s": 10}), nil)
			}
			res := run(fmt.Sprintf(tc.first, s.elsewhere))
			if res.ExitCode != 0 {
				t.Fatalf("the first command failed:\n%s", res.Output)
			}
			res = run(fmt.Sprintf("echo pwned > %[1]s/pwned; echo pwned > .cache/go-build/pwned2; echo pwned > build/pwned3; ls %[1]s", s.elsewhere))
			ents, err := os.ReadDir(s.elsewhere)
			if err != nil {
				t.Fatal(err)
			}
			if len(ents) > 0 {
				var names []string
				for _, e := range ents {
					names = append(names, e.Name())
				}
				t.Errorf("the second command wrote outside its roots: %v\n%s", names, res.Output)
			}
		})
	}
}

// TestSandboxCommandCannotKillItsLauncher has a confined command start a
// process in a session of its own and then kill the launcher, the process
// as a whole and each of its threads: were the launcher gone, that process
// would be left to init and outlive the call. The command cannot signal
// the launcher (it is outside the command's Landlock domain), so nothing is
// left, and the launcher reports the command's own exit.
func TestSandboxCommandCannotKillItsLauncher(t *testing.T) {
	t.Parallel()
	s := newSandboxSetup(t)
	marker := sleepMarker()
	defer killWithArg(marker)
	res := s.run(t, fmt.Sprintf(`setsid sleep %s </dev/null >/dev/null 2>&1 &
sleep 0.2
for task in /proc/$PPID/task/*; do kill -9 "${task##*/}"; done
kill -9 $PPID
echo launcher alive`, marker), 10)
	if left := liveWithArg(marker); len(left) > 0 {
		t.Errorf("alive after run_shell returned (%s):\n%s\nthe command said:\n%s", res.Summary, strings.Join(left, "\n"), res.Output)
	}
	if !strings.Contains(res.Output, "launcher alive") || res.ExitCode != 0 {
		t.Errorf("the command killed its launcher:\n%s", res.Output)
	}
}

// TestRunShellFindsProcessesHiddenBelowASubreaper checks, confined or not,
// that processes hidden below a subreaper of the command's own or in a pid
// namespace of their own (a user namespace makes one without privileges)
// are still ended with the call: both stay below the launcher.
func TestRunShellFindsProcessesHiddenBelowASubreaper(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, command string }{
		{"own subreaper", `python3 -c '
import ctypes, os, sys
ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)
if os.fork() == 0:
    if os.fork() == 0:
        os.setsid(); os.execvp("sleep", ["sleep", sys.argv[1]])
    os._exit(0)
os.wait()
' %s`},
		{"pid namespace", `unshare -U -p -f sh -c 'setsid sleep %s </dev/null >/dev/null 2>&1 & echo started'`},
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
				var res Result
				if confined {
					res = newSandboxSetup(t).run(t, fmt.Sprintf(tc.command, marker), 10)
				} else {
					res = NewRunShell(shellWorkspace(t), os.Environ()).Run(context.Background(), toolArgs(t, map[string]any{"command": fmt.Sprintf(tc.command, marker)}), nil)
				}
				if left := liveWithArg(marker); len(left) > 0 {
					t.Errorf("alive after run_shell returned (%s):\n%s\n%s", res.Summary, strings.Join(left, "\n"), res.Output)
				}
			})
		}
	}
}
