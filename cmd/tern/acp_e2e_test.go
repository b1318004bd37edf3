package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
)

// editor is an ACP client driving a `tern acp` process.
type editor struct {
	conn   *sdk.ClientSideConnection
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *bytes.Buffer
	done   chan error

	mu      sync.Mutex
	updates []sdk.SessionNotification
	asked   []sdk.RequestPermissionRequest
	answer  sdk.PermissionOptionId // "" cancels
	// waitAnswer, when set, holds the permission request until ctx ends.
	waitAnswer bool
	askedCh    chan struct{}
	buffers    map[string]string
	wrote      map[string]string
	caps       sdk.ClientCapabilities
}

// startEditor runs `tern acp` in dir with env (testEnv's, so give the same
// map to reach the same TERN_HOME) and initializes the connection.
func startEditor(t *testing.T, dir string, env []string, caps sdk.ClientCapabilities) *editor {
	t.Helper()
	e := &editor{stderr: &bytes.Buffer{}, done: make(chan error, 1), askedCh: make(chan struct{}, 8), caps: caps,
		buffers: map[string]string{}, wrote: map[string]string{}}
	e.cmd = exec.Command(ternBin, "acp")
	e.cmd.Dir = dir
	e.cmd.Env = env
	e.cmd.Stderr = e.stderr
	var err error
	if e.stdin, err = e.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := e.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := e.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { e.done <- e.cmd.Wait() }()
	e.conn = sdk.NewClientSideConnection(e, e.stdin, stdout)
	e.conn.SetLogger(slog.New(slog.DiscardHandler))
	t.Cleanup(func() {
		if e.cmd.ProcessState == nil {
			_ = e.stdin.Close()
			select {
			case err := <-e.done:
				if err != nil {
					t.Errorf("tern acp exited with %v; stderr:\n%s", err, e.stderr)
				}
			case <-time.After(10 * time.Second):
				_ = e.cmd.Process.Kill()
				t.Errorf("tern acp did not exit after stdin closed; stderr:\n%s", e.stderr)
			}
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := e.conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber, ClientCapabilities: caps}); err != nil {
		t.Fatalf("initialize: %v; stderr:\n%s", err, e.stderr)
	}
	return e
}

func (e *editor) newSession(t *testing.T, cwd string) sdk.SessionId {
	t.Helper()
	resp, err := e.conn.NewSession(context.Background(), sdk.NewSessionRequest{Cwd: cwd, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatalf("session/new: %v; stderr:\n%s", err, e.stderr)
	}
	return resp.SessionId
}

func (e *editor) prompt(t *testing.T, id sdk.SessionId, text string) (sdk.PromptResponse, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return e.conn.Prompt(ctx, sdk.PromptRequest{SessionId: id, Prompt: []sdk.ContentBlock{sdk.TextBlock(text)}})
}

func (e *editor) ReadTextFile(_ context.Context, p sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if s, ok := e.buffers[p.Path]; ok {
		return sdk.ReadTextFileResponse{Content: s}, nil
	}
	b, err := os.ReadFile(p.Path)
	if err != nil {
		return sdk.ReadTextFileResponse{}, sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	return sdk.ReadTextFileResponse{Content: string(b)}, nil
}

func (e *editor) WriteTextFile(_ context.Context, p sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.wrote[p.Path] = p.Content
	e.buffers[p.Path] = p.Content
	return sdk.WriteTextFileResponse{}, nil
}

func (e *editor) RequestPermission(ctx context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	e.mu.Lock()
	e.asked = append(e.asked, p)
	answer, wait := e.answer, e.waitAnswer
	e.mu.Unlock()
	e.askedCh <- struct{}{}
	if wait {
		<-ctx.Done()
		return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}, nil
	}
	if answer == "" {
		return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}, nil
	}
	return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeSelected(answer)}, nil
}

func (e *editor) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.updates = append(e.updates, n)
	return nil
}

func (e *editor) CreateTerminal(context.Context, sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	return sdk.CreateTerminalResponse{}, sdk.NewMethodNotFound("terminal/create")
}

func (e *editor) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	return sdk.KillTerminalResponse{}, sdk.NewMethodNotFound("terminal/kill")
}

func (e *editor) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	return sdk.TerminalOutputResponse{}, sdk.NewMethodNotFound("terminal/output")
}

func (e *editor) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	return sdk.ReleaseTerminalResponse{}, sdk.NewMethodNotFound("terminal/release")
}

func (e *editor) WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	return sdk.WaitForTerminalExitResponse{}, sdk.NewMethodNotFound("terminal/wait_for_exit")
}

// text is the agent's message text received so far.
func (e *editor) text() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var b strings.Builder
	for _, n := range e.updates {
		if u := n.Update.AgentMessageChunk; u != nil && u.Content.Text != nil {
			b.WriteString(u.Content.Text.Text)
		}
	}
	return b.String()
}

func TestE2EACPWriteNeedsPermission(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		answer sdk.PermissionOptionId
		wrote  bool
	}{
		{"allow_once", true},
		{"reject_once", false},
	} {
		t.Run(string(tc.answer), func(t *testing.T) {
			t.Parallel()
			g := newFakeGateway(t, scripted)
			dir := t.TempDir()
			e := startEditor(t, dir, testEnv(t, online(g)), sdk.ClientCapabilities{})
			e.answer = tc.answer
			id := e.newSession(t, dir)
			resp, err := e.prompt(t, id, "create hello.txt")
			if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
				t.Fatalf("prompt: %+v %v; stderr:\n%s", resp, err, e.stderr)
			}
			_, statErr := os.Stat(filepath.Join(dir, "hello.txt"))
			if (statErr == nil) != tc.wrote {
				t.Errorf("hello.txt written: %v, want %v", statErr == nil, tc.wrote)
			}
			if len(e.asked) != 1 {
				t.Fatalf("asked %d times", len(e.asked))
			}
			perm := e.asked[0].ToolCall
			if perm.Kind == nil || *perm.Kind != sdk.ToolKindEdit || len(perm.Content) == 0 || perm.Content[0].Diff == nil ||
				perm.Content[0].Diff.Path != filepath.Join(dir, "hello.txt") || !strings.Contains(perm.Content[0].Diff.NewText, "hello from tern") {
				t.Errorf("permission's tool call: %+v", perm)
			}
			if !strings.Contains(e.text(), "with a greeting.") {
				t.Errorf("answer %q", e.text())
			}
		})
	}
}

func TestE2EACPOffline(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e := startEditor(t, dir, testEnv(t, nil), sdk.ClientCapabilities{})
	id := e.newSession(t, dir)
	resp, err := e.prompt(t, id, "hello")
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v; stderr:\n%s", resp, err, e.stderr)
	}
	if e.text() == "" {
		t.Error("no answer streamed")
	}
	if !strings.Contains(e.stderr.String(), "offline") {
		t.Errorf("the offline notice is not on stderr: %q", e.stderr)
	}
}

// hangingGateway streams one chunk and holds the response until the
// client hangs up, which closes gone.
func hangingGateway(t *testing.T) (url string, gone <-chan struct{}) {
	t.Helper()
	ch := make(chan struct{})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, chunk(`{"role":"assistant","content":"Thinking about it"}`, ""))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		once.Do(func() { close(ch) })
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", ch
}

func TestE2EACPCancelDuringStream(t *testing.T) {
	t.Parallel()
	url, gone := hangingGateway(t)
	dir := t.TempDir()
	e := startEditor(t, dir, testEnv(t, map[string]string{"LLM_BASE_URL": url, "LLM_API_KEY": e2eKey, "LLM_MODEL": "m"}), sdk.ClientCapabilities{})
	id := e.newSession(t, dir)
	go func() {
		deadline := time.Now().Add(10 * time.Second)
		for !strings.Contains(e.text(), "Thinking") && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		_ = e.conn.Cancel(context.Background(), sdk.CancelNotification{SessionId: id})
	}()
	resp, err := e.prompt(t, id, "think")
	if err != nil || resp.StopReason != sdk.StopReasonCancelled {
		t.Fatalf("prompt: %+v %v; stderr:\n%s", resp, err, e.stderr)
	}
	select {
	case <-gone:
	case <-time.After(5 * time.Second):
		t.Error("the gateway never saw the request end")
	}
}

func TestE2EACPStdinClosedMidTurn(t *testing.T) {
	t.Parallel()
	url, gone := hangingGateway(t)
	dir := t.TempDir()
	env := testEnv(t, map[string]string{"LLM_BASE_URL": url, "LLM_API_KEY": e2eKey, "LLM_MODEL": "m"})
	e := startEditor(t, dir, env, sdk.ClientCapabilities{})
	id := e.newSession(t, dir)
	go func() { _, _ = e.prompt(t, id, "think") }()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(e.text(), "Thinking") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	_ = e.stdin.Close()
	select {
	case err := <-e.done:
		if err != nil {
			t.Errorf("tern acp exited with %v; stderr:\n%s", err, e.stderr)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("tern acp did not exit after stdin closed mid-turn")
	}
	select {
	case <-gone:
	case <-time.After(5 * time.Second):
		t.Error("the gateway never saw the request end")
	}
	// The log was closed with the cancelled turn in it: a new process
	// loads it.
	e2 := startEditor(t, dir, env, sdk.ClientCapabilities{})
	if _, err := e2.conn.LoadSession(context.Background(), sdk.LoadSessionRequest{SessionId: id, Cwd: dir, McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatalf("load after a closed stdin: %v; stderr:\n%s", err, e2.stderr)
	}
}

func TestE2EACPLoadReplays(t *testing.T) {
	t.Parallel()
	g := newFakeGateway(t, scripted)
	dir := t.TempDir()
	env := testEnv(t, online(g))
	e := startEditor(t, dir, env, sdk.ClientCapabilities{})
	e.answer = "allow_once"
	id := e.newSession(t, dir)
	if _, err := e.prompt(t, id, "create hello.txt"); err != nil {
		t.Fatal(err)
	}
	_ = e.stdin.Close()
	if err := <-e.done; err != nil {
		t.Fatalf("tern acp exited with %v", err)
	}

	e2 := startEditor(t, dir, env, sdk.ClientCapabilities{})
	if _, err := e2.conn.LoadSession(context.Background(), sdk.LoadSessionRequest{SessionId: id, Cwd: dir, McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatalf("session/load: %v; stderr:\n%s", err, e2.stderr)
	}
	var user string
	var toolDone bool
	for _, n := range e2.updates {
		if u := n.Update.UserMessageChunk; u != nil {
			user += u.Content.Text.Text
		}
		if u := n.Update.ToolCallUpdate; u != nil && u.Status != nil && *u.Status == sdk.ToolCallStatusCompleted {
			toolDone = true
		}
	}
	if user != "create hello.txt" || !toolDone || !strings.Contains(e2.text(), "with a greeting.") {
		t.Errorf("replay: user %q, tool completed %v, answer %q", user, toolDone, e2.text())
	}
	// The loaded session goes on.
	if _, err := e2.prompt(t, id, "and again"); err != nil {
		t.Errorf("prompt after load: %v", err)
	}
	_, err := e2.conn.LoadSession(context.Background(), sdk.LoadSessionRequest{SessionId: "0000dead", Cwd: dir, McpServers: []sdk.McpServer{}})
	if err == nil {
		t.Error("loading a session that does not exist succeeded")
	}
}

func TestE2EACPPermissionCancelledMidWait(t *testing.T) {
	t.Parallel()
	g := newFakeGateway(t, scripted)
	dir := t.TempDir()
	e := startEditor(t, dir, testEnv(t, online(g)), sdk.ClientCapabilities{})
	e.waitAnswer = true
	id := e.newSession(t, dir)
	go func() {
		<-e.askedCh
		_ = e.conn.Cancel(context.Background(), sdk.CancelNotification{SessionId: id})
	}()
	resp, err := e.prompt(t, id, "create hello.txt")
	if err != nil || resp.StopReason != sdk.StopReasonCancelled {
		t.Fatalf("prompt: %+v %v; stderr:\n%s", resp, err, e.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "hello.txt")); err == nil {
		t.Error("hello.txt was written although the turn was cancelled while asking")
	}
}

// readingGateway asks for read_file on notes.txt, then answers; bodies
// holds what each request sent.
func readingGateway(t *testing.T) (url string, bodies func() []string) {
	t.Helper()
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, string(body))
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		var parts []string
		// The session's title is asked for alongside, without tools.
		if strings.Contains(string(body), `"tools":`) && !strings.Contains(string(body), `"role":"tool"`) {
			parts = []string{
				chunk(`{"role":"assistant","tool_calls":[{"index":0,"id":"call_r","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"notes.txt\"}"}}]}`, ""),
				chunk(`{}`, "tool_calls"),
			}
		} else {
			parts = []string{chunk(`{"role":"assistant","content":"Read it."}`, ""), chunk(`{}`, "stop")}
		}
		for _, p := range append(parts, "data: [DONE]\n\n") {
			_, _ = io.WriteString(w, p)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), got...)
	}
}

func TestE2EACPFileDelegation(t *testing.T) {
	t.Parallel()
	t.Run("read", func(t *testing.T) {
		t.Parallel()
		url, bodies := readingGateway(t)
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("from the disk\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		real, err := filepath.EvalSymlinks(dir)
		if err != nil {
			t.Fatal(err)
		}
		e := startEditor(t, dir, testEnv(t, map[string]string{"LLM_BASE_URL": url, "LLM_API_KEY": e2eKey, "LLM_MODEL": "m"}),
			sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true}})
		e.buffers[filepath.Join(real, "notes.txt")] = "from the unsaved buffer\n"
		id := e.newSession(t, dir)
		if _, err := e.prompt(t, id, "read notes.txt"); err != nil {
			t.Fatal(err)
		}
		var result string
		for _, b := range bodies() {
			if i := strings.Index(b, `"role":"tool"`); i >= 0 {
				result = b[i:]
			}
		}
		if !strings.Contains(result, "from the unsaved buffer") || strings.Contains(result, "from the disk") {
			t.Errorf("the model did not get the editor's copy: %q", result)
		}
	})
	t.Run("write", func(t *testing.T) {
		t.Parallel()
		g := newFakeGateway(t, scripted)
		dir := t.TempDir()
		e := startEditor(t, dir, testEnv(t, online(g)), sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true}})
		e.answer = "allow_once"
		id := e.newSession(t, dir)
		if _, err := e.prompt(t, id, "create hello.txt"); err != nil {
			t.Fatal(err)
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		var wrote string
		for p, c := range e.wrote {
			if filepath.Base(p) == "hello.txt" {
				wrote = c
			}
		}
		if wrote != "hello from tern\n" {
			t.Errorf("the editor was not asked to write hello.txt: %q", e.wrote)
		}
		if _, err := os.Stat(filepath.Join(dir, "hello.txt")); err == nil {
			t.Error("hello.txt was written on disk as well as through the editor")
		}
	})
}

func TestE2EACPSigterm(t *testing.T) {
	t.Parallel()
	url, gone := hangingGateway(t)
	dir := t.TempDir()
	e := startEditor(t, dir, testEnv(t, map[string]string{"LLM_BASE_URL": url, "LLM_API_KEY": e2eKey, "LLM_MODEL": "m"}), sdk.ClientCapabilities{})
	id := e.newSession(t, dir)
	go func() { _, _ = e.prompt(t, id, "think") }()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(e.text(), "Thinking") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if err := e.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-e.done:
		if err != nil {
			t.Errorf("tern acp exited with %v after SIGTERM; stderr:\n%s", err, e.stderr)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("tern acp did not exit after SIGTERM with stdin open")
	}
	select {
	case <-gone:
	case <-time.After(5 * time.Second):
		t.Error("the gateway never saw the request end")
	}
}

func TestE2EACPUsage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"acp", "--help"}, 0, "Usage: tern acp"},
		{[]string{"acp", "hello"}, 2, `unexpected argument "hello"`},
		{[]string{"acp", "--approval", "nope"}, 2, "unknown approval policy"},
		{[]string{"--model", "m", "acp", "--nope"}, 2, "flag provided but not defined"},
	} {
		r := tern(t, dir, nil, "", tc.args...)
		if r.code != tc.code || !strings.Contains(r.stdout+r.stderr, tc.want) {
			t.Errorf("tern %s: exit %d, want %d with %q\nstdout: %s\nstderr: %s", strings.Join(tc.args, " "), r.code, tc.code, tc.want, r.stdout, r.stderr)
		}
		if tc.code != 0 && r.stdout != "" {
			t.Errorf("tern %s wrote on stdout, which carries protocol messages only: %q", strings.Join(tc.args, " "), r.stdout)
		}
	}
}

// TestE2EACPBudgetEndsTheTurn: max_requests in config.toml limits an
// editor's turn as it limits tern run's: the turn stops before the second
// request and says so with max_turn_requests.
func TestE2EACPBudgetEndsTheTurn(t *testing.T) {
	t.Parallel()
	g := newFakeGateway(t, scripted)
	dir := t.TempDir()
	env := testEnv(t, online(g))
	for _, kv := range env {
		if home, ok := strings.CutPrefix(kv, "TERN_HOME="); ok {
			if err := os.MkdirAll(home, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("max_requests = 1\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	e := startEditor(t, dir, env, sdk.ClientCapabilities{})
	e.answer = "allow_once"
	id := e.newSession(t, dir)
	resp, err := e.prompt(t, id, "create hello.txt")
	if err != nil || resp.StopReason != sdk.StopReasonMaxTurnRequests {
		t.Fatalf("prompt: %+v %v; stderr:\n%s", resp, err, e.stderr)
	}
	if n := g.requests.Load(); n != 1 {
		t.Errorf("%d requests reached the gateway, want 1", n)
	}
}
