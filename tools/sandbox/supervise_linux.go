//go:build linux

package sandbox

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// supervise waits for the command (process cmd, the launcher's child) to
// end, or for a signal telling the launcher to end it, then kills every
// process left below the launcher and returns the command's exit status.
// The launcher is a child subreaper: a process that left the command's
// process group or session (setsid, a double fork, nohup) and lost its
// parent becomes the launcher's child, so none escapes.
func supervise(cmd int, sigs <-chan os.Signal) int {
	status := make(chan syscall.WaitStatus, 1)
	gone := make(chan struct{})
	go reapAll(cmd, status, gone)
	var ws syscall.WaitStatus
	select {
	case ws = <-status:
		endAll(killGrace, sigs, gone)
	case sig := <-sigs:
		grace := killGrace
		if sig == ParentDeathSignal {
			grace = 0 // tern is gone: nobody waits for a clean end
		}
		endAll(grace, sigs, gone)
		ws = <-status
	}
	switch {
	case ws.Exited():
		return ws.ExitStatus()
	case ws.Signaled():
		return 128 + int(ws.Signal())
	}
	return exitLauncherFailed
}

// reapAll waits for every child of the launcher, the command's status to
// status, and closes gone once no child is left (so none is alive below
// the launcher either).
func reapAll(cmd int, status chan<- syscall.WaitStatus, gone chan<- struct{}) {
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, 0, nil)
		switch {
		case errors.Is(err, syscall.EINTR):
		case err != nil:
			close(gone) // ECHILD: no child left
			return
		case pid == cmd:
			// Most commands leave nothing behind: saying so before the
			// status spares supervise a scan of /proc.
			if !childrenLeft() {
				close(gone)
				status <- ws
				return
			}
			status <- ws
		}
	}
}

// childrenLeft reaps the children that have ended without waiting and
// reports whether any is left.
func childrenLeft() bool {
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		switch {
		case errors.Is(err, syscall.EINTR):
		case err != nil:
			return false // ECHILD
		case pid == 0:
			return true
		}
	}
}

// endAll ends every process below the launcher: SIGTERM first and up to
// grace to exit (cut short by ParentDeathSignal), then SIGKILL, again and
// again until none is left, so that a process forking meanwhile cannot
// outrun it.
func endAll(grace time.Duration, sigs <-chan os.Signal, gone <-chan struct{}) {
	select {
	case <-gone:
		return
	default:
	}
	if grace > 0 {
		// A process forked after a scan gets SIGTERM at the next one;
		// each gets it once.
		termed := map[int]bool{}
		timer := time.NewTimer(grace)
		defer timer.Stop()
	wait:
		for pause := time.Millisecond; ; pause = min(2*pause, 50*time.Millisecond) {
			signalDescendants(syscall.SIGTERM, termed)
			select {
			case <-gone:
				return
			case <-timer.C:
				break wait
			case sig := <-sigs:
				if sig == ParentDeathSignal {
					break wait
				}
			case <-time.After(pause):
			}
		}
	}
	for pause := time.Millisecond; ; pause = min(2*pause, 20*time.Millisecond) {
		signalDescendants(syscall.SIGKILL, nil)
		select {
		case <-gone:
			return
		case <-time.After(pause):
		}
	}
}

// signalDescendants sends sig to every process below this one, found by
// their parent ids in /proc (this kernel may lack /proc/PID/task/TID/children),
// except those in done; it adds those it signals to done (if not nil).
func signalDescendants(sig syscall.Signal, done map[int]bool) {
	for _, pid := range descendants(os.Getpid()) {
		if done[pid] {
			continue
		}
		_ = syscall.Kill(pid, sig)
		if done != nil {
			done[pid] = true
		}
	}
}

// descendants returns the processes below pid: its children, theirs, and so
// on.
func descendants(pid int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	for _, e := range ents {
		name := e.Name()
		if name[0] < '0' || name[0] > '9' {
			continue
		}
		child, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		if ppid, ok := parentOf(name); ok {
			children[ppid] = append(children[ppid], child)
		}
	}
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		out = append(out, children[p]...)
		queue = append(queue, children[p]...)
	}
	return out
}

// parentOf reads a process's parent id from /proc/<pid>/stat ("pid (comm)
// state ppid ..."; comm may hold spaces and parentheses, so fields are
// counted from the last ')').
func parentOf(pid string) (int, bool) {
	data, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0, false
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(f[1])
	return ppid, err == nil
}
