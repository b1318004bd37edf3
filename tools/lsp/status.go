package lsp

// Status describes one language server for /lsp.
type Status struct {
	Name  string
	Root  string
	State State
	// Files is how many documents it was sent.
	Files int
	// Restarts counts restarts after a crash.
	Restarts int
	// LastError is the latest failure: a crash, a failed start.
	LastError string
}

// Servers describes the servers started this session, in start order.
func (m *Manager) Servers() []Status {
	var out []Status
	for _, c := range m.running() {
		c.mu.Lock()
		out = append(out, Status{Name: c.cfg.Name, Root: c.root, State: c.state, Files: len(c.docs), Restarts: c.restarts, LastError: c.lastErr})
		c.mu.Unlock()
	}
	return out
}

// Running counts the servers starting or running, for the status line.
func (m *Manager) Running() int {
	n := 0
	for _, s := range m.Servers() {
		switch s.State {
		case StateStarting, StateRunning:
			n++
		case StateFailed, StateStopped:
		}
	}
	return n
}
