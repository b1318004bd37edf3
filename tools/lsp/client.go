package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// maxRestarts is how often a crashed server is started again.
const maxRestarts = 1

// initializeTimeout bounds a server's start-up in the background; edits
// wait for it only up to lsp_wait.
const initializeTimeout = 30 * time.Second

// doc is a document the server was told about.
type doc struct {
	text    string
	version int
	// open is true once didOpen reached the current process.
	open bool
}

// published is the latest diagnostics a server sent for one file.
type published struct {
	diags []lspDiagnostic
	// seq orders publications across files (client.seq at arrival).
	seq uint64
	// version is the document version the server says it reported on;
	// -1 when it does not say.
	version int
}

// client is one language server process for one root, restarted once if
// it crashes.
type client struct {
	cfg  ServerConfig
	path string // the command, resolved
	root string
	env  []string

	mu       sync.Mutex
	state    State
	lastErr  string
	restarts int
	proc     *process
	// ready is closed when the current process finished initializing or
	// failed to; a restart makes a new one.
	ready chan struct{}
	docs  map[string]*doc
	diags map[string]published
	seq   uint64
	// notify is closed and replaced each time diagnostics arrive.
	notify chan struct{}
	// stopping is set by stop: an exit is then no crash.
	stopping bool
	// files remembers the disk state of the files it covers (sync.go).
	files map[string]fileStamp
}

// newClient returns a client; start runs it.
func newClient(cfg ServerConfig, path, root string, env []string) *client {
	return &client{
		cfg: cfg, path: path, root: root, env: env,
		docs: map[string]*doc{}, diags: map[string]published{},
		notify: make(chan struct{}), ready: make(chan struct{}),
	}
}

// start launches the process and initializes it in the background. Call
// with c.mu held.
func (c *client) start() {
	c.state = StateStarting
	ready := make(chan struct{})
	c.ready = ready
	cmd := exec.Command(c.path, c.cfg.Args...)
	cmd.Dir = c.root
	cmd.Env = c.env
	// Its own process group, so the go list and similar children it runs
	// die with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// A child still holding stderr must not keep Wait from noting the exit.
	cmd.WaitDelay = 100 * time.Millisecond
	stdin, err := cmd.StdinPipe()
	if err == nil {
		var stdout io.ReadCloser
		stdout, err = cmd.StdoutPipe()
		if err == nil {
			p := &process{cmd: cmd, stderr: &tailBuffer{max: 4 << 10}, exited: make(chan struct{}), qsig: make(chan struct{}, 1)}
			cmd.Stderr = p.stderr
			if err = cmd.Start(); err == nil {
				stream := jsonrpc2.NewBufferedStream(pipes{stdout, stdin}, jsonrpc2.VSCodeObjectCodec{})
				p.conn = jsonrpc2.NewConn(context.Background(), stream, jsonrpc2.HandlerWithError(c.handle), jsonrpc2.SetLogger(log.New(io.Discard, "", 0)))
				c.proc = p
				go c.wait(p)
				go p.send()
				go c.initialize(p, ready)
				return
			}
		}
	}
	c.state = StateFailed
	c.lastErr = fmt.Sprintf("start %s: %v", c.cfg.Command, err)
	close(ready)
}

// initialize runs the protocol's handshake with p, then opens the
// documents a previous process had.
func (c *client) initialize(p *process, ready chan struct{}) {
	defer close(ready)
	ctx, cancel := context.WithTimeout(context.Background(), initializeTimeout)
	defer cancel()
	go func() { // the process ending ends the wait
		select {
		case <-p.exited:
			cancel()
		case <-ctx.Done():
		}
	}()
	// The disk as the server will first read it, for later re-syncs.
	files := c.scan(ctx, c.root)
	c.mu.Lock()
	if c.files == nil {
		c.files = files
	}
	c.mu.Unlock()
	rootURI := fileURI(c.root)
	params := initializeParams{
		ProcessID:             os.Getpid(),
		ClientInfo:            clientInfo{Name: "tern"},
		RootURI:               rootURI,
		WorkspaceFolders:      []workspaceFolder{{URI: rootURI, Name: filepath.Base(c.root)}},
		Capabilities:          clientCapabilities(),
		InitializationOptions: c.cfg.InitOptions,
	}
	var result json.RawMessage
	err := p.conn.Call(ctx, "initialize", params, &result)
	if err == nil {
		err = p.conn.Notify(ctx, "initialized", struct{}{})
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.proc != p || c.stopping {
		return
	}
	if err != nil {
		select {
		case <-p.exited:
			return // it crashed: wait restarts or reports it
		default:
		}
		if errors.Is(err, jsonrpc2.ErrClosed) {
			return // its output closed: it is exiting, wait sees to it
		}
		// It refused to initialize, or never answered: no restart.
		c.lastErr = fmt.Sprintf("initialize: %v%s", err, p.stderr.tail())
		c.state = StateFailed
		c.proc = nil
		p.kill()
		return
	}
	c.state = StateRunning
	for uri, d := range c.docs {
		d.open = false
		c.sendLocked(uri, d)
	}
}

// wait notes the end of process p: a crash restarts it once.
func (c *client) wait(p *process) {
	err := p.cmd.Wait()
	_ = p.conn.Close()
	close(p.exited)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.proc != p || c.stopping {
		return
	}
	why := "exited"
	if err != nil {
		why = err.Error()
	}
	c.lastErr = fmt.Sprintf("crashed (%s)%s", why, p.stderr.tail())
	c.proc = nil
	c.diags = map[string]published{}
	c.wake()
	if c.restarts < maxRestarts {
		c.restarts++
		c.start()
		return
	}
	c.state = StateFailed
}

// handle answers the server's requests and takes its notifications.
func (c *client) handle(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	switch req.Method {
	case "textDocument/publishDiagnostics":
		var p publishDiagnosticsParams
		if req.Params == nil || json.Unmarshal(*req.Params, &p) != nil {
			return nil, nil
		}
		c.mu.Lock()
		c.seq++
		v := -1
		if p.Version != nil {
			v = *p.Version
		}
		c.diags[p.URI] = published{diags: p.Diagnostics, seq: c.seq, version: v}
		c.wake()
		c.mu.Unlock()
		return nil, nil
	case "workspace/configuration":
		// One null per item asked: no settings beyond the defaults.
		var p struct {
			Items []json.RawMessage `json:"items"`
		}
		if req.Params != nil {
			_ = json.Unmarshal(*req.Params, &p)
		}
		return make([]any, len(p.Items)), nil
	case "workspace/workspaceFolders":
		return []workspaceFolder{{URI: fileURI(c.root), Name: filepath.Base(c.root)}}, nil
	}
	// client/registerCapability, window/workDoneProgress/create,
	// window/showMessageRequest and the rest are acknowledged with
	// nothing; notifications (logs, progress) are dropped.
	return nil, nil
}

// wake tells the waiters that diagnostics arrived. Call with c.mu held.
func (c *client) wake() {
	close(c.notify)
	c.notify = make(chan struct{})
}

// sendLocked queues d for the current process: didOpen the first time,
// didChange after. Call with c.mu held, in StateRunning.
func (c *client) sendLocked(uri string, d *doc) {
	p := c.proc
	if p == nil {
		return
	}
	if !d.open {
		d.open = true
		p.post("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{
			URI: uri, LanguageID: languageID(uri), Version: d.version, Text: d.text}})
		return
	}
	p.post("textDocument/didChange", didChangeParams{
		TextDocument: versionedDocument{URI: uri, Version: d.version}, ContentChanges: []contentChange{{Text: d.text}}})
}

// stop shuts the server down politely and kills it when it has not exited
// by the deadline of ctx.
func (c *client) stop(ctx context.Context) {
	c.mu.Lock()
	c.stopping = true
	c.state = StateStopped
	p := c.proc
	c.wake()
	c.mu.Unlock()
	if p == nil {
		return
	}
	go func() { // polite, while the deadline runs
		_ = p.conn.Call(ctx, "shutdown", nil, nil)
		_ = p.conn.Notify(ctx, "exit", nil)
	}()
	select {
	case <-p.exited:
	case <-ctx.Done():
		p.kill()
		<-p.exited
	}
}
