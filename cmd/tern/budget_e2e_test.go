package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// lastLine decodes the last JSON line of a run.
func lastLine(t *testing.T, out string) map[string]any {
	t.Helper()
	parseLines(t, out) // every line is a protocol line
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var m map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// pricedHome is a TERN_HOME whose config prices e2e-model at $1 a token.
func pricedHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	cfg := "[models.\"e2e-model\"]\nprice_input = 1000000\nprice_output = 1000000\n"
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

func TestE2EBudgetsStopRuns(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		mode     gatewayMode
		args     []string
		priced   bool
		requests int32
		says     string
	}{
		{"requests", scripted, []string{"--max-requests", "1"}, false, 1, "--max-requests"},
		// The first request costs 350+30 tokens at $1 a token.
		{"cost", scripted, []string{"--max-cost", "5"}, true, 1, "--max-cost"},
		{"duration", hanging, []string{"--max-duration", "300ms"}, false, 1, "--max-duration"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			g := newFakeGateway(t, tt.mode)
			env := online(g)
			home := t.TempDir()
			if tt.priced {
				home = pricedHome(t)
			}
			env["TERN_HOME"] = home
			args := append([]string{"run", "--json", "--approval", "full-auto"}, tt.args...)
			start := time.Now()
			r := tern(t, t.TempDir(), env, "", append(args, "create hello.txt")...)
			if r.code != exitBudget {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, exitBudget, r.stdout, r.stderr)
			}
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("the run took %v", d)
			}
			last := lastLine(t, r.stdout)
			if last["type"] != "turn.failed" {
				t.Fatalf("last line %v", last)
			}
			e, _ := last["error"].(map[string]any)
			if e["kind"] != "budget" || !strings.Contains(e["message"].(string), tt.says) {
				t.Errorf("error %v", e)
			}
			if n := g.requests.Load(); n != tt.requests {
				t.Errorf("%d requests reached the gateway, want %d", n, tt.requests)
			}
			usage, _ := last["usage"].(map[string]any)
			if _, ok := usage["cost"]; ok != tt.priced {
				t.Errorf("usage %v: cost shown %v, priced %v", usage, ok, tt.priced)
			}
			// The session log holds the request measured and its usage timed.
			logs, _ := filepath.Glob(filepath.Join(home, "sessions", "*", "*", "*", "*.jsonl"))
			if len(logs) != 1 {
				t.Fatalf("session logs: %v", logs)
			}
			log := readFile(t, logs[0])
			if !strings.Contains(log, `"type":"request"`) || !strings.Contains(log, `"bytes":`) {
				t.Errorf("no request record in the log:\n%s", log)
			}
			if tt.mode == scripted && !strings.Contains(log, `"duration_ms"`) {
				t.Errorf("no timed usage record in the log:\n%s", log)
			}
		})
	}
}

func TestE2EMaxCostNeedsPrices(t *testing.T) {
	t.Parallel()
	g := newFakeGateway(t, scripted)
	r := tern(t, t.TempDir(), online(g), "", "run", "--max-cost", "0.5", "hi")
	if r.code != exitUsage || !strings.Contains(r.stderr, "price_input") || !strings.Contains(r.stderr, `[models."e2e-model"]`) {
		t.Fatalf("exit %d\nstderr: %s", r.code, r.stderr)
	}
	if n := g.requests.Load(); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

func TestE2EBudgetFromConfig(t *testing.T) {
	t.Parallel()
	g := newFakeGateway(t, scripted)
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("max_requests = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := online(g)
	env["TERN_HOME"] = home
	r := tern(t, t.TempDir(), env, "", "run", "--approval", "full-auto", "create hello.txt")
	if r.code != exitBudget || !strings.Contains(r.stderr, "turn failed (budget)") {
		t.Fatalf("exit %d\nstderr: %s", r.code, r.stderr)
	}
	// A flag overrides the file.
	r = tern(t, t.TempDir(), env, "", "run", "--approval", "full-auto", "--max-requests", "0", "create hello.txt")
	if r.code != exitOK {
		t.Fatalf("--max-requests 0 over max_requests = 1: exit %d\nstderr: %s", r.code, r.stderr)
	}
}
