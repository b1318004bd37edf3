package acp

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/internal/commands"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/mcp"
)

// fakeService is an app.Service whose turns a script plays. Methods the
// tests do not use panic (the embedded interface is nil).
type fakeService struct {
	app.Service
	events chan agent.Event

	mu         sync.Mutex
	id         string
	policy     agent.Policy
	planning   bool
	prev       agent.Policy
	turn       int
	busy       bool
	cancelTurn context.CancelFunc
	turnDone   chan struct{}
	submitted  []string
	cancels    int
	opened     string
	replay     []agent.Event
	attach     map[string]string
	custom     []commands.Command

	// images are the pictures of each SubmitImages.
	images [][]provider.Image
	// turnModels are the models SubmitAs was given.
	turnModels []string
	// script plays a turn; it returns how the turn ended.
	script func(t *fakeTurn) agent.Finish
	ranOut chan struct{}
}

// fakeTurn is a turn being played.
type fakeTurn struct {
	f    *fakeService
	ctx  context.Context
	n    int
	text string
}

func (t *fakeTurn) emit(ev agent.Event) {
	ev.Turn = t.n
	t.f.events <- ev
}

// approve emits an approval request and waits for its answer (or the
// turn's end), as the agent does.
func (t *fakeTurn) approve(r *agent.ApprovalRequest) agent.Decision {
	t.emit(agent.Event{Kind: agent.EventApprovalRequested, Call: &r.Call, Approval: r})
	var d agent.Decision
	select {
	case d = <-r.Decisions():
	case <-t.ctx.Done():
		d = agent.Decision{Kind: agent.Cancelled}
		r.Reply(d)
	}
	t.emit(agent.Event{Kind: agent.EventApprovalResolved, Call: &r.Call, Approval: r, Decision: d})
	return d
}

func newFake(script func(t *fakeTurn) agent.Finish) *fakeService {
	return &fakeService{events: make(chan agent.Event, 1024), id: "sess-1", policy: agent.PolicyAsk,
		script: script, ranOut: make(chan struct{}), attach: map[string]string{}}
}

func (f *fakeService) Run(ctx context.Context) {
	<-ctx.Done()
	f.mu.Lock()
	if f.cancelTurn != nil {
		f.cancelTurn()
	}
	done := f.turnDone
	f.mu.Unlock()
	if done != nil {
		<-done
	}
	close(f.events)
	close(f.ranOut)
}

func (f *fakeService) Events() <-chan agent.Event { return f.events }

// AttachImage attaches no pictures.
func (f *fakeService) AttachImage(string) (provider.Image, error) {
	return provider.Image{}, app.ErrUnavailable
}

// SubmitAs records the turn's model, then sends like SubmitImages.
func (f *fakeService) SubmitAs(model, text string, images []provider.Image) error {
	f.mu.Lock()
	f.turnModels = append(f.turnModels, model)
	f.mu.Unlock()
	return f.SubmitImages(text, images)
}

// SubmitImages records the text and the pictures.
func (f *fakeService) SubmitImages(text string, images []provider.Image) error {
	f.mu.Lock()
	f.images = append(f.images, images)
	f.mu.Unlock()
	return f.Submit(text)
}

func (f *fakeService) Submit(text string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.busy {
		return agent.ErrBusy
	}
	f.busy = true
	f.turn++
	f.submitted = append(f.submitted, text)
	ctx, cancel := context.WithCancel(context.Background())
	f.cancelTurn = cancel
	done := make(chan struct{})
	f.turnDone = done
	t := &fakeTurn{f: f, ctx: ctx, n: f.turn, text: text}
	script := f.script
	go func() {
		defer close(done)
		t.emit(agent.Event{Kind: agent.EventTurnStarted, Text: text})
		fin := agent.Finish{Reason: agent.FinishDone}
		if script != nil {
			fin = script(t)
		}
		if ctx.Err() != nil && fin.Reason == agent.FinishDone {
			fin.Reason = agent.FinishCancelled
		}
		f.mu.Lock()
		f.busy = false
		f.mu.Unlock()
		t.emit(agent.Event{Kind: agent.EventTurnFinished, Finish: &fin})
		cancel()
	}()
	return nil
}

// cancelCount is how many times Cancel was called.
func (f *fakeService) cancelCount() int { f.mu.Lock(); defer f.mu.Unlock(); return f.cancels }

// prompts are the messages submitted.
func (f *fakeService) prompts() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.submitted...)
}

func (f *fakeService) openedID() string { f.mu.Lock(); defer f.mu.Unlock(); return f.opened }

func (f *fakeService) setScript(s func(t *fakeTurn) agent.Finish) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.script = s
}

func (f *fakeService) Cancel() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cancels++
	if f.cancelTurn != nil {
		f.cancelTurn()
	}
}

func (f *fakeService) ID() string { f.mu.Lock(); defer f.mu.Unlock(); return f.id }

func (f *fakeService) Policy() agent.Policy { f.mu.Lock(); defer f.mu.Unlock(); return f.policy }

// Model is the session's model, which custom commands compare theirs to.
func (f *fakeService) Model() string { return "session-model" }

func (f *fakeService) SetPolicy(p agent.Policy) { f.mu.Lock(); defer f.mu.Unlock(); f.policy = p }

func (f *fakeService) Planning() bool { f.mu.Lock(); defer f.mu.Unlock(); return f.planning }

func (f *fakeService) EnterPlan() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.planning {
		f.planning, f.prev, f.policy = true, f.policy, agent.PolicyReadOnly
	}
}

func (f *fakeService) LeavePlan() agent.Policy {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.planning {
		f.planning, f.policy = false, f.prev
	}
	return f.policy
}

func (f *fakeService) PlanPolicy() agent.Policy { f.mu.Lock(); defer f.mu.Unlock(); return f.prev }

// AcceptPlan leaves plan mode and sends the acceptance, as the agent does.
func (f *fakeService) AcceptPlan(p agent.Policy) error {
	f.LeavePlan()
	if p != 0 {
		f.SetPolicy(p)
	}
	return f.Submit(agent.PlanAccepted)
}

func (f *fakeService) Context() agent.ContextBytes { return agent.ContextBytes{System: 100, User: 20} }

func (f *fakeService) Attach(path string) (string, error) {
	if c, ok := f.attach[path]; ok {
		return c, nil
	}
	return "", io.ErrUnexpectedEOF
}

func (f *fakeService) Open(_ context.Context, id string, _ bool) (*app.Switch, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.replay == nil {
		return nil, app.ErrUnavailable
	}
	f.opened, f.id = id, id
	return &app.Switch{ID: id, Replay: slices.Values(f.replay)}, nil
}

// testClient is the editor: it records updates and answers permissions.
type testClient struct {
	mu      sync.Mutex
	updates []sdk.SessionNotification
	asked   []sdk.RequestPermissionRequest
	// permit answers a permission request; nil cancels it.
	permit func(ctx context.Context, r sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error)
	files  map[string]string
	wrote  map[string]string
}

func (c *testClient) ReadTextFile(_ context.Context, p sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.files[p.Path]
	if !ok {
		return sdk.ReadTextFileResponse{}, sdk.NewInternalError(map[string]any{"error": "no such buffer"})
	}
	return sdk.ReadTextFileResponse{Content: s}, nil
}

func (c *testClient) WriteTextFile(_ context.Context, p sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.wrote == nil {
		c.wrote = map[string]string{}
	}
	c.wrote[p.Path] = p.Content
	return sdk.WriteTextFileResponse{}, nil
}

func (c *testClient) RequestPermission(ctx context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	c.mu.Lock()
	c.asked = append(c.asked, p)
	permit := c.permit
	c.mu.Unlock()
	if permit == nil {
		return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}, nil
	}
	return permit(ctx, p)
}

func (c *testClient) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.updates = append(c.updates, n)
	return nil
}

func (c *testClient) CreateTerminal(context.Context, sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	return sdk.CreateTerminalResponse{}, sdk.NewMethodNotFound("terminal/create")
}

func (c *testClient) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	return sdk.KillTerminalResponse{}, sdk.NewMethodNotFound("terminal/kill")
}

func (c *testClient) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	return sdk.TerminalOutputResponse{}, sdk.NewMethodNotFound("terminal/output")
}

func (c *testClient) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	return sdk.ReleaseTerminalResponse{}, sdk.NewMethodNotFound("terminal/release")
}

func (c *testClient) WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	return sdk.WaitForTerminalExitResponse{}, sdk.NewMethodNotFound("terminal/wait_for_exit")
}

func (c *testClient) requests() []sdk.RequestPermissionRequest {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]sdk.RequestPermissionRequest(nil), c.asked...)
}

func (c *testClient) snapshot() []sdk.SessionNotification {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]sdk.SessionNotification(nil), c.updates...)
}

// harness is a server on pipes with a client connection to it.
type harness struct {
	conn   *sdk.ClientSideConnection
	client *testClient
	in     *io.PipeWriter
	served chan struct{}
}

// serve starts a server whose sessions are made by factory.
func serve(t *testing.T, factory Factory, client *testClient) *harness {
	t.Helper()
	toAgentR, toAgentW := io.Pipe()
	toClientR, toClientW := io.Pipe()
	h := &harness{client: client, in: toAgentW, served: make(chan struct{})}
	go func() {
		defer close(h.served)
		_ = Serve(context.Background(), toAgentR, toClientW, Options{New: factory, Version: "test"})
		_ = toClientW.Close()
	}()
	h.conn = sdk.NewClientSideConnection(client, toAgentW, toClientR)
	h.conn.SetLogger(slog.New(slog.DiscardHandler))
	t.Cleanup(func() { h.close(t) })
	return h
}

// close ends stdin and waits for the server to stop.
func (h *harness) close(t *testing.T) {
	_ = h.in.Close()
	select {
	case <-h.served:
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not stop after stdin closed")
	}
}

func fixed(f *fakeService) Factory {
	return func(context.Context, string, tools.EditorFiles, []mcp.ServerConfig) (app.Service, error) {
		return f, nil
	}
}

// ready initializes and opens a session.
func (h *harness) ready(t *testing.T, caps sdk.ClientCapabilities) sdk.SessionId {
	t.Helper()
	ctx := context.Background()
	if _, err := h.conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber, ClientCapabilities: caps}); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	n := len(h.client.snapshot())
	resp, err := h.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: "/work/space", McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	waitFor(t, "the session's announcement", func() bool { return len(h.client.snapshot()) >= n+2 })
	return resp.SessionId
}

func prompt(text string) []sdk.ContentBlock { return []sdk.ContentBlock{sdk.TextBlock(text)} }

// waitFor polls until cond holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
