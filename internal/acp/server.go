package acp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strconv"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/tools"
	mcppkg "github.com/ternhq/tern/tools/mcp"
)

// ProtocolVersion is the ACP version tern speaks.
const ProtocolVersion = sdk.ProtocolVersionNumber

// Factory makes the session service of a new session working in cwd (an
// absolute path); ctx lasts as long as the session. The service is not
// running yet: the server runs it, and closes it when it stopped if it is
// an io.Closer. editor, when not nil,
// is the client's buffers, for the workspace's file tools
// (tools.Workspace.Editor). servers are the MCP servers the editor passed
// with session/new, to run beside the configured ones.
type Factory func(ctx context.Context, cwd string, editor tools.EditorFiles, servers []mcppkg.ServerConfig) (app.Service, error)

// Options configure a server.
type Options struct {
	// New makes each session's service.
	New Factory
	// Version is tern's version, sent as agentInfo.
	Version string
	// Log receives diagnostics; nil discards them. Never stdout.
	Log *slog.Logger
}

// Serve speaks ACP on in and out until in ends or ctx is cancelled, then
// cancels the running turns, stops every session (its log closed) and
// returns. When ctx ends first, in is closed if it is an io.Closer.
func Serve(ctx context.Context, in io.Reader, out io.Writer, o Options) error {
	if o.New == nil {
		return errors.New("acp: no session factory")
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := newWireWriter(out)
	filtered, inputDone := filterInput(in, w)
	s := &server{opts: o, ctx: ctx, w: w, sessions: map[sdk.SessionId]*session{}}
	s.conn = sdk.NewAgentSideConnection(s, w, filtered)
	s.conn.SetLogger(o.Log)
	stopped := false
	select {
	case <-s.conn.Done():
	case <-ctx.Done():
		stopped = true
	}
	cancel()
	s.closeAll()
	if stopped {
		// Stopped from outside (a signal) with the input still open: its
		// reader may sit in a read nothing can interrupt (a blocking
		// stdin). Closing in lets it end where it can; the process exit
		// ends it otherwise. It holds nothing to release.
		if c, ok := in.(io.Closer); ok {
			_ = c.Close()
		}
		return nil
	}
	<-inputDone
	return nil
}

// server is the agent side of one connection.
type server struct {
	opts Options
	// ctx ends when the connection does; sessions run under it.
	ctx  context.Context
	w    *wireWriter
	conn *sdk.AgentSideConnection

	mu          sync.Mutex
	initialized bool
	client      sdk.ClientCapabilities
	sessions    map[sdk.SessionId]*session
	next        int
	closed      bool
}

var (
	_ sdk.Agent       = (*server)(nil)
	_ sdk.AgentLoader = (*server)(nil)
)

// Initialize negotiates the version and says what tern can do.
func (s *server) Initialize(_ context.Context, p sdk.InitializeRequest) (sdk.InitializeResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.initialized {
		return sdk.InitializeResponse{}, sdk.NewInvalidRequest(map[string]any{"error": "initialize was already called on this connection"})
	}
	s.initialized = true
	s.client = p.ClientCapabilities
	return sdk.InitializeResponse{
		ProtocolVersion: ProtocolVersion,
		AgentInfo:       &sdk.Implementation{Name: "tern", Title: sdk.Ptr("tern"), Version: s.opts.Version},
		AgentCapabilities: sdk.AgentCapabilities{
			LoadSession:        true,
			PromptCapabilities: sdk.PromptCapabilities{EmbeddedContext: true, Image: true},
			// MCP servers are not connected yet: none of the transports.
			McpCapabilities:     sdk.McpCapabilities{Http: true},
			SessionCapabilities: sdk.SessionCapabilities{Close: &sdk.SessionCloseCapabilities{}},
		},
		AuthMethods: []sdk.AuthMethod{},
	}, nil
}

// Authenticate is refused: tern advertises no authentication method (the
// gateway key comes from tern's configuration).
func (s *server) Authenticate(context.Context, sdk.AuthenticateRequest) (sdk.AuthenticateResponse, error) {
	return sdk.AuthenticateResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodAuthenticate)
}

// ListSessions is not offered (no sessionCapabilities.list).
func (s *server) ListSessions(context.Context, sdk.ListSessionsRequest) (sdk.ListSessionsResponse, error) {
	return sdk.ListSessionsResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionList)
}

// ResumeSession is not offered (no sessionCapabilities.resume): use
// session/load.
func (s *server) ResumeSession(context.Context, sdk.ResumeSessionRequest) (sdk.ResumeSessionResponse, error) {
	return sdk.ResumeSessionResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionResume)
}

// SetSessionConfigOption is not offered: tern has no config options.
func (s *server) SetSessionConfigOption(context.Context, sdk.SetSessionConfigOptionRequest) (sdk.SetSessionConfigOptionResponse, error) {
	return sdk.SetSessionConfigOptionResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionSetConfigOption)
}

// NewSession starts a session working in p.Cwd.
func (s *server) NewSession(_ context.Context, p sdk.NewSessionRequest) (sdk.NewSessionResponse, error) {
	sess, err := s.open(p.Cwd, p.McpServers)
	if err != nil {
		return sdk.NewSessionResponse{}, err
	}
	// The editor learns the commands and the mode once it knows the
	// session, right after this response.
	s.w.afterResult(string(sess.id), sess.announce)
	return sdk.NewSessionResponse{SessionId: sess.id, Modes: sessionModes(currentMode(sess.svc)), Meta: sess.meta()}, nil
}

// LoadSession resumes a recorded session and replays its history before
// responding.
func (s *server) LoadSession(ctx context.Context, p sdk.LoadSessionRequest) (sdk.LoadSessionResponse, error) {
	if p.SessionId == "" {
		return sdk.LoadSessionResponse{}, invalidParams("sessionId", "sessionId is required")
	}
	s.mu.Lock()
	_, dup := s.sessions[p.SessionId]
	s.mu.Unlock()
	if dup {
		return sdk.LoadSessionResponse{}, invalidParams("sessionId", "session "+quoteJSON(string(p.SessionId))+" is already open on this connection")
	}
	sess, err := s.open(p.Cwd, p.McpServers)
	if err != nil {
		return sdk.LoadSessionResponse{}, err
	}
	sw, err := sess.svc.Open(ctx, string(p.SessionId), false)
	if err != nil {
		s.drop(sess)
		return sdk.LoadSessionResponse{}, &sdk.RequestError{Code: codeNotFound, Message: "Resource not found",
			Data: map[string]any{"field": "sessionId", "error": err.Error()}}
	}
	s.rename(sess, p.SessionId)
	if sw != nil {
		sess.replay(sw.Replay)
	}
	sess.announce()
	return sdk.LoadSessionResponse{Modes: sessionModes(currentMode(sess.svc)), Meta: sess.meta()}, nil
}

// Prompt runs one turn; the response says how it ended.
func (s *server) Prompt(_ context.Context, p sdk.PromptRequest) (sdk.PromptResponse, error) {
	sess, err := s.session(p.SessionId)
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	return sess.prompt(p.Prompt)
}

// Cancel stops the session's turn as Esc does.
func (s *server) Cancel(_ context.Context, p sdk.CancelNotification) error {
	sess, err := s.session(p.SessionId)
	if err != nil {
		return err
	}
	sess.cancel()
	return nil
}

// CloseSession cancels the session's turn and stops it.
func (s *server) CloseSession(_ context.Context, p sdk.CloseSessionRequest) (sdk.CloseSessionResponse, error) {
	sess, err := s.session(p.SessionId)
	if err != nil {
		return sdk.CloseSessionResponse{}, err
	}
	s.drop(sess)
	return sdk.CloseSessionResponse{}, nil
}

// SetSessionMode switches the approval policy or plan mode.
func (s *server) SetSessionMode(_ context.Context, p sdk.SetSessionModeRequest) (sdk.SetSessionModeResponse, error) {
	sess, err := s.session(p.SessionId)
	if err != nil {
		return sdk.SetSessionModeResponse{}, err
	}
	if !setMode(sess.svc, p.ModeId) {
		return sdk.SetSessionModeResponse{}, invalidParams("modeId", "unknown mode "+quoteJSON(string(p.ModeId))+": use ask, auto-edit, full-auto, read-only or plan")
	}
	sess.modeChanged(false)
	return sdk.SetSessionModeResponse{}, nil
}

// open makes and starts a session in cwd.
func (s *server) open(cwd string, mcp []sdk.McpServer) (*session, error) {
	s.mu.Lock()
	ready, client := s.initialized, s.client
	s.next++
	n := s.next
	s.mu.Unlock()
	if !ready {
		return nil, notInitialized()
	}
	if !filepath.IsAbs(cwd) {
		return nil, invalidParams("cwd", "cwd must be an absolute path, got "+quoteJSON(cwd))
	}
	files := newClientFiles(s.conn, client.Fs)
	var editor tools.EditorFiles
	if files != nil {
		editor = files
	}
	// The session lives past this request: what it starts in the
	// background (the snapshot repository, the sandbox's sweep) runs under
	// its own context, which ends when the session stops.
	sctx, stop := context.WithCancel(s.ctx)
	servers, skipped := mcpServers(mcp)
	svc, err := s.opts.New(sctx, filepath.Clean(cwd), editor, servers)
	if err != nil {
		stop()
		return nil, sdk.NewInternalError(map[string]any{"error": fmt.Sprintf("start a session in %s: %v", cwd, err)})
	}
	id := sdk.SessionId(svc.ID())
	if id == "" {
		id = sdk.SessionId("unrecorded-" + strconv.Itoa(n))
	}
	sess := newSession(sctx, stop, s, id, filepath.Clean(cwd), svc, client)
	sess.files = files
	files.setSession(id)
	sess.mcpSkipped = skipped
	if len(skipped) > 0 {
		s.opts.Log.Warn("MCP servers not connected: their transport is not supported", "servers", skipped)
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		sess.stop()
		return nil, sdk.NewInternalError(map[string]any{"error": "the connection is closing"})
	}
	s.sessions[id] = sess
	s.mu.Unlock()
	return sess, nil
}

// rename files sess under id (a loaded session's).
func (s *server) rename(sess *session, id sdk.SessionId) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.sessions, sess.id)
	sess.id = id
	sess.files.setSession(id)
	s.sessions[id] = sess
}

func (s *server) session(id sdk.SessionId) (*session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.initialized {
		return nil, notInitialized()
	}
	sess, ok := s.sessions[id]
	if !ok {
		return nil, unknownSession(id)
	}
	return sess, nil
}

// drop stops sess and forgets it.
func (s *server) drop(sess *session) {
	s.mu.Lock()
	if s.sessions[sess.id] == sess {
		delete(s.sessions, sess.id)
	}
	s.mu.Unlock()
	sess.stop()
}

// closeAll stops every session: their turns are cancelled and their logs
// closed before Serve returns.
func (s *server) closeAll() {
	s.mu.Lock()
	s.closed = true
	all := make([]*session, 0, len(s.sessions))
	for _, sess := range s.sessions {
		all = append(all, sess)
	}
	clear(s.sessions)
	s.mu.Unlock()
	for _, sess := range all {
		sess.stop()
	}
}
