package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A driver for tern inside a real terminal: a private tmux server per test,
// keys in through send-keys, the screen out through capture-pane.

// tmuxConf replaces the user's ~/.tmux.conf: no status line (the pane gets
// all 120x40 cells), a dead pane's last screen kept readable, a known TERM
// and shell. Windows opened later get 120x40 from default-size, set once the
// session exists (tmux 3.3a crashed with window-size manual, both in this
// file and with a control client attached).
const tmuxConf = `set -g status off
set -g remain-on-exit on
set -g default-terminal tmux-256color
set -g default-shell /bin/sh
`

// tmuxSession is the name of the one session each server runs.
const tmuxSession = "tern"

// tmuxSockets numbers the servers this process starts, so names never clash.
var tmuxSockets atomic.Int32

// tmuxServer is one private tmux server (its own socket) with one session.
type tmuxServer struct {
	t      testing.TB
	socket string
	env    []string
}

// needTmux skips the test when tmux is not installed; CI installs it.
func needTmux(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed, so tern cannot be driven in a real terminal (CI installs it: .ci/run)")
	}
}

// startTmux starts a private server running command (through sh -c) in a
// 120x40 pane whose working directory is dir. env is the whole environment of
// the server and so of the pane; the machine's own never leaks in. The
// server is killed when the test ends.
func startTmux(t testing.TB, env []string, dir, command string) *tmuxServer {
	t.Helper()
	conf := filepath.Join(t.TempDir(), "tmux.conf")
	if err := os.WriteFile(conf, []byte(tmuxConf), 0o600); err != nil {
		t.Fatal(err)
	}
	s := &tmuxServer{
		t:      t,
		socket: fmt.Sprintf("tern-e2e-%d-%d", os.Getpid(), tmuxSockets.Add(1)),
		env:    env,
	}
	out, err := s.run("-f", conf, "new-session", "-d", "-s", tmuxSession, "-x", "120", "-y", "40", "-c", dir, command,
		";", "set-option", "-g", "default-size", "120x40",
		";", "display-message", "-p", "#{socket_path}")
	socket := strings.TrimSpace(out)
	t.Cleanup(func() {
		_, _ = s.run("kill-server")
		if filepath.IsAbs(socket) {
			_ = os.Remove(socket) // tmux leaves it behind; an error only means it is gone
		}
	})
	if err != nil {
		t.Fatalf("start tmux: %v\n%s", err, out)
	}
	return s
}

// run runs one tmux command against this server.
func (s *tmuxServer) run(args ...string) (string, error) {
	cmd := exec.Command("tmux", append([]string{"-L", s.socket}, args...)...)
	cmd.Env = s.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// must runs a tmux command and fails the test if it fails.
func (s *tmuxServer) must(args ...string) string {
	s.t.Helper()
	out, err := s.run(args...)
	if err != nil {
		s.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// keys sends key names (Enter, Escape, C-d, y) to the pane.
func (s *tmuxServer) keys(keys ...string) {
	s.t.Helper()
	s.must(append([]string{"send-keys", "-t", tmuxSession}, keys...)...)
}

// typeText sends text literally, as if typed.
func (s *tmuxServer) typeText(text string) {
	s.t.Helper()
	s.must("send-keys", "-t", tmuxSession, "-l", text)
}

// screen is what the pane shows now, as plain text.
func (s *tmuxServer) screen() string {
	s.t.Helper()
	return s.must("capture-pane", "-p", "-t", tmuxSession)
}

// format expands a tmux format (such as #{pane_dead}) for the pane.
func (s *tmuxServer) format(f string) string {
	s.t.Helper()
	return strings.TrimSpace(s.must("display-message", "-p", "-t", tmuxSession, f))
}

// waitFor polls the screen every 50 ms until ok accepts it, and fails the
// test with the last screen when that takes longer than timeout. It returns
// the accepted screen.
func (s *tmuxServer) waitFor(what string, timeout time.Duration, ok func(screen string) bool) string {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		scr := s.screen()
		if ok(scr) {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("after %v the screen still does not show %s:\n%s", timeout, what, scr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// turnRunning reports whether the status line (the screen's last line
// with text) names a wait of a running turn.
func turnRunning(scr string) bool {
	lines := strings.Split(strings.TrimRight(scr, " \n"), "\n")
	status := lines[len(lines)-1]
	for _, w := range []string{"working", "sending…", "answering", "retrying in", "waiting for you", "running ", "compacting", "stopping"} {
		if strings.Contains(status, w) {
			return true
		}
	}
	return false
}

// waitText waits until the screen shows every one of texts.
func (s *tmuxServer) waitText(timeout time.Duration, texts ...string) string {
	s.t.Helper()
	return s.waitFor(fmt.Sprintf("%q", texts), timeout, func(scr string) bool {
		for _, t := range texts {
			if !strings.Contains(scr, t) {
				return false
			}
		}
		return true
	})
}

// tmuxControl is a control-mode client (tmux -C) of a server: commands go
// over one connection instead of a process each, so polling the screen every
// few milliseconds costs little and measures little of itself.
type tmuxControl struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

// control attaches a control-mode client to the server; it detaches when the
// test ends. It asks for no %output notifications (the screen is read with
// capture-pane), and commands must name their target.
func (s *tmuxServer) control() *tmuxControl {
	s.t.Helper()
	cmd, in, out := s.attachControl("-f", "no-output")
	c := &tmuxControl{cmd: cmd, in: in, out: bufio.NewReader(out)}
	s.t.Cleanup(func() {
		_ = in.Close() // the client detaches at the end of its input
		_ = cmd.Wait()
	})
	if out, err := c.do("display-message -p attached"); err != nil || out != "attached\n" {
		s.t.Fatalf("control client: %q, %v", out, err)
	}
	return c
}

// attachControl starts a control-mode client of the session with flags
// for attach-session, and returns it with its input and output.
func (s *tmuxServer) attachControl(flags ...string) (*exec.Cmd, io.WriteCloser, io.ReadCloser) {
	s.t.Helper()
	cmd := exec.Command("tmux", append(append([]string{"-L", s.socket, "-C", "attach-session"}, flags...), "-t", tmuxSession)...)
	cmd.Env = s.env
	in, err := cmd.StdinPipe()
	if err != nil {
		s.t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		s.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("attach a control client: %v", err)
	}
	return cmd, in, out
}

// do runs one command line (tmux syntax: quote arguments) and returns its
// output. Blocks of commands other clients ran, and notifications, are
// skipped: the %begin of a command this client sent has flags 1.
func (c *tmuxControl) do(line string) (string, error) {
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		return "", fmt.Errorf("send %q: %w", line, err)
	}
	var out strings.Builder
	inBlock := false
	for {
		l, err := c.out.ReadString('\n')
		if err != nil {
			return "", fmt.Errorf("read the answer to %q: %w", line, err)
		}
		l = strings.TrimSuffix(l, "\n")
		switch {
		case !inBlock:
			f := strings.Fields(l)
			inBlock = len(f) == 4 && f[0] == "%begin" && f[3] == "1"
		case strings.HasPrefix(l, "%end "):
			return out.String(), nil
		case strings.HasPrefix(l, "%error "):
			return "", fmt.Errorf("tmux %q: %s", line, strings.TrimSpace(out.String()))
		default:
			out.WriteString(l)
			out.WriteByte('\n')
		}
	}
}
