package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// everythingPackage is the reference MCP server the end-to-end test runs;
// everythingVersion is the version .ci/run installs.
const (
	everythingPackage = "@modelcontextprotocol/server-everything"
	everythingVersion = "2026.8.31"
)

// everythingServer returns node and the path of the reference server's
// entry point, installed by .ci/run under the user's cache directory
// (tern-ci/mcp), or installs it there with npm. It skips the test only
// where node or npm is missing.
func everythingServer(t *testing.T) (node, entry string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the MCP end-to-end test needs it to run " + everythingPackage)
	}
	if p := os.Getenv("TERN_MCP_EVERYTHING"); p != "" {
		return node, p
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatalf("no cache directory to find %s in: %v", everythingPackage, err)
	}
	prefix := filepath.Join(cache, "tern-ci", "mcp")
	entry = filepath.Join(prefix, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	if _, err := os.Stat(entry); err == nil {
		return node, entry
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed and " + everythingPackage + " is not in " + prefix)
	}
	out, err := exec.Command(npm, "install", "--no-audit", "--no-fund", "--prefix", prefix, everythingPackage+"@"+everythingVersion).CombinedOutput()
	if err != nil {
		t.Fatalf("install %s with npm (as .ci/run does): %v\n%s", everythingPackage, err, out)
	}
	return node, entry
}

// mcpGateway answers the first request with a call of the everything
// server's echo tool and the second with text, and keeps both requests.
type mcpGateway struct {
	srv  *httptest.Server
	mu   sync.Mutex
	reqs [][]byte
}

func newMCPGateway(t *testing.T) *mcpGateway {
	return newMCPGatewayCalling(t, "mcp__everything__echo", map[string]string{"message": "hello from tern"})
}

// newMCPGatewayCalling is newMCPGateway calling tool with args.
func newMCPGatewayCalling(t *testing.T, tool string, args map[string]string) *mcpGateway {
	g := &mcpGateway{}
	g.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req chatRequest
		if json.Unmarshal(body, &req) != nil || r.Header.Get("Authorization") != "Bearer "+e2eKey {
			http.Error(w, `{"error":{"message":"bad request or key"}}`, http.StatusUnauthorized)
			return
		}
		g.mu.Lock()
		g.reqs = append(g.reqs, body)
		g.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		s := &sse{w: w, f: w.(http.Flusher)}
		if _, ok := req.toolResult("call_1"); ok {
			s.text("the server echoed", 64, 0)
			s.finish("stop")
			return
		}
		s.toolCall("call_1", tool, args)
		s.finish("tool_calls")
	}))
	t.Cleanup(g.srv.Close)
	return g
}

func (g *mcpGateway) requests() [][]byte {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([][]byte(nil), g.reqs...)
}

// TestE2EMCPEverything runs the reference server from npm under the built
// binary: its echo tool is offered in the first request, called, and its
// result reaches the next request; a server that cannot start is reported
// on stderr and the run goes on.
func TestE2EMCPEverything(t *testing.T) {
	t.Parallel()
	node, entry := everythingServer(t)
	g := newMCPGateway(t)
	conf := "# e2e\n[mcp_servers.everything]\ncommand = " + tomlQuote(node) + "\nargs = [" + tomlQuote(entry) + "]\nstartup_timeout = 60\n\n" +
		"[mcp_servers.broken]\ncommand = \"/nonexistent/mcp-server\"\n"
	reqs, stdout, stderr := runWithMCP(t, g, conf, "echo something")
	var first struct {
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(reqs[0], &first); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range first.Tools {
		names = append(names, tl.Function.Name)
	}
	joined := strings.Join(names, " ")
	if !strings.Contains(joined, "mcp__everything__echo") {
		t.Fatalf("the first request does not offer echo: %s\nstderr:\n%s", joined, stderr.String())
	}
	if !strings.HasPrefix(joined, "read_file ") || strings.Index(joined, "mcp__") < strings.Index(joined, "run_shell") {
		t.Errorf("MCP tools do not follow the built-in ones: %s", joined)
	}
	var second chatRequest
	if err := json.Unmarshal(reqs[1], &second); err != nil {
		t.Fatal(err)
	}
	res, _ := second.toolResult("call_1")
	if !strings.Contains(res, "hello from tern") || !strings.Contains(res, `status="ok"`) {
		t.Errorf("echo's result did not reach the next request: %q", res)
	}
	if !strings.Contains(stdout.String(), "the server echoed") {
		t.Errorf("stdout %q", stdout.String())
	}
	if n := strings.Count(stderr.String(), "MCP server broken failed"); n != 1 || strings.Contains(stderr.String(), "MCP server everything failed") {
		t.Errorf("stderr should name the broken server once:\n%s", stderr.String())
	}
}

// TestE2EMCPImage: the reference server's get-tiny-image result reaches
// the next request as words in the tool result and, right after the
// results, as the picture itself (an image_url part with the PNG the
// server sent).
func TestE2EMCPImage(t *testing.T) {
	t.Parallel()
	node, entry := everythingServer(t)
	g := newMCPGatewayCalling(t, "mcp__everything__get-tiny-image", map[string]string{})
	conf := "[mcp_servers.everything]\ncommand = " + tomlQuote(node) + "\nargs = [" + tomlQuote(entry) + "]\nstartup_timeout = 60\n"
	reqs, _, _ := runWithMCP(t, g, conf, "show me the logo")
	roles, tool, pictures := imageMessages(t, reqs[1])
	if !strings.HasSuffix(roles, "assistant tool user") {
		t.Errorf("roles %q: the picture should follow the result in a user message", roles)
	}
	if !strings.Contains(tool, "Here's the image you requested:") || !strings.Contains(tool, "[image: image/png") ||
		!strings.Contains(tool, "The picture is attached after the tool results.") {
		t.Errorf("tool result %q", tool)
	}
	// The server's MCP logo, a 20×20 PNG, sent as it came.
	if len(pictures) != 1 || !strings.HasPrefix(pictures[0], "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABQAAAAU") {
		t.Errorf("pictures %.120q", pictures)
	}
}

// runWithMCP runs `tern run` with conf as its config.toml against g, and
// returns the two chat requests g saw and what tern printed.
func runWithMCP(t *testing.T, g *mcpGateway, conf, prompt string) (reqs [][]byte, stdout, stderr *bytes.Buffer) {
	t.Helper()
	home := t.TempDir()
	ternHome := filepath.Join(home, ".tern")
	if err := os.MkdirAll(ternHome, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ternHome, "config.toml"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(ternBin, "run", "--approval", "full-auto", prompt)
	cmd.Dir = t.TempDir()
	cmd.Env = testEnv(t, withHome(map[string]string{"LLM_BASE_URL": g.srv.URL + "/v1", "LLM_API_KEY": e2eKey, "LLM_MODEL": "e2e-model"}, home))
	stdout, stderr = &bytes.Buffer{}, &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("tern run: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	reqs = g.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2\nstderr:\n%s", len(reqs), stderr.String())
	}
	return reqs, stdout, stderr
}

// tomlQuote quotes a path for config.toml.
func tomlQuote(s string) string {
	b, _ := json.Marshal(s) // a JSON string of a path is a valid TOML basic string
	return string(b)
}

// TestTmuxMCPApproval drives the interface with the reference server: the
// status line shows the server ready, the model's echo call asks (server,
// tool, indented arguments), `a` grants it for the session, and the result
// reaches the next request.
func TestTmuxMCPApproval(t *testing.T) {
	t.Parallel()
	needTmux(t)
	node, entry := everythingServer(t)
	g := newSSEGateway(t, func(s *sse, req chatRequest, _ *http.Request) {
		if res, ok := req.toolResult("call_1"); ok {
			if strings.Contains(res, "hello tmux") {
				s.text("The server echoed it back.", 64, 0)
			} else {
				s.text("No echo came back.", 64, 0)
			}
			s.finish("stop")
			return
		}
		s.toolCall("call_1", "mcp__everything__echo", map[string]string{"message": "hello tmux"})
		s.finish("tool_calls")
	})
	env := tmuxEnv(t, g.srv.URL)
	var home string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "TERN_HOME="); ok {
			home = v
		}
	}
	conf := "[mcp_servers.everything]\ncommand = " + tomlQuote(node) + "\nargs = [" + tomlQuote(entry) + "]\nstartup_timeout = 60\n"
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startTmux(t, env, t.TempDir(), shellQuote(ternBin)+"; echo EXITED $?; exec sleep 600")
	s.waitText(tmuxTimeout, placeholder, "mcp 1/1")
	s.typeText("say hello through the server")
	s.keys("Enter")
	s.waitText(tmuxTimeout, "Allow mcp__everything__echo", "call echo on the MCP server everything", `"message": "hello tmux"`,
		"calls of echo on the MCP server everything")
	time.Sleep(500 * time.Millisecond) // the dialog ignores answer keys for its first 400 ms
	s.keys("a")
	scr := s.waitText(tmuxTimeout, "The server echoed it back.")
	if !strings.Contains(scr, "⇄ mcp__everything__echo") {
		t.Errorf("no MCP card:\n%s", scr)
	}
}
