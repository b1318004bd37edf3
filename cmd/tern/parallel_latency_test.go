package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider/openai"
	"github.com/ternhq/tern/tools"
)

// gatewayLatency is the latency the parallel-calls measure puts on every
// model request.
const gatewayLatency = 200 * time.Millisecond

// latencyGateway is an OpenAI-compatible gateway that waits
// gatewayLatency before each answer. The parent's first request asks for
// the calls of the scenario at once (four reads, or two tasks); a
// subagent reads one file then answers; every other request answers.
func latencyGateway(t *testing.T, firstCalls []string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
			http.NotFound(w, r)
			return
		}
		var req struct {
			Messages []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
		}
		body, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(body, &req)
		results, child := 0, false
		for _, m := range req.Messages {
			results += map[bool]int{true: 1}[m.Role == "tool"]
			child = child || m.Role == "system" && strings.Contains(m.Content, "You are a subagent")
		}
		time.Sleep(gatewayLatency)
		w.Header().Set("Content-Type", "text/event-stream")
		var calls []string
		switch {
		case child && results == 0:
			calls = []string{tools.ReadFileName, `{"path":"a.go"}`}
		case !child && results == 0:
			calls = firstCalls
		}
		for i := 0; i+1 < len(calls); i += 2 {
			args, _ := json.Marshal(calls[i+1])
			_, _ = io.WriteString(w, chunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"id":"call_%d","type":"function","function":{"name":%q,"arguments":%s}}]}`,
				i/2, i/2, calls[i], args), ""))
		}
		if len(calls) > 0 {
			_, _ = io.WriteString(w, chunk(`{}`, "tool_calls"))
		} else {
			_, _ = io.WriteString(w, chunk(`{"role":"assistant","content":"done"}`, "")+chunk(`{}`, "stop"))
		}
		_, _ = io.WriteString(w, usageChunk(100, 10, 0)+"data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// slowRead is a read-only tool that takes gatewayLatency, as an MCP tool
// on a remote server does.
type slowRead struct{}

func (slowRead) Spec() tools.Spec {
	return tools.Spec{Name: "remote_read", Description: "reads remotely",
		Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)}
}
func (slowRead) Kind() tools.Kind { return tools.KindRead }
func (slowRead) ReadOnly() bool   { return true }
func (slowRead) Preview(context.Context, json.RawMessage) (tools.Preview, error) {
	return tools.Preview{Title: "remote read"}, nil
}
func (slowRead) Run(ctx context.Context, _ json.RawMessage, _ func(string)) tools.Result {
	select {
	case <-time.After(gatewayLatency):
	case <-ctx.Done():
	}
	return tools.Result{Status: tools.StatusOK, Output: "remote content", Summary: "1 line"}
}

// wallTime runs one turn of the scenario with maxParallel and returns how
// long it took.
func wallTime(t *testing.T, firstCalls []string, maxParallel int) time.Duration {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"a.go", "b.go", "c.go", "d.go"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("package x\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	prov, err := openai.New(openai.Config{BaseURL: latencyGateway(t, firstCalls), Model: "m", MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry(tools.NewReadFile(ws), slowRead{})
	a, err := agent.New(agent.Options{Provider: prov, Model: "m", Tools: reg, Workspace: ws, System: "system",
		Policy: agent.PolicyReadOnly, Subagents: &agent.Subagents{}, MaxParallel: maxParallel})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go a.Run(ctx)
	start := time.Now()
	if err := a.Submit("go"); err != nil {
		t.Fatal(err)
	}
	for ev := range a.Events() {
		if ev.Kind == agent.EventTurnFinished {
			if ev.Finish.Reason != agent.FinishDone {
				t.Fatalf("finish %+v", ev.Finish)
			}
			return time.Since(start)
		}
	}
	t.Fatal("events closed")
	return 0
}

// TestParallelWallTime measures, against a gateway with 200 ms of latency
// per request, the wall time of four independent reads (local read_file,
// and a read-only tool that itself takes 200 ms, as a remote MCP tool
// does) and of two tasks, one call at a time versus in parallel. Run it
// with -v for the figures.
func TestParallelWallTime(t *testing.T) {
	t.Parallel()
	task := func(p string) string { return fmt.Sprintf(`{"description":"Look at %s","prompt":"%s"}`, p, p) }
	scenarios := []struct {
		name  string
		calls []string
		// faster is whether parallel must be clearly faster.
		faster bool
	}{
		{"four read_file calls", []string{"read_file", `{"path":"a.go"}`, "read_file", `{"path":"b.go"}`, "read_file", `{"path":"c.go"}`, "read_file", `{"path":"d.go"}`}, false},
		{"four 200 ms read-only calls", []string{"remote_read", `{"path":"a"}`, "remote_read", `{"path":"b"}`, "remote_read", `{"path":"c"}`, "remote_read", `{"path":"d"}`}, true},
		{"two tasks", []string{agent.TaskTool, task("a"), agent.TaskTool, task("b")}, true},
	}
	for _, sc := range scenarios {
		seq := wallTime(t, sc.calls, 1)
		par := wallTime(t, sc.calls, 0)
		t.Logf("%s: sequential %v, parallel %v", sc.name, seq.Round(time.Millisecond), par.Round(time.Millisecond))
		if sc.faster && par > seq-gatewayLatency/2 {
			t.Errorf("%s: parallel %v is not faster than sequential %v", sc.name, par, seq)
		}
	}
}
