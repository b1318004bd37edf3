package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ternhq/tern/tools/sandbox"
)

// These tests build the real binary and run it as a user would, against an
// httptest gateway that streams SSE like an OpenAI-compatible server.

const e2eKey = "sk-e2e-0123456789abcdefXYZ"

var ternBin string

func TestMain(m *testing.M) {
	// run_shell wired in-process (exits_test.go) confines its commands by
	// re-executing this test binary as the sandbox launcher.
	sandbox.MaybeRunLauncher()
	dir, err := os.MkdirTemp("", "tern-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ternBin = filepath.Join(dir, "tern")
	build := exec.Command("go", "build", "-ldflags", "-X main.version=e2e-test", "-o", ternBin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build tern:", err)
		_ = os.RemoveAll(dir)
		os.Exit(1)
	}
	if bin := os.Getenv("TERN_E2E_BIN"); bin != "" {
		ternBin = bin // the benchmarks compare builds: measure this one
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// gatewayMode selects how the fake gateway answers completions.
type gatewayMode int

const (
	// scripted: a write_file call first, then (once a tool result is in the
	// conversation) the final text.
	scripted gatewayMode = iota + 1
	// failing: every request gets a 500.
	failing
	// hanging: one text chunk, then nothing until the client hangs up.
	hanging
)

type fakeGateway struct {
	t        *testing.T
	mode     gatewayMode
	srv      *httptest.Server
	requests atomic.Int32
	mu       sync.Mutex
	bodies   []string
	// onRequest, when set, runs as a completion request arrives.
	onRequest func()
}

func newFakeGateway(t *testing.T, mode gatewayMode) *fakeGateway {
	t.Helper()
	g := &fakeGateway{t: t, mode: mode}
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/chat/completions", g.chat)
	mux.HandleFunc("/v1/models", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+e2eKey {
			http.Error(w, `{"error":{"message":"bad key","type":"invalid_request_error","code":"invalid_api_key"}}`, http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"object":"list","data":[{"id":"e2e-model","object":"model","created":1,"owned_by":"test"}]}`)
	})
	g.srv = httptest.NewServer(mux)
	t.Cleanup(g.srv.Close)
	return g
}

func (g *fakeGateway) url() string { return g.srv.URL + "/v1" }

func chunk(delta string, finish string) string {
	f := "null"
	if finish != "" {
		f = `"` + finish + `"`
	}
	return `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"e2e-model","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + f + "}]}\n\n"
}

func usageChunk(prompt, completion, cached int) string {
	return fmt.Sprintf(`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"e2e-model","choices":[],"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d,"prompt_tokens_details":{"cached_tokens":%d}}}`+"\n\n", prompt, completion, prompt+completion, cached)
}

func (g *fakeGateway) chat(w http.ResponseWriter, r *http.Request) {
	g.requests.Add(1)
	if g.onRequest != nil {
		g.onRequest()
	}
	body, _ := io.ReadAll(r.Body)
	g.mu.Lock()
	g.bodies = append(g.bodies, string(body))
	g.mu.Unlock()
	if r.Header.Get("Authorization") != "Bearer "+e2eKey {
		http.Error(w, `{"error":{"message":"bad key","type":"invalid_request_error","code":"invalid_api_key"}}`, http.StatusUnauthorized)
		return
	}
	switch g.mode {
	case failing:
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After-Ms", "5")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, `{"error":{"message":"upstream exploded","type":"server_error"}}`)
		return
	case hanging:
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, chunk(`{"role":"assistant","content":"Thinking about it"}`, ""))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		return
	case scripted:
	}
	var req struct {
		Messages []struct {
			Role string `json:"role"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	answered := false
	for _, m := range req.Messages {
		if m.Role == "tool" {
			answered = true
		}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	var parts []string
	if answered {
		parts = []string{
			chunk(`{"role":"assistant","content":"Created "}`, ""),
			chunk(`{"content":"`+"`hello.txt`"+`"}`, ""),
			chunk(`{"content":" with a greeting."}`, ""),
			chunk(`{}`, "stop"),
			usageChunk(400, 9, 300),
			"data: [DONE]\n\n",
		}
	} else {
		parts = []string{
			chunk(`{"role":"assistant","content":"I'll create it."}`, ""),
			chunk(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"write_file","arguments":""}}]}`, ""),
			chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"path\": \"hel"}}]}`, ""),
			chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"lo.txt\", \"content\": "}}]}`, ""),
			chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"\"hello from tern\\n\"}"}}]}`, ""),
			chunk(`{}`, "tool_calls"),
			usageChunk(350, 30, 0),
			"data: [DONE]\n\n",
		}
	}
	for _, p := range parts {
		_, _ = io.WriteString(w, p)
		w.(http.Flusher).Flush()
	}
}

// result is one finished tern process.
type result struct {
	code   int
	stdout string
	stderr string
	// usage is the process's resource use (*syscall.Rusage on Unix).
	usage any
}

// tern runs the binary in workspace dir with exactly the given environment
// (plus PATH, HOME and TERN_HOME), so the machine's own keys never leak in.
func tern(t *testing.T, dir string, env map[string]string, stdin string, args ...string) result {
	t.Helper()
	cmd := exec.Command(ternBin, args...)
	cmd.Dir = dir
	cmd.Env = testEnv(t, env)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("run tern: %v", err)
	}
	r := result{code: code, stdout: out.String(), stderr: errb.String()}
	if cmd.ProcessState != nil {
		r.usage = cmd.ProcessState.SysUsage()
	}
	if strings.Contains(r.stdout+r.stderr, e2eKey) {
		t.Errorf("tern printed the API key:\nstdout: %s\nstderr: %s", r.stdout, r.stderr)
	}
	return r
}

func testEnv(t *testing.T, env map[string]string) []string {
	home := t.TempDir()
	out := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TERN_HOME=" + filepath.Join(home, ".tern")}
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	return out
}

func online(g *fakeGateway) map[string]string {
	return map[string]string{"LLM_BASE_URL": g.url(), "LLM_API_KEY": e2eKey, "LLM_MODEL": "e2e-model"}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	return string(b)
}

func TestE2ERunPrintsFinalText(t *testing.T) {
	t.Parallel()
	g := newFakeGateway(t, scripted)
	ws := t.TempDir()
	r := tern(t, ws, online(g), "", "run", "--approval", "full-auto", "create hello.txt")
	if r.code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	if want := "Created `hello.txt` with a greeting.\n"; r.stdout != want {
		t.Errorf("stdout = %q, want %q", r.stdout, want)
	}
	if got := readFile(t, filepath.Join(ws, "hello.txt")); got != "hello from tern\n" {
		t.Errorf("hello.txt = %q", got)
	}
	if n := g.requests.Load(); n != 2 {
		t.Errorf("gateway saw %d requests, want 2", n)
	}
}

func TestE2ERunPromptFromStdin(t *testing.T) {
	t.Parallel()
	g := newFakeGateway(t, scripted)
	ws := t.TempDir()
	r := tern(t, ws, online(g), "create hello.txt\n", "run", "--approval", "full-auto")
	if r.code != exitOK || !strings.Contains(r.stdout, "Created") {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s", r.code, r.stdout, r.stderr)
	}
	g.mu.Lock()
	first := g.bodies[0]
	g.mu.Unlock()
	if !strings.Contains(first, `create hello.txt\n`) {
		t.Errorf("the prompt from stdin did not reach the gateway: %s", first)
	}
}

// jsonLine is the part of a protocol line the tests look at.
type jsonLine struct {
	Type    string `json:"type"`
	Version int    `json:"version"`
	Item    *struct {
		ID        string         `json:"id"`
		Type      string         `json:"type"`
		Text      *string        `json:"text"`
		Tool      string         `json:"tool"`
		Arguments map[string]any `json:"arguments"`
		Status    string         `json:"status"`
		Output    *string        `json:"output"`
	} `json:"item"`
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
	Auto     bool   `json:"auto"`
	Usage    *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
		CachedTokens     int `json:"cached_tokens"`
		Requests         int `json:"requests"`
	} `json:"usage"`
	Error *struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
	} `json:"error"`
}

func parseLines(t *testing.T, out string) []jsonLine {
	t.Helper()
	var lines []jsonLine
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var j jsonLine
		if err := json.Unmarshal([]byte(l), &j); err != nil {
			t.Fatalf("not a JSON line: %q: %v", l, err)
		}
		if j.Type == "" || j.Version != 1 {
			t.Errorf("line without type or version 1: %s", l)
		}
		lines = append(lines, j)
	}
	return lines
}

// squash drops consecutive item.delta lines, keeping the order of the rest.
func squash(lines []jsonLine) string {
	var types []string
	for _, l := range lines {
		if l.Type == "item.delta" && len(types) > 0 && types[len(types)-1] == "item.delta" {
			continue
		}
		types = append(types, l.Type)
	}
	return strings.Join(types, " ")
}

func TestE2ERunJSON(t *testing.T) {
	t.Parallel()
	g := newFakeGateway(t, scripted)
	ws := t.TempDir()
	r := tern(t, ws, online(g), "", "run", "--json", "--approval", "full-auto", "create hello.txt")
	if r.code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	lines := parseLines(t, r.stdout)
	want := "session.started turn.started " +
		"item.started item.delta request.completed item.completed " + // "I'll create it."
		"item.started approval.resolved item.completed " + // write_file, allowed by the policy
		"item.started item.delta request.completed item.completed " + // final text
		"turn.completed"
	if got := squash(lines); got != want {
		t.Errorf("types:\n got %s\nwant %s", got, want)
	}
	var call, final *jsonLine
	for i := range lines {
		l := &lines[i]
		if l.Type == "approval.resolved" && (!l.Auto || l.Decision != "allow_once") {
			t.Errorf("approval.resolved under full-auto = %+v, want an automatic allow_once", l)
		}
		if l.Type != "item.completed" {
			continue
		}
		switch l.Item.Type {
		case "tool_call":
			call = l
		case "agent_message":
			final = l
		}
	}
	if call == nil || call.Item.Tool != "write_file" || call.Item.Status != "ok" ||
		call.Item.Arguments["path"] != "hello.txt" || call.Item.Arguments["content"] != "hello from tern\n" || call.Item.Output == nil {
		t.Errorf("tool_call item = %+v", call)
	}
	if final == nil || final.Item.Text == nil || *final.Item.Text != "Created `hello.txt` with a greeting." {
		t.Errorf("final agent_message = %+v", final)
	}
	last := lines[len(lines)-1]
	if last.Usage == nil || *last.Usage != (struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
		CachedTokens     int `json:"cached_tokens"`
		Requests         int `json:"requests"`
	}{750, 39, 300, 2}) {
		t.Errorf("turn.completed usage = %+v, want 750/39/300 over 2 requests", last.Usage)
	}
	if got := readFile(t, filepath.Join(ws, "hello.txt")); got != "hello from tern\n" {
		t.Errorf("hello.txt = %q", got)
	}
}

func TestE2ERunAskDeniesHeadless(t *testing.T) {
	t.Parallel()
	g := newFakeGateway(t, scripted)
	ws := t.TempDir()
	r := tern(t, ws, online(g), "", "run", "--json", "create hello.txt")
	if r.code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	var resolved, call *jsonLine
	lines := parseLines(t, r.stdout)
	for i := range lines {
		switch l := &lines[i]; {
		case l.Type == "approval.resolved":
			resolved = l
		case l.Type == "item.completed" && l.Item.Type == "tool_call":
			call = l
		}
	}
	if resolved == nil || resolved.Decision != "denied" || !strings.Contains(resolved.Reason, "no one to approve") {
		t.Errorf("approval.resolved = %+v", resolved)
	}
	if call == nil || call.Item.Status != "denied" {
		t.Errorf("tool_call = %+v", call)
	}
	if _, err := os.Stat(filepath.Join(ws, "hello.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("hello.txt exists after a denied write (err %v)", err)
	}
}

func TestE2ERunFailingGateway(t *testing.T) {
	t.Parallel()
	g := newFakeGateway(t, failing)
	ws := t.TempDir()
	r := tern(t, ws, online(g), "", "run", "--max-attempts", "1", "hello")
	if r.code != exitFailed {
		t.Fatalf("exit %d, want %d; stderr:\n%s", r.code, exitFailed, r.stderr)
	}
	if r.stdout != "" || !strings.Contains(r.stderr, "turn failed (server)") {
		t.Errorf("stdout %q, stderr %q", r.stdout, r.stderr)
	}

	r = tern(t, ws, online(g), "", "run", "--json", "--max-attempts", "1", "hello")
	lines := parseLines(t, r.stdout)
	last := lines[len(lines)-1]
	if r.code != exitFailed || last.Type != "turn.failed" || last.Error == nil || last.Error.Kind != "server" {
		t.Errorf("exit %d, last line %+v", r.code, last)
	}
}

func TestE2ERunInterrupt(t *testing.T) {
	t.Parallel()
	g := newFakeGateway(t, hanging)
	cmd := exec.Command(ternBin, "run", "--json", "think hard")
	cmd.Dir = t.TempDir()
	cmd.Env = testEnv(t, online(g))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	var out []string
	signalled := false
	for sc.Scan() {
		out = append(out, sc.Text())
		if !signalled && strings.Contains(sc.Text(), `"type":"item.delta"`) {
			if err := cmd.Process.Signal(os.Interrupt); err != nil {
				t.Fatal(err)
			}
			signalled = true
		}
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("tern did not exit after SIGINT; output so far:\n%s", strings.Join(out, "\n"))
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
		t.Fatalf("wait: %v, want exit %d; stderr:\n%s", err, exitInterrupted, stderr.String())
	}
	if !signalled {
		t.Fatal("no item.delta seen before the end")
	}
	lines := parseLines(t, strings.Join(out, "\n"))
	last := lines[len(lines)-1]
	if last.Type != "turn.failed" || last.Error == nil || last.Error.Kind != "cancelled" {
		t.Errorf("last line = %+v, want turn.failed cancelled", last)
	}
}

func TestE2EMockEditsAFile(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	readme := filepath.Join(ws, "README.md")
	const original = "# Demo\n\nSome text.\n"
	if err := os.WriteFile(readme, []byte(original), 0o644); err != nil {
		t.Fatal(err)
	}
	r := tern(t, ws, map[string]string{"MOCK": "1"}, "", "run", "--approval", "full-auto", "edit README.md")
	if r.code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	got := readFile(t, readme)
	if got == original || !strings.Contains(got, "# Demo") {
		t.Errorf("README.md after the offline edit scene:\n%s", got)
	}
	if !strings.Contains(r.stderr, "offline scripted provider") {
		t.Errorf("stderr lacks the offline notice: %q", r.stderr)
	}
}

func TestE2ENoKeyFallsBackOffline(t *testing.T) {
	t.Parallel()
	r := tern(t, t.TempDir(), nil, "", "run", "hello")
	if r.code != exitOK || r.stdout == "" {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "LLM_API_KEY") {
		t.Errorf("stderr lacks the notice saying how to configure a gateway: %q", r.stderr)
	}
}

func TestE2EDoctor(t *testing.T) {
	t.Parallel()
	g := newFakeGateway(t, scripted)
	r := tern(t, t.TempDir(), online(g), "", "doctor", "--timeout", "5s")
	if r.code != exitOK {
		t.Fatalf("exit %d, stdout:\n%s", r.code, r.stdout)
	}
	for _, want := range []string{"✓ streaming", "first token after", "sk-…fXYZ", "env LLM_API_KEY", `"e2e-model" is offered`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, r.stdout)
		}
	}
	bad := online(g)
	bad["LLM_API_KEY"] = "sk-wrong-0123456789abcdef"
	if r := tern(t, t.TempDir(), bad, "", "doctor"); r.code != exitFailed || !strings.Contains(r.stdout, "✗ gateway") {
		t.Errorf("doctor with a wrong key: exit %d\n%s", r.code, r.stdout)
	}
}

func TestE2EUsageErrors(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "tern"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "tern", "config.toml"), []byte("modle = \"x\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"unknown flag", nil, []string{"run", "--bogus", "hi"}, "flag provided but not defined: -bogus"},
		{"unknown root flag", nil, []string{"--bogus"}, "tern --help"},
		{"bad policy", map[string]string{"MOCK": "1"}, []string{"run", "--approval", "yolo", "hi"}, "unknown approval policy"},
		{"no prompt", nil, []string{"run"}, "no prompt"},
		{"unknown command", nil, []string{"frobnicate"}, `tern run "frobnicate"`},
		{"bad config file", map[string]string{"TERN_HOME": filepath.Join(home, "tern")}, []string{"run", "hi"}, "unknown keys modle"},
		{"bad max steps", map[string]string{"MOCK": "1"}, []string{"run", "--max-steps", "0", "hi"}, "at least 1"},
		{"doctor argument", nil, []string{"doctor", "extra"}, "unexpected argument"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := tern(t, t.TempDir(), tc.env, "", tc.args...)
			if r.code != exitUsage {
				t.Errorf("exit %d, want %d; stderr:\n%s", r.code, exitUsage, r.stderr)
			}
			if !strings.Contains(r.stderr, tc.want) {
				t.Errorf("stderr %q lacks %q", r.stderr, tc.want)
			}
		})
	}
}

func TestE2EVersionAndHelp(t *testing.T) {
	t.Parallel()
	if r := tern(t, t.TempDir(), nil, "", "--version"); r.code != 0 || r.stdout != "tern e2e-test\n" {
		t.Errorf("--version: exit %d, %q", r.code, r.stdout)
	}
	for _, args := range [][]string{{"--help"}, {"run", "--help"}, {"doctor", "-h"}} {
		if r := tern(t, t.TempDir(), nil, "", args...); r.code != 0 || !strings.Contains(r.stdout, "Usage") {
			t.Errorf("%v: exit %d, %q", args, r.code, r.stdout)
		}
	}
}
