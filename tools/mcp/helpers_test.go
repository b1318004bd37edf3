package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/mcp"
)

// serverEnv makes the test binary an MCP server on stdio (see TestMain).
const serverEnv = "TERN_MCP_TEST_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(serverEnv) == "1" {
		runStdioServer()
		return
	}
	os.Exit(m.Run())
}

// runStdioServer serves tools that need a process of their own: env
// (the server's environment) and crash (exits mid-call).
func runStdioServer() {
	s := sdk.NewServer(&sdk.Implementation{Name: "stdio-test", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "env", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: strings.Join(os.Environ(), "\n")}}}, nil
		})
	s.AddTool(&sdk.Tool{Name: "noop", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return text("ok"), nil })
	s.AddTool(&sdk.Tool{Name: "crash", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			fmt.Fprintln(os.Stderr, "boom: the test server crashes")
			os.Exit(3)
			return nil, nil
		})
	if err := s.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		os.Exit(1)
	}
}

// testBinary is this test binary, which serves MCP on stdio when serverEnv is set.
func testBinary() string { return os.Args[0] }

// stdioConfig runs the test binary as a server.
func stdioConfig(name string, env map[string]string) mcp.ServerConfig {
	if env == nil {
		env = map[string]string{}
	}
	env[serverEnv] = "1"
	return mcp.ServerConfig{Name: name, Command: os.Args[0], Env: env, StartupTimeout: 20 * time.Second}
}

// inProcess starts a manager whose servers are the in-process SDK servers
// made by servers, keyed by name.
func inProcess(t *testing.T, cfgs []mcp.ServerConfig, servers map[string]*sdk.Server) *mcp.Manager {
	t.Helper()
	return inProcessWith(t, mcp.Options{Servers: cfgs}, servers)
}

// inProcessWith is inProcess with the manager's other options.
func inProcessWith(t *testing.T, o mcp.Options, servers map[string]*sdk.Server) *mcp.Manager {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	opts := mcp.WithTransport(o, func(c mcp.ServerConfig) (sdk.Transport, error) {
		s, ok := servers[c.Name]
		if !ok {
			return nil, fmt.Errorf("no test server %s", c.Name)
		}
		ct, st := sdk.NewInMemoryTransports()
		if _, err := s.Connect(ctx, st, nil); err != nil {
			return nil, err
		}
		return ct, nil
	})
	m, err := mcp.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	m.Start(ctx)
	t.Cleanup(func() {
		_ = m.Close()
		cancel()
	})
	return m
}

// started starts a manager over real processes and waits for it.
func started(t *testing.T, opts mcp.Options) *mcp.Manager {
	t.Helper()
	m, err := mcp.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	m.Start(context.Background())
	t.Cleanup(func() { _ = m.Close() })
	wait(t, m)
	return m
}

// wait waits for the manager's servers to start, at most 30 s.
func wait(t *testing.T, m *mcp.Manager) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	m.Wait(ctx)
	if ctx.Err() != nil {
		t.Fatal("servers still starting after 30 s")
	}
}

// find returns the offered tool with that name.
func find(t *testing.T, m *mcp.Manager, name string) tools.Tool {
	t.Helper()
	for _, tl := range m.Tools() {
		if tl.Spec().Name == name {
			return tl
		}
	}
	var names []string
	for _, tl := range m.Tools() {
		names = append(names, tl.Spec().Name)
	}
	t.Fatalf("no tool %s among %v; servers: %+v", name, names, m.Servers())
	return nil
}

// textTool adds a tool answering with handler's result.
func textTool(s *sdk.Server, name string, h sdk.ToolHandler) {
	s.AddTool(&sdk.Tool{Name: name, Description: "the " + name + " tool",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)}, h)
}

// text is a result of one text part.
func text(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}
