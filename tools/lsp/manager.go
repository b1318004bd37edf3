package lsp

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
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

// inside reports whether p is root or under it.
func inside(root, p string) bool {
	return p == root || strings.HasPrefix(p, root+string(filepath.Separator))
}

// Touch starts the server for the file at abs in the background.
func (m *Manager) Touch(abs string) { m.clientFor(abs, true) }

// Changed sends the new content of abs to its server and waits, up to the
// manager's Wait, for the file's diagnostics; errors that appeared in other
// files with this change come along.
func (m *Manager) Changed(ctx context.Context, abs string, content []byte) (tools.DiagnosticReport, bool) {
	start := time.Now()
	c := m.clientFor(abs, true)
	if c == nil {
		return tools.DiagnosticReport{}, false
	}
	parent := ctx
	ctx, cancel := context.WithDeadline(ctx, start.Add(m.opts.Wait))
	defer cancel()
	rep := tools.DiagnosticReport{Servers: []string{c.cfg.Name}}
	uri := fileURI(abs)
	c.mu.Lock()
	d := c.docs[uri]
	if d == nil {
		d = &doc{}
		c.docs[uri] = d
	}
	d.version++
	d.text = string(content)
	c.noteDiskLocked(abs)
	before := c.errorKeysLocked(uri)
	seq := c.seq
	if c.state == StateRunning {
		c.sendLocked(uri, d)
	}
	c.mu.Unlock()

	if !m.waitReady(ctx, c) {
		if parent.Err() == nil { // an interrupted call needs no note
			rep.Notes = append(rep.Notes, m.notReady(c))
		}
		return rep, true
	}
	if !m.waitReport(ctx, c, uri, seq) {
		if parent.Err() != nil {
			return rep, true
		}
		c.mu.Lock()
		failed := c.state == StateFailed
		c.mu.Unlock()
		if failed {
			rep.Notes = append(rep.Notes, m.notReady(c))
		} else {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s did not report on this change within %s; call diagnostics later to see its report", c.cfg.Name, m.opts.Wait))
		}
		return rep, true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for u, p := range c.diags {
		mine := u == uri
		if !mine && p.seq <= seq {
			continue // not reported again since the change: not caused by it
		}
		for _, ld := range p.diags {
			if !mine && (ld.Severity != int(tools.SeverityError) || before[errorKey(u, ld)]) {
				continue
			}
			if td, ok := m.convert(c, u, ld); ok {
				rep.Diagnostics = append(rep.Diagnostics, td)
			}
		}
	}
	return rep, true
}

// waitReady waits until c's server is initialized; false when it failed
// or ctx ended first.
func (m *Manager) waitReady(ctx context.Context, c *client) bool {
	for {
		c.mu.Lock()
		st, ready := c.state, c.ready
		c.mu.Unlock()
		switch st {
		case StateRunning:
			return true
		case StateFailed, StateStopped:
			return false
		case StateStarting:
		}
		select {
		case <-ready:
		case <-ctx.Done():
			return false
		}
	}
}

// notReady says why a server gave no diagnostics: still starting, or failed.
func (m *Manager) notReady(c *client) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch c.state {
	case StateStarting:
		return fmt.Sprintf("%s is still starting; its diagnostics come with the next edit or a diagnostics call", c.cfg.Name)
	case StateFailed:
		return fmt.Sprintf("%s is not available: %s", c.cfg.Name, c.lastErr)
	case StateStopped:
		return fmt.Sprintf("%s was stopped", c.cfg.Name)
	case StateRunning:
	}
	return fmt.Sprintf("%s is running", c.cfg.Name)
}

// waitReport waits for a report on uri published after seq, then until the
// server has been quiet for the settle period; false when none came before
// ctx ended or the server failed.
func (m *Manager) waitReport(ctx context.Context, c *client, uri string, seq uint64) bool {
	got := false
	var quiet <-chan time.Time
	for {
		c.mu.Lock()
		if c.state == StateFailed || c.state == StateStopped {
			c.mu.Unlock()
			return false
		}
		if p, ok := c.diags[uri]; ok && p.seq > seq && !got {
			got = true
			quiet = time.After(m.opts.Settle)
		}
		notify := c.notify
		c.mu.Unlock()
		select {
		case <-notify:
			// Once the file is reported on, any report (a later pass on
			// it, its callers in other files) restarts the settle period.
			if got {
				quiet = time.After(m.opts.Settle)
			}
		case <-quiet:
			return true
		case <-ctx.Done():
			return got
		}
	}
}

// errorKeysLocked are the errors c holds for files other than uri, so a
// change can tell which errors it caused. Call with c.mu held.
func (c *client) errorKeysLocked(uri string) map[string]bool {
	keys := map[string]bool{}
	for u, p := range c.diags {
		if u == uri {
			continue
		}
		for _, d := range p.diags {
			if d.Severity == int(tools.SeverityError) {
				keys[errorKey(u, d)] = true
			}
		}
	}
	return keys
}

// errorKey identifies a diagnostic across reports.
func errorKey(uri string, d lspDiagnostic) string {
	return fmt.Sprintf("%s\x00%d\x00%d\x00%s", uri, d.Range.Start.Line, d.Range.Start.Character, d.Message)
}

// convert turns a server's diagnostic into the tools' form, with a
// workspace-relative path; false for files outside the workspace.
func (m *Manager) convert(c *client, uri string, d lspDiagnostic) (tools.Diagnostic, bool) {
	abs := uriPath(uri)
	if abs == "" || !inside(m.opts.Root, abs) || abs == m.opts.Root {
		return tools.Diagnostic{}, false
	}
	rel, err := filepath.Rel(m.opts.Root, abs)
	if err != nil {
		return tools.Diagnostic{}, false
	}
	sev := tools.Severity(d.Severity)
	if sev < tools.SeverityError || sev > tools.SeverityHint {
		sev = tools.SeverityError // the protocol: absent means the client decides
	}
	col := d.Range.Start.Character + 1
	if doc := c.docs[uri]; doc != nil {
		col = runeColumn(doc.text, d.Range.Start.Line, d.Range.Start.Character)
	}
	return tools.Diagnostic{
		Path: filepath.ToSlash(rel), Line: d.Range.Start.Line + 1, Col: col,
		Severity: sev, Message: d.Message, Source: d.Source,
	}, true
}

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

// waitQuiet waits for reports after seq until the server is quiet for the
// settle period, or ctx ends. Before the first report it waits first long,
// until ctx ends when 0.
func (m *Manager) waitQuiet(ctx context.Context, c *client, seq uint64, first time.Duration) {
	var quiet <-chan time.Time
	if first > 0 {
		quiet = time.After(first)
	}
	for {
		c.mu.Lock()
		notify := c.notify
		moved := c.seq > seq
		seq = c.seq
		c.mu.Unlock()
		if moved {
			quiet = time.After(m.opts.Settle)
		}
		select {
		case <-notify:
		case <-quiet:
			return
		case <-ctx.Done():
			return
		}
	}
}

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

// fileURI is the file: URI of an absolute path.
func fileURI(abs string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// uriPath is the absolute path of a file: URI, "" for other URIs.
func uriPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return ""
	}
	return filepath.Clean(filepath.FromSlash(u.Path))
}

// runeColumn turns a UTF-16 offset in line (0-based) of text into a
// 1-based character column.
func runeColumn(text string, line, utf16 int) int {
	for i := 0; i < line; i++ {
		j := strings.IndexByte(text, '\n')
		if j < 0 {
			return utf16 + 1
		}
		text = text[j+1:]
	}
	col, units := 1, 0
	for _, r := range text {
		if units >= utf16 || r == '\n' {
			break
		}
		units++
		if r >= 0x10000 {
			units++
		}
		col++
	}
	return col
}
