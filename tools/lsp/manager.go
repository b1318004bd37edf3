package lsp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/ternhq/tern/tools"
)

// Defaults of Options.
const (
	// DefaultWait is lsp_wait: the longest an edit waits for diagnostics.
	DefaultWait = 2 * time.Second
	// DefaultSettle is how long a server must stay quiet after its first
	// report on a change before the report counts as its last.
	DefaultSettle = 250 * time.Millisecond
	// DefaultStopTimeout is how long a server has to exit at quit before
	// it is killed.
	DefaultStopTimeout = time.Second
)

// Options configure a Manager.
type Options struct {
	// Root is the workspace's real absolute path.
	Root string
	// Servers are the servers to use, in order of preference (Merge).
	Servers []ServerConfig
	// Wait, Settle and StopTimeout default to DefaultWait, DefaultSettle
	// and DefaultStopTimeout.
	Wait, Settle, StopTimeout time.Duration
	// Env is the servers' environment.
	Env []string
	// LookPath finds a command; exec.LookPath when nil.
	LookPath func(string) (string, error)
}

// Manager starts language servers on demand and answers the file tools'
// questions about diagnostics (tools.Diagnoser). Close stops them all.
type Manager struct {
	opts Options

	mu      sync.Mutex
	clients map[string]*client // by server name and root
	order   []string
	paths   map[string]string // command → resolved path, "" when missing
	closed  bool
}

// New returns a manager; no server starts before a file needs one.
func New(opts Options) *Manager {
	if opts.Wait <= 0 {
		opts.Wait = DefaultWait
	}
	if opts.Settle <= 0 {
		opts.Settle = DefaultSettle
	}
	if opts.StopTimeout <= 0 {
		opts.StopTimeout = DefaultStopTimeout
	}
	if opts.LookPath == nil {
		opts.LookPath = exec.LookPath
	}
	return &Manager{opts: opts, clients: map[string]*client{}, paths: map[string]string{}}
}

var _ tools.Diagnoser = (*Manager)(nil)

// clientFor returns the client for the file at abs, starting its server
// when start is set; nil when no server on PATH covers the file.
func (m *Manager) clientFor(abs string, start bool) *client {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil
	}
	for _, s := range m.opts.Servers {
		if !s.covers(abs) {
			continue
		}
		path := m.lookLocked(s.Command)
		if path == "" {
			continue
		}
		root := m.rootFor(abs, s.RootMarkers)
		key := s.Name + "\x00" + root
		if c, ok := m.clients[key]; ok || !start {
			return c
		}
		c := newClient(s, path, root, m.opts.Env)
		c.mu.Lock()
		c.start()
		c.mu.Unlock()
		m.clients[key] = c
		m.order = append(m.order, key)
		return c
	}
	return nil
}

// lookLocked finds a command on PATH once. Call with m.mu held.
func (m *Manager) lookLocked(cmd string) string {
	if p, ok := m.paths[cmd]; ok {
		return p
	}
	p, err := m.opts.LookPath(cmd)
	if err != nil {
		p = ""
	}
	m.paths[cmd] = p
	return p
}

// rootFor is the nearest folder above abs, inside the workspace, holding
// one of markers; the workspace root when none does.
func (m *Manager) rootFor(abs string, markers []string) string {
	dir := filepath.Dir(abs)
	for inside(m.opts.Root, dir) {
		for _, mk := range markers {
			if _, err := os.Lstat(filepath.Join(dir, mk)); err == nil {
				return dir
			}
		}
		if dir == m.opts.Root {
			break
		}
		dir = filepath.Dir(dir)
	}
	return m.opts.Root
}

// Touch starts the server for the file at abs in the background.
func (m *Manager) Touch(abs string) { m.clientFor(abs, true) }

// running lists the clients not stopped, in start order.
func (m *Manager) running() []*client {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]*client, 0, len(m.order))
	for _, k := range m.order {
		out = append(out, m.clients[k])
	}
	return out
}

// Close stops every server: shutdown and exit, then a kill for those still
// running after the stop timeout. Later calls do nothing.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	m.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), m.opts.StopTimeout)
	defer cancel()
	var wg sync.WaitGroup
	for _, c := range m.running() {
		wg.Go(func() { c.stop(ctx) })
	}
	wg.Wait()
	return nil
}
