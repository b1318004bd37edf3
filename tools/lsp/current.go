package lsp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/ternhq/tern/tools"
)

// Current re-syncs the files changed on disk, then returns the diagnostics
// every running server holds for the file or folder at abs. A file whose
// server is not running yet starts it and waits for its report.
func (m *Manager) Current(ctx context.Context, abs string) tools.DiagnosticReport {
	ctx, cancel := context.WithTimeout(ctx, m.opts.Wait)
	defer cancel()
	var rep tools.DiagnosticReport
	if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
		if c := m.clientFor(abs, true); c != nil {
			c.mu.Lock()
			_, known := c.docs[fileURI(abs)]
			c.mu.Unlock()
			if !known {
				if data, err := os.ReadFile(abs); err == nil {
					r, _ := m.Changed(ctx, abs, data)
					rep.Notes = append(rep.Notes, r.Notes...)
				}
			}
		}
	}
	if fi, err := os.Stat(abs); err == nil && fi.IsDir() && len(m.running()) == 0 {
		m.startFor(ctx, abs)
	}
	clients := m.running()
	var changed []*client
	for _, c := range clients {
		if c.resync(ctx, m.opts.Root) {
			changed = append(changed, c)
		}
	}
	for _, c := range changed {
		c.mu.Lock()
		seq := c.seq
		c.mu.Unlock()
		m.waitQuiet(ctx, c, seq, 0)
	}
	for _, c := range clients {
		c.mu.Lock()
		if !slices.Contains(rep.Servers, c.cfg.Name) {
			rep.Servers = append(rep.Servers, c.cfg.Name)
		}
		switch c.state {
		case StateFailed:
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s is not available: %s", c.cfg.Name, c.lastErr))
		case StateStarting:
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s is still starting: call diagnostics again in a moment", c.cfg.Name))
		case StateRunning, StateStopped:
		}
		for u, p := range c.diags {
			if f := uriPath(u); !inside(abs, f) {
				continue
			}
			for _, d := range p.diags {
				if td, ok := m.convert(c, u, d); ok {
					rep.Diagnostics = append(rep.Diagnostics, td)
				}
			}
		}
		c.mu.Unlock()
	}
	sort.Strings(rep.Servers)
	return rep
}

// startFor starts, when none runs yet, the servers whose root markers are
// in dir or the workspace root, and waits for them to initialize and report
// on the workspace until they are quiet, within ctx. A folder whose
// language has no marker (a lone script) waits for a file of it.
func (m *Manager) startFor(ctx context.Context, dir string) {
	var started []*client
	seen := map[string]bool{}
	for _, s := range m.opts.Servers {
		for _, mk := range s.RootMarkers {
			found := false
			for _, d := range []string{dir, m.opts.Root} {
				if _, err := os.Lstat(filepath.Join(d, mk)); err == nil && len(s.Extensions) > 0 {
					// A file of its language in that folder picks the server
					// and root as an edit there would.
					if c := m.clientFor(filepath.Join(d, "tern-probe"+s.Extensions[0]), true); c != nil && !seen[c.cfg.Name+c.root] {
						seen[c.cfg.Name+c.root] = true
						started = append(started, c)
					}
					found = true
					break
				}
			}
			if found {
				break
			}
		}
	}
	for _, c := range started {
		if m.waitReady(ctx, c) {
			c.mu.Lock()
			seq := c.seq
			c.mu.Unlock()
			m.waitQuiet(ctx, c, seq, 0)
		}
	}
}
