package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ternhq/tern/tools"
)

// maxDescription caps a tool's description as offered to the model.
const maxDescription = 2048

// emptySchema is offered for a tool whose server gives no usable schema.
const emptySchema = `{"type":"object","properties":{}}`

// server is one configured server and its connection. The fields after
// cfg are guarded by m.mu.
type server struct {
	m   *Manager
	cfg ServerConfig

	state   State
	err     string
	tools   []*tool
	prompts []PromptInfo
	// session is the live connection while ready; gen counts connections,
	// so a late event of an old one is ignored.
	session *sdk.ClientSession
	gen     int
	// proc is the stdio server's process, killed when it will not stop.
	proc *exec.Cmd
}

// setState records a state change and wakes the waiters.
func (s *server) setState(st State, why string, ts []*tool) {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	s.state, s.err, s.tools = st, why, ts
	s.m.notifyLocked()
}

// connect starts the server, lists its tools, then watches the connection
// until it ends. It runs on a goroutine of its own.
func (s *server) connect(ctx context.Context) {
	s.m.mu.Lock()
	s.gen++
	gen := s.gen
	s.m.mu.Unlock()

	sctx, cancel := context.WithTimeout(ctx, s.cfg.startupTimeout())
	defer cancel()
	tr, stderr, proc, err := s.transport()
	if err != nil {
		s.fail(gen, err.Error())
		return
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "tern", Version: s.m.opts.Version}, &sdk.ClientOptions{
		Capabilities:             &sdk.ClientCapabilities{},
		ToolListChangedHandler:   func(context.Context, *sdk.ToolListChangedRequest) { s.m.relist(s, gen) },
		PromptListChangedHandler: func(context.Context, *sdk.PromptListChangedRequest) { s.m.relist(s, gen) },
	})
	cs, err := client.Connect(sctx, tr, nil)
	if err != nil {
		killProc(proc)
		s.fail(gen, describe("could not start", err, sctx, s.cfg.startupTimeout(), stderr))
		return
	}
	ts, err := s.list(sctx, cs)
	if err != nil {
		_ = cs.Close()
		killProc(proc)
		s.fail(gen, describe("could not list its tools", err, sctx, s.cfg.startupTimeout(), stderr))
		return
	}
	prompts := s.listPrompts(sctx, cs)
	s.m.mu.Lock()
	if s.gen != gen || ctx.Err() != nil {
		s.m.mu.Unlock()
		_ = cs.Close()
		killProc(proc)
		return
	}
	s.session, s.proc = cs, proc
	s.state, s.err, s.tools, s.prompts = StateReady, "", ts, prompts
	s.m.notifyLocked()
	s.m.mu.Unlock()

	werr := cs.Wait()
	if ctx.Err() != nil {
		return
	}
	why := "the server exited"
	if werr != nil && !errors.Is(werr, sdk.ErrConnectionClosed) {
		why += ": " + werr.Error()
	}
	if tail := stderr.String(); tail != "" {
		why += "; its last error output: " + tail
	}
	s.fail(gen, why)
}

// fail marks the server failed, unless a newer connection replaced gen.
func (s *server) fail(gen int, why string) {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	if s.gen != gen {
		return
	}
	s.state, s.err, s.tools, s.prompts, s.session = StateFailed, why, nil, nil, nil
	s.m.notifyLocked()
}

// disconnect closes the live connection, if any, and kills what is left
// of a stdio server.
func (s *server) disconnect() {
	s.m.mu.Lock()
	cs, proc := s.session, s.proc
	s.session, s.proc = nil, nil
	s.gen++
	s.m.mu.Unlock()
	if cs == nil {
		return
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = cs.Close() // a server killed on the way out is no error of tern's
	}()
	select {
	case <-done:
	case <-time.After(3 * terminateWait):
	}
	killProc(proc) // what the server started may outlive it
	<-done
}

// describe words a startup failure, with the server's last error output.
func describe(what string, err error, ctx context.Context, timeout time.Duration, stderr *tail) string {
	msg := what + ": " + err.Error()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		msg = fmt.Sprintf("%s: no answer within its startup timeout (%s)", what, timeout)
	}
	if t := stderr.String(); t != "" {
		msg += "; its last error output: " + t
	}
	return msg
}

// list reads every page of the server's tools.
func (s *server) list(ctx context.Context, cs *sdk.ClientSession) ([]*tool, error) {
	var out []*tool
	seen := map[string]bool{}
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		name := ToolName(s.cfg.Name, t.Name)
		if seen[name] {
			name = withHash(name, Prefix+s.cfg.Name+"__"+t.Name)
		}
		seen[name] = true
		desc := t.Description
		if len(desc) > maxDescription {
			desc = desc[:runeStart(desc, maxDescription)] + "…"
		}
		ro := t.Annotations != nil && t.Annotations.ReadOnlyHint
		out = append(out, &tool{srv: s, name: name, remote: t.Name, description: desc, schema: inputSchema(t.InputSchema), readOnly: ro})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, nil
}

// inputSchema is the tool's schema as compact JSON with sorted keys (the
// same bytes on every request), or an empty object schema.
func inputSchema(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil || len(b) == 0 || b[0] != '{' {
		return json.RawMessage(emptySchema)
	}
	var obj map[string]any
	if json.Unmarshal(b, &obj) != nil {
		return json.RawMessage(emptySchema)
	}
	if _, ok := obj["type"]; !ok {
		obj["type"] = "object"
	}
	b, err = json.Marshal(obj)
	if err != nil {
		return json.RawMessage(emptySchema)
	}
	return b
}

// relist reads a server's tools again after it announced a change; the
// new list is offered from the next turn (the agent reads Tools at turn
// boundaries only).
func (m *Manager) relist(s *server, gen int) {
	m.mu.Lock()
	if m.ctx == nil || m.ctx.Err() != nil || s.gen != gen || s.session == nil {
		m.mu.Unlock()
		return
	}
	cs := s.session
	m.wg.Add(1)
	m.mu.Unlock()
	go func() {
		defer m.wg.Done()
		ctx, cancel := context.WithTimeout(m.ctx, s.cfg.startupTimeout())
		defer cancel()
		ts, err := s.list(ctx, cs)
		if err != nil {
			return // the old list stays; a dead server is noticed by connect
		}
		prompts := s.listPrompts(ctx, cs)
		m.mu.Lock()
		defer m.mu.Unlock()
		if s.gen == gen && s.state == StateReady {
			s.tools, s.prompts = ts, prompts
			m.notifyLocked()
		}
	}()
}

// runeStart returns the largest index <= n that starts a rune.
func runeStart(s string, n int) int {
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return n
}

// tail keeps the last bytes a server wrote to its standard error.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

// tailMax is how much of a server's error output is kept.
const tailMax = 512

// Write keeps the last tailMax bytes.
func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailMax {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-tailMax:]...)
	}
	return len(p), nil
}

// String is the kept output on one line.
func (t *tail) String() string {
	if t == nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.Join(strings.Fields(strings.ToValidUTF8(string(t.buf), "")), " ")
	return tools.Redact(clean(s)) // a server may print a token it was given
}
