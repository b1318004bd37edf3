package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
)

// TestE2EACPBench measures tern acp against tern run from the outside, on
// demand, not in CI:
//
//	TERN_E2E_BENCH=1 go test -run TestE2EACPBench -count=1 -v ./cmd/tern/
//
// overhead: the median time from sending a prompt to its response in tern
// acp, less the median time from turn.started to turn.completed of the
// same turn in `tern run --json` (same gateway, a one-chunk answer).
// stream: the CPU time the tern acp process spends on a 60 KB answer
// streamed in 4-byte chunks (everything: the gateway's stream, the agent,
// the session log, the projection and the encoding; the projection and
// encoding alone are internal/acp's BenchmarkStream60KB).
func TestE2EACPBench(t *testing.T) {
	if os.Getenv("TERN_E2E_BENCH") == "" {
		t.Skip("set TERN_E2E_BENCH=1 to run the ACP benchmark")
	}
	const runs = 15
	answer := "ok"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		body, _ := io.ReadAll(r.Body)
		text := answer
		if strings.Contains(string(body), "stream 60 KB") {
			text = strings.Repeat("abcd", 15<<8)
		}
		_, _ = io.WriteString(w, chunk(`{"role":"assistant","content":""}`, ""))
		for i := 0; i < len(text); i += 4 {
			_, _ = io.WriteString(w, chunk(`{"content":"`+text[i:min(i+4, len(text))]+`"}`, ""))
		}
		_, _ = io.WriteString(w, chunk(`{}`, "stop")+"data: [DONE]\n\n")
	}))
	defer srv.Close()
	env := map[string]string{"LLM_BASE_URL": srv.URL + "/v1", "LLM_API_KEY": e2eKey, "LLM_MODEL": "m"}
	dir := t.TempDir()

	// tern run: turn.started → turn.completed, as the lines arrive.
	var runTurns []time.Duration
	for range runs {
		cmd := exec.Command(ternBin, "run", "--json", "--approval", "full-auto", "say ok")
		cmd.Dir = dir
		cmd.Env = testEnv(t, env)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var started time.Time
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			switch {
			case strings.Contains(sc.Text(), `"type":"turn.started"`):
				started = time.Now()
			case strings.Contains(sc.Text(), `"type":"turn.completed"`):
				runTurns = append(runTurns, time.Since(started))
			}
		}
		if err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
	}

	// tern acp: prompt request → response, the first prompt of a fresh
	// process (as cold as tern run's turn), then prompts on one connection.
	var acpTurns, warmTurns []time.Duration
	prompt := func(e *editor, id sdk.SessionId) time.Duration {
		start := time.Now()
		if _, err := e.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: id, Prompt: []sdk.ContentBlock{sdk.TextBlock("say ok")}}); err != nil {
			t.Fatal(err)
		}
		return time.Since(start)
	}
	for range runs {
		e := startEditor(t, dir, testEnv(t, env), sdk.ClientCapabilities{})
		acpTurns = append(acpTurns, prompt(e, e.newSession(t, dir)))
		_ = e.stdin.Close()
		if err := <-e.done; err != nil {
			t.Fatalf("tern acp exited with %v", err)
		}
	}
	e := startEditor(t, dir, testEnv(t, env), sdk.ClientCapabilities{})
	id := e.newSession(t, dir)
	for range runs {
		warmTurns = append(warmTurns, prompt(e, id))
	}
	overhead := median(acpTurns) - median(runTurns)
	t.Logf("a first turn: tern run %v, tern acp %v (medians of %d): overhead %v (target ≤ 5ms); later turns on one connection: %v",
		median(runTurns), median(acpTurns), runs, overhead, median(warmTurns))

	p := proc{t: t, pid: e.cmd.Process.Pid}
	before := p.cpu()
	start := time.Now()
	if _, err := e.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: id, Prompt: []sdk.ContentBlock{sdk.TextBlock("stream 60 KB")}}); err != nil {
		t.Fatal(err)
	}
	t.Logf("60 KB answer in 4-byte chunks: %v wall, %v CPU in tern acp (all of it: provider, agent, log, projection, encoding)", time.Since(start), p.cpu()-before)
	if overhead > 5*time.Millisecond {
		t.Errorf("tern acp adds %v per prompt over tern run (target ≤ 5ms)", overhead)
	}
}
