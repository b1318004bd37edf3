package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/ternhq/tern/cmd/tern/config"
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/sandbox"
)

// sandboxShell returns run_shell's options for the configuration: when the
// sandbox is on and Landlock is available, the policy (the toolchain caches
// and writable_roots writable, deny_read unreadable, no_network) and a
// fresh session TMPDIR, made before the first command (a run that runs
// none makes none: its mkdir and removal were a millisecond of a short
// `tern run`), with the function that removes that directory.
//
// The caches come from tern's environment and Go's env file; that file is
// ignored when it lies inside the workspace or a writable root (tern started
// in the home folder): a command could write it (`go env -w GOCACHE=/etc`)
// to have the next session make any folder writable.
func (c *cli) sandboxShell(ctx context.Context, cfg *config.Config, workspace string) (tools.ShellOptions, sandbox.Status, func(), error) {
	st := sandbox.Check(cfg.Sandbox.V, cfg.NoNetwork.V)
	if !st.Active {
		return tools.ShellOptions{}, st, func() {}, nil
	}
	// Reading a crowded /tmp takes milliseconds the first frame need not
	// wait for, and a short run need not spend at all: once an hour does.
	// Whether it is due is one stat, made here: a goroutine at every start
	// could start a thread on the way to the first request.
	if sweepDue(cfg.Home.V, time.Now()) {
		go sweepSessionDirs(ctx, os.TempDir())
	}
	tmp := &sessionTempDir{}
	p := sandbox.Policy{
		Writable: cfg.WritableRoots.V,
		// The TMPDIR, made later under a name nobody knows yet, cannot
		// hold Go's env file now.
		Caches:    sandbox.ToolchainCaches(c.cacheGetenv(append([]string{workspace}, cfg.WritableRoots.V...)), c.userHome),
		DenyRead:  cfg.DenyRead.V,
		NoNetwork: cfg.NoNetwork.V,
	}
	return tools.ShellOptions{Sandbox: &p, MakeTempDir: tmp.make, TernHome: cfg.Home.V}, st, tmp.remove, nil
}

// sessionTempDir is a session's TMPDIR, made when run_shell first needs
// it and removed when the session ends.
type sessionTempDir struct {
	mu  sync.Mutex
	dir string // "" until made
}

// make creates the directory, tern-session-<pid>-* in the system's
// temporary directory, once: every run_shell built with these options gets
// the same one, and remove finds it.
func (s *sessionTempDir) make() (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dir != "" {
		return s.dir, nil
	}
	dir, err := os.MkdirTemp("", sessionDirPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return "", fmt.Errorf("create the session's temporary directory (the sandbox's TMPDIR): %w; set TMPDIR to a writable directory or run with --sandbox off", err)
	}
	s.dir = dir
	return dir, nil
}

// remove removes the directory, if it was made.
func (s *sessionTempDir) remove() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dir != "" {
		_ = os.RemoveAll(s.dir)
		s.dir = ""
	}
}

// cacheGetenv returns c.getenv, with GOENV=off when Go's env file lies
// inside one of writable (which confined commands may write).
func (c *cli) cacheGetenv(writable []string) func(string) string {
	file := sandbox.GoEnvFile(c.getenv, c.userHome)
	if file == "" {
		return c.getenv
	}
	file = sandbox.RealPath(file)
	for _, w := range writable {
		if w == "" {
			continue
		}
		if rel, err := filepath.Rel(sandbox.RealPath(w), file); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return func(name string) string {
				if name == "GOENV" {
					return "off"
				}
				return c.getenv(name)
			}
		}
	}
	return c.getenv
}

// sessionDirPrefix starts the name of a session's TMPDIR, followed by the
// process id of the tern that made it.
const sessionDirPrefix = "tern-session-"

// sweepEvery is how often a tern looks for the session directories of
// terns that are gone: reading a temporary folder of a few hundred entries
// cost each `tern run` a millisecond of CPU (perf).
const sweepEvery = time.Hour

// sweptMark is the file in the tern home whose modification time is the
// last sweep's.
const sweptMark = "tmp-swept"

// sweepDue reports whether the temporary folder is due a sweep and, when
// it is, marks it swept now. Without a home, or when the mark cannot be
// written, every start sweeps, as before the mark.
func sweepDue(home string, now time.Time) bool {
	if home == "" {
		return true
	}
	mark := filepath.Join(home, sweptMark)
	if st, err := os.Stat(mark); err == nil {
		if age := now.Sub(st.ModTime()); age >= 0 && age < sweepEvery {
			return false
		}
	}
	if err := os.Chtimes(mark, now, now); err != nil {
		f, err := os.OpenFile(mark, os.O_WRONLY|os.O_CREATE, 0o600)
		if err != nil {
			return true
		}
		_ = f.Close()                  // an empty file: only its time matters
		_ = os.Chtimes(mark, now, now) // else it has the clock's time, close enough
	}
	return true
}

// sweepSessionDirs removes the session directories in dir left by tern
// processes that are gone (killed before they could remove their own).
// Another user's directories stay: removing them fails.
func sweepSessionDirs(ctx context.Context, dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if ctx.Err() != nil {
			return
		}
		rest, ok := strings.CutPrefix(e.Name(), sessionDirPrefix)
		if !ok || !e.IsDir() {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid <= 0 || processAlive(pid) {
			continue
		}
		_ = os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}

// processAlive reports whether a process with this id exists (EPERM: it
// does, owned by someone else). It sends signal 0 with kill(2) itself:
// os.FindProcess would first probe the kernel's pidfd support, which
// forks a child (clone with CLONE_VFORK) in every tern that sweeps.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
