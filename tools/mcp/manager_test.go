package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/mcp"
)

// demoServer has an echo tool, a tool answering with an error, one with
// structured and non-text content, and one that hangs until cancelled
// (reporting the cancellation on cancelled).
func demoServer(cancelled chan<- struct{}) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "demo", Version: "1"}, nil)
	textTool(s, "echo", func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		var in struct{ Text string }
		if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
			return nil, err
		}
		return text("echo: " + in.Text), nil
	})
	textTool(s, "fail", func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "no such issue"}}}, nil
	})
	textTool(s, "rich", func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{
			Content: []sdk.Content{
				&sdk.TextContent{Text: "see \x1b[31mred\x1b[0m"},
				&sdk.ImageContent{MIMEType: "image/png", Data: make([]byte, 2048)},
				&sdk.ImageContent{MIMEType: "image/png", Data: pngBytes(9, 4)},
				&sdk.ResourceLink{URI: "file:///tmp/x.txt", Name: "x.txt"},
			},
			StructuredContent: map[string]any{"b": 2, "a": []int{1}},
		}, nil
	})
	textTool(s, "hang", func(ctx context.Context, _ *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		<-ctx.Done()
		if cancelled != nil {
			cancelled <- struct{}{}
		}
		return nil, ctx.Err()
	})
	s.AddTool(&sdk.Tool{Name: "look", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
		InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return text("looked"), nil })
	return s
}

func TestListAndCall(t *testing.T) {
	t.Parallel()
	m := inProcess(t, []mcp.ServerConfig{{Name: "demo", Command: "unused"}}, map[string]*sdk.Server{"demo": demoServer(nil)})
	wait(t, m)
	var names []string
	for _, tl := range m.Tools() {
		names = append(names, tl.Spec().Name)
		if tl.Kind() != tools.KindExternal {
			t.Errorf("%s: kind %v, want external", tl.Spec().Name, tl.Kind())
		}
	}
	want := "mcp__demo__echo mcp__demo__fail mcp__demo__hang mcp__demo__look mcp__demo__rich"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("tools %q, want %q", got, want)
	}
	echo := find(t, m, "mcp__demo__echo")
	if s := echo.Spec(); s.Description != "the echo tool" || !strings.Contains(string(s.Parameters), `"text"`) {
		t.Errorf("spec %+v", s)
	}
	st := m.Servers()
	if len(st) != 1 || st[0].State != mcp.StateReady || len(st[0].Tools) != 5 || !st[0].Tools[3].ReadOnlyHint {
		t.Errorf("status %+v", st)
	}
	if ready, all := m.Counts(); ready != 1 || all != 1 {
		t.Errorf("counts %d/%d", ready, all)
	}

	for _, c := range []struct {
		tool, args string
		status     tools.Status
		want       []string
		not        []string
	}{
		{"mcp__demo__echo", `{"text":"hi"}`, tools.StatusOK, []string{"echo: hi"}, nil},
		{"mcp__demo__fail", `{}`, tools.StatusError, []string{"no such issue"}, nil},
		{"mcp__demo__rich", `{}`, tools.StatusOK,
			[]string{"see [31mred[0m", "[image: image/png, 2 KB: not sent, image-1: not a PNG", "[image: image/png, 75 bytes]", "[resource link: file:///tmp/x.txt (x.txt)]", `{"a":[1],"b":2}`},
			[]string{"\x1b"}},
	} {
		res := find(t, m, c.tool).Run(context.Background(), json.RawMessage(c.args), nil)
		if res.Status != c.status {
			t.Errorf("%s: status %v, want %v (%q)", c.tool, res.Status, c.status, res.Output)
		}
		for _, w := range c.want {
			if !strings.Contains(res.Output, w) {
				t.Errorf("%s: output %q lacks %q", c.tool, res.Output, w)
			}
		}
		for _, n := range c.not {
			if strings.Contains(res.Output, n) {
				t.Errorf("%s: output %q holds %q", c.tool, res.Output, n)
			}
		}
		if c.tool == "mcp__demo__rich" {
			// The picture tern can read is carried; the one it cannot stays words.
			if len(res.Images) != 1 || res.Images[0].MediaType != "image/png" || res.Images[0].Width != 9 || res.Images[0].Height != 4 {
				t.Errorf("rich: images %+v, want the one 9×4 PNG", res.Images)
			}
		} else if len(res.Images) != 0 {
			t.Errorf("%s: images %+v", c.tool, res.Images)
		}
	}
}

// pngBytes encodes a w×h grey PNG.
func pngBytes(w, h int) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		panic(err)
	}
	return b.Bytes()
}

func TestHungCallEndsAtToolTimeout(t *testing.T) {
	t.Parallel()
	cancelled := make(chan struct{}, 1)
	m := inProcess(t, []mcp.ServerConfig{{Name: "demo", Command: "unused", ToolTimeout: 200 * time.Millisecond}},
		map[string]*sdk.Server{"demo": demoServer(cancelled)})
	wait(t, m)
	start := time.Now()
	res := find(t, m, "mcp__demo__hang").Run(context.Background(), json.RawMessage(`{}`), nil)
	if res.Status != tools.StatusError || !strings.Contains(res.Output, "tool_timeout") {
		t.Errorf("result %+v", res)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Error("the server was not told the call was cancelled")
	}
}

func TestCancelSendsCancelled(t *testing.T) {
	t.Parallel()
	cancelled := make(chan struct{}, 1)
	m := inProcess(t, []mcp.ServerConfig{{Name: "demo", Command: "unused"}}, map[string]*sdk.Server{"demo": demoServer(cancelled)})
	wait(t, m)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	res := find(t, m, "mcp__demo__hang").Run(ctx, json.RawMessage(`{}`), nil)
	if res.Status != tools.StatusCancelled {
		t.Errorf("result %+v", res)
	}
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Error("the server did not receive notifications/cancelled")
	}
	// The server is still usable.
	if res := find(t, m, "mcp__demo__echo").Run(context.Background(), json.RawMessage(`{"text":"x"}`), nil); res.Status != tools.StatusOK {
		t.Errorf("after cancel: %+v", res)
	}
}

func TestListChangedUpdatesTools(t *testing.T) {
	t.Parallel()
	s := demoServer(nil)
	m := inProcess(t, []mcp.ServerConfig{{Name: "demo", Command: "unused"}}, map[string]*sdk.Server{"demo": s})
	wait(t, m)
	changed := m.Changed()
	textTool(s, "added", func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return text("new"), nil })
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Fatal("no change after tools/list_changed")
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(m.Tools()) != 6 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	find(t, m, "mcp__demo__added")
}

func TestStartFailures(t *testing.T) {
	t.Parallel()
	m := started(t, mcp.Options{Getenv: func(n string) string {
		if n == "PATH" {
			return "/usr/bin:/bin"
		}
		return ""
	}, Servers: []mcp.ServerConfig{
		{Name: "missing", Command: "/nonexistent/server"},
		{Name: "silent", Command: "sleep", Args: []string{"30"}, StartupTimeout: 300 * time.Millisecond},
		{Name: "exits", Command: "sh", Args: []string{"-c", "echo bad config >&2; exit 1"}},
		{Name: "off", Command: "sleep", Disabled: true},
	}})
	want := map[string]struct {
		state mcp.State
		err   string
	}{
		"missing": {mcp.StateFailed, "no such file"},
		"silent":  {mcp.StateFailed, "startup timeout (300ms)"},
		"exits":   {mcp.StateFailed, "bad config"},
		"off":     {mcp.StateDisabled, ""},
	}
	for _, st := range m.Servers() {
		w := want[st.Name]
		if st.State != w.state || !strings.Contains(st.Err, w.err) {
			t.Errorf("%s: %v %q, want %v with %q", st.Name, st.State, st.Err, w.state, w.err)
		}
	}
	if len(m.Tools()) != 0 {
		t.Errorf("tools of failed servers offered: %v", m.Tools())
	}
	if ready, all := m.Counts(); ready != 0 || all != 3 {
		t.Errorf("counts %d/%d", ready, all)
	}
}

func TestEnvAllowList(t *testing.T) {
	t.Parallel()
	env := map[string]string{
		"PATH": "/usr/bin", "HOME": "/home/u", "LANG": "C.UTF-8", "TMPDIR": "/tmp/x",
		"LLM_API_KEY": "sk-tern-secret-1", "OPENAI_API_KEY": "sk-tern-secret-2",
		"GITHUB_TOKEN": "ghp-listed", "AWS_SECRET_ACCESS_KEY": "unlisted-secret",
	}
	m := started(t, mcp.Options{Getenv: func(n string) string { return env[n] }, Servers: []mcp.ServerConfig{
		stdioConfig("envsrv", map[string]string{
			"GITHUB_TOKEN": "$GITHUB_TOKEN",
			"LEAK":         "${LLM_API_KEY}",
			"LLM_API_KEY":  "sk-tern-secret-1",
		}),
	}})
	res := find(t, m, "mcp__envsrv__env").Run(context.Background(), json.RawMessage(`{}`), nil)
	if res.Status != tools.StatusOK {
		t.Fatalf("%+v", res)
	}
	got := map[string]string{}
	for _, kv := range strings.Split(res.Output, "\n") {
		k, v, _ := strings.Cut(kv, "=")
		got[k] = v
	}
	for k, v := range map[string]string{"PATH": "/usr/bin", "HOME": "/home/u", "LANG": "C.UTF-8", "TMPDIR": "/tmp/x", "GITHUB_TOKEN": "ghp-listed", "LEAK": ""} {
		if got[k] != v {
			t.Errorf("%s=%q, want %q", k, got[k], v)
		}
	}
	for _, secret := range []string{"sk-tern-secret", "unlisted-secret"} {
		if strings.Contains(res.Output, secret) {
			t.Errorf("the server's environment holds %s:\n%s", secret, res.Output)
		}
	}
	for k := range got {
		switch k {
		case "PATH", "HOME", "LANG", "TMPDIR", "GITHUB_TOKEN", "LEAK", serverEnv:
		default:
			t.Errorf("unexpected variable %s in the server's environment", k)
		}
	}
}

func TestCrashMidCall(t *testing.T) {
	t.Parallel()
	m := started(t, mcp.Options{Getenv: func(string) string { return "" }, Servers: []mcp.ServerConfig{stdioConfig("crashy", nil)}})
	res := find(t, m, "mcp__crashy__crash").Run(context.Background(), json.RawMessage(`{}`), nil)
	if res.Status != tools.StatusError || !strings.Contains(res.Output, "exited") {
		t.Errorf("result %+v", res)
	}
	deadline := time.Now().Add(5 * time.Second)
	for m.Servers()[0].State != mcp.StateFailed && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	st := m.Servers()[0]
	if st.State != mcp.StateFailed || len(m.Tools()) != 0 {
		t.Errorf("after the crash: %+v, %d tools", st, len(m.Tools()))
	}
	if err := m.Reconnect("crashy"); err != nil {
		t.Fatal(err)
	}
	wait(t, m)
	if res := find(t, m, "mcp__crashy__env").Run(context.Background(), json.RawMessage(`{}`), nil); res.Status != tools.StatusOK {
		t.Errorf("after reconnecting: %+v", res)
	}
}

func TestPromptsAndResources(t *testing.T) {
	t.Parallel()
	s := demoServer(nil)
	s.AddPrompt(&sdk.Prompt{Name: "review", Description: "review a PR", Arguments: []*sdk.PromptArgument{{Name: "pr", Required: true}}},
		func(_ context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: "Review PR " + req.Params.Arguments["pr"] + "\x1b[2J"}}}}, nil
		})
	s.AddResource(&sdk.Resource{URI: "demo://doc", Name: "doc", MIMEType: "text/plain"},
		func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: "demo://doc", Text: "the doc"}}}, nil
		})
	m := inProcess(t, []mcp.ServerConfig{{Name: "demo", Command: "unused"}}, map[string]*sdk.Server{"demo": s})
	wait(t, m)
	st := m.Servers()[0]
	if len(st.Prompts) != 1 || st.Prompts[0].Name != "mcp__demo__review" || !st.Prompts[0].Args[0].Required {
		t.Fatalf("prompts %+v", st.Prompts)
	}
	text, err := m.Prompt(context.Background(), "mcp__demo__review", map[string]string{"pr": "42"})
	if err != nil || text != "Review PR 42[2J" {
		t.Errorf("prompt %q, %v", text, err)
	}
	if _, err := m.Prompt(context.Background(), "mcp__demo__nope", nil); err == nil {
		t.Error("an unknown prompt was fetched")
	}
	doc, err := m.Resource(context.Background(), "demo", "demo://doc")
	if err != nil || doc != "the doc" {
		t.Errorf("resource %q, %v", doc, err)
	}
	if _, err := m.Resource(context.Background(), "other", "demo://doc"); err == nil {
		t.Error("a resource of an unknown server was read")
	}
}

func TestDelayedStart(t *testing.T) {
	t.Parallel()
	srv := demoServer(nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := mcp.WithTransport(mcp.Options{Servers: []mcp.ServerConfig{{Name: "demo", Command: "unused"}}, Delay: 200 * time.Millisecond},
		func(mcp.ServerConfig) (sdk.Transport, error) {
			ct, st := sdk.NewInMemoryTransports()
			if _, err := srv.Connect(ctx, st, nil); err != nil {
				return nil, err
			}
			return ct, nil
		})
	m, err := mcp.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	m.Start(ctx)
	if st := m.Servers()[0].State; st != mcp.StateStarting {
		t.Errorf("state %v right after Start", st)
	}
	wait(t, m)
	if d := time.Since(start); d < 200*time.Millisecond || m.Servers()[0].State != mcp.StateReady {
		t.Errorf("ready after %v: %+v", d, m.Servers())
	}
	_ = m.Close()

	// Closed while it waits: no server starts and Close returns at once.
	m2, _ := mcp.New(mcp.Options{Servers: []mcp.ServerConfig{{Name: "late", Command: "sleep", Args: []string{"30"}}}, Delay: time.Hour})
	m2.Start(ctx)
	done := make(chan struct{})
	go func() { _ = m2.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close waited for the delay")
	}
}
