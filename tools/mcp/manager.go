package mcp

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/imaging"
)

// Options configure a Manager.
type Options struct {
	// Servers are the configured servers; names must be unique.
	Servers []ServerConfig
	// Getenv reads tern's environment for the variables servers get and
	// the $VARS in their configuration.
	Getenv func(string) string
	// Dir is the working directory of stdio servers (the workspace).
	Dir string
	// OutputCap limits each result, in bytes (0: tools.DefaultOutputCap).
	OutputCap int
	// Version is tern's version, sent as the client's.
	Version string
	// Delay holds the servers' start back after Start, so that their
	// processes do not compete for the CPU with the interface's first
	// frame; the wait counts as starting (Wait includes it).
	Delay time.Duration
	// TrustReadOnly is mcp_trust_read_only: only with it do the tools
	// their server marks readOnlyHint say they are read-only (ReadOnly),
	// as the approval engine's read-only policy trusts them only then.
	TrustReadOnly bool
	// transport, when set, replaces the real transports (tests).
	transport func(ServerConfig) (sdk.Transport, error)
}

// Manager runs the configured servers and offers their tools. It
// implements tools.Source. Create it with New, call Start once, and Close
// when the session ends.
type Manager struct {
	opts    Options
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	servers []*server
	// changed is closed and replaced whenever a server's state changes.
	mu      sync.Mutex
	changed chan struct{}
	// decoding lets one picture of the servers' results at a time be
	// decoded and scaled: each may take a few hundred MB, and calls run in
	// parallel.
	decoding sync.Mutex
}

// prepareImage is imaging.Prepare, one picture at a time, and none once
// ctx (the call's) is done.
func (m *Manager) prepareImage(ctx context.Context, name string, data []byte) (imaging.Image, error) {
	m.decoding.Lock()
	defer m.decoding.Unlock()
	if ctx.Err() != nil {
		return imaging.Image{}, errors.New("the call was cancelled")
	}
	return imaging.Prepare(name, data)
}

var _ tools.Source = (*Manager)(nil)

// New checks the configurations and returns a manager with every server
// not yet started.
func New(opts Options) (*Manager, error) {
	if opts.Getenv == nil {
		opts.Getenv = func(string) string { return "" }
	}
	if opts.OutputCap <= 0 {
		opts.OutputCap = tools.DefaultOutputCap
	}
	m := &Manager{opts: opts, changed: make(chan struct{})}
	seen := map[string]bool{}
	var errs []error
	for _, c := range opts.Servers {
		if err := c.Validate(); err != nil {
			errs = append(errs, err)
			continue
		}
		if seen[c.Name] {
			errs = append(errs, fmt.Errorf("MCP server %s is configured twice", c.Name))
			continue
		}
		seen[c.Name] = true
		m.servers = append(m.servers, &server{m: m, cfg: c, state: StateStarting})
	}
	sort.Slice(m.servers, func(i, j int) bool { return m.servers[i].cfg.Name < m.servers[j].cfg.Name })
	return m, errors.Join(errs...)
}

// Start connects every enabled server in the background; it returns at
// once. The servers stop when ctx ends or Close is called.
func (m *Manager) Start(ctx context.Context) {
	m.ctx, m.cancel = context.WithCancel(ctx)
	for _, s := range m.servers {
		if s.cfg.Disabled {
			s.setState(StateDisabled, "", nil)
			continue
		}
		m.launch(s, m.opts.Delay)
	}
}

// launch starts one server's connection on a goroutine of its own, after
// delay.
func (m *Manager) launch(s *server, delay time.Duration) {
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		if delay > 0 {
			t := time.NewTimer(delay)
			defer t.Stop()
			select {
			case <-m.ctx.Done():
				return
			case <-t.C:
			}
		}
		s.connect(m.ctx)
	}()
}

// Reconnect restarts a server that failed (or any other one): its old
// connection is closed and a new one starts in the background.
func (m *Manager) Reconnect(name string) error {
	for _, s := range m.servers {
		if s.cfg.Name != name {
			continue
		}
		if m.ctx == nil || m.ctx.Err() != nil {
			return errors.New("MCP servers are not running")
		}
		s.disconnect()
		s.setState(StateStarting, "", nil)
		m.launch(s, 0)
		return nil
	}
	return fmt.Errorf("no MCP server is named %q", name)
}

// Wait returns once no server is still starting, or when ctx ends. Each
// server's own startup timeout bounds the wait.
func (m *Manager) Wait(ctx context.Context) {
	for {
		m.mu.Lock()
		starting := false
		for _, s := range m.servers {
			if s.state == StateStarting {
				starting = true
			}
		}
		ch := m.changed
		m.mu.Unlock()
		if !starting {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-ch:
		}
	}
}

// Tools returns the tools of the ready servers, sorted by name.
func (m *Manager) Tools() []tools.Tool {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []tools.Tool
	for _, s := range m.servers {
		if s.state != StateReady {
			continue
		}
		for _, t := range s.tools {
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Spec().Name < out[j].Spec().Name })
	return out
}

// Servers returns every server's state, sorted by name.
func (m *Manager) Servers() []Status {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Status, 0, len(m.servers))
	for _, s := range m.servers {
		st := Status{Name: s.cfg.Name, Transport: s.cfg.Transport(), Project: s.cfg.Project, State: s.state, Err: s.err}
		for _, t := range s.tools {
			st.Tools = append(st.Tools, ToolInfo{Name: t.name, Remote: t.remote, Description: t.description, ReadOnlyHint: t.readOnly})
		}
		st.Prompts = append([]PromptInfo(nil), s.prompts...)
		out = append(out, st)
	}
	return out
}

// Counts returns how many servers are ready and how many are enabled, for
// a badge such as "mcp 2/3".
func (m *Manager) Counts() (ready, enabled int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range m.servers {
		switch s.state {
		case StateReady:
			ready++
			enabled++
		case StateStarting, StateFailed:
			enabled++
		case StateDisabled:
		}
	}
	return ready, enabled
}

// Changed returns a channel closed at the next change of any server's
// state or tools.
func (m *Manager) Changed() <-chan struct{} {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.changed
}

// notifyLocked wakes the waiters of Changed; m.mu must be held.
func (m *Manager) notifyLocked() {
	close(m.changed)
	m.changed = make(chan struct{})
}

// Close stops every server and waits for the manager's goroutines. How
// the servers exit is not an error of tern's, so it returns nil; it has an
// error to be an io.Closer.
func (m *Manager) Close() error {
	if m.cancel != nil {
		m.cancel()
	}
	// Together: a server that is slow to exit holds only itself up.
	var stopping sync.WaitGroup
	for _, s := range m.servers {
		stopping.Go(s.disconnect)
	}
	stopping.Wait()
	m.wg.Wait()
	m.mu.Lock()
	m.notifyLocked() // wakes whoever waits on Changed
	m.mu.Unlock()
	return nil
}
