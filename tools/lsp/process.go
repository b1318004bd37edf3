package lsp

import (
	"context"
	"errors"
	"io"
	"os/exec"
	"strings"
	"sync"
	"syscall"

	"github.com/sourcegraph/jsonrpc2"
)

// process is one run of the server.
type process struct {
	cmd    *exec.Cmd
	conn   *jsonrpc2.Conn
	stderr *tailBuffer
	// exited is closed once the process is gone.
	exited chan struct{}

	// Notifications wait in queue for the sender goroutine (send), so
	// that a server that stops reading never blocks an edit.
	qmu   sync.Mutex
	queue []outMessage
	qsig  chan struct{}
}

// outMessage is a notification waiting to be written.
type outMessage struct {
	method string
	params any
}

// pipes joins the server's stdout and stdin into one connection.
type pipes struct {
	io.ReadCloser
	w io.WriteCloser
}

func (p pipes) Write(b []byte) (int, error) { return p.w.Write(b) }

// tailBuffer keeps the last bytes a server wrote to stderr, for messages.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

// post queues a notification; it never blocks.
func (p *process) post(method string, params any) {
	p.qmu.Lock()
	p.queue = append(p.queue, outMessage{method, params})
	p.qmu.Unlock()
	select {
	case p.qsig <- struct{}{}:
	default:
	}
}

// send writes the queued notifications in order until the process exits.
func (p *process) send() {
	for {
		select {
		case <-p.exited:
			return
		case <-p.qsig:
		}
		p.qmu.Lock()
		q := p.queue
		p.queue = nil
		p.qmu.Unlock()
		for _, m := range q {
			if err := p.conn.Notify(context.Background(), m.method, m.params); err != nil {
				break
			}
		}
	}
}

// Write keeps the end of what was written.
func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append([]byte(nil), t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

// Close closes both ends.
func (p pipes) Close() error { return errors.Join(p.w.Close(), p.ReadCloser.Close()) }

// kill ends the process group at once.
func (p *process) kill() {
	if p.cmd.Process != nil {
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	}
}

// tail returns the last stderr line, as ": line", or "".
func (t *tailBuffer) tail() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimSpace(string(t.b))
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 200 {
		s = s[:200]
	}
	if s == "" {
		return ""
	}
	return ": " + s
}
