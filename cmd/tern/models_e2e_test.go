package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// bigGateway answers like a model in a long session: every request reports
// promptTokens of prompt, more than the assumed window, and its model list
// says nothing of windows. A turn writes two files, then answers; a
// compaction request gets a summary.
type bigGateway struct {
	srv          *httptest.Server
	promptTokens int
	mu           sync.Mutex
	bodies       []string
	// steps counts the turn's requests other than compactions.
	steps int
}

func newBigGateway(t *testing.T, promptTokens int) *bigGateway {
	t.Helper()
	g := &bigGateway{promptTokens: promptTokens}
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/models", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"object":"list","data":[{"id":"e2e-model","object":"model","created":1,"owned_by":"test"}]}`)
	})
	mux.HandleFunc("/v1/chat/completions", g.chat)
	g.srv = httptest.NewServer(mux)
	t.Cleanup(g.srv.Close)
	return g
}

func (g *bigGateway) chat(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	g.mu.Lock()
	g.bodies = append(g.bodies, string(body))
	g.mu.Unlock()
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	last := req.Messages[len(req.Messages)-1]
	compaction := last.Role == "user" && strings.Contains(last.Content, "Compaction request")
	g.mu.Lock()
	results := g.steps
	if !compaction {
		g.steps++
	}
	g.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	var parts []string
	switch {
	case compaction:
		parts = []string{chunk(`{"role":"assistant","content":"Summary: two files were written."}`, ""), chunk(`{}`, "stop")}
	case results < 2:
		args, _ := json.Marshal(map[string]string{"path": fmt.Sprintf("file%d.txt", results), "content": strings.Repeat("words and more words\n", 200)})
		call, _ := json.Marshal(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "id": fmt.Sprintf("call_%d", results), "type": "function",
			"function": map[string]string{"name": "write_file", "arguments": string(args)}}}})
		parts = []string{chunk(string(call), ""), chunk(`{}`, "tool_calls")}
	default:
		parts = []string{chunk(`{"role":"assistant","content":"Both files are written."}`, ""), chunk(`{}`, "stop")}
	}
	parts = append(parts, usageChunk(g.promptTokens, 20, 0), "data: [DONE]\n\n")
	for _, p := range parts {
		_, _ = io.WriteString(w, p)
		w.(http.Flusher).Flush()
	}
}

// compactions counts the compaction requests the gateway saw.
func (g *bigGateway) compactions() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := 0
	for _, b := range g.bodies {
		if strings.Contains(b, "Compaction request") {
			n++
		}
	}
	return n
}

// TestE2ECompactsPastTheAssumedWindow: the gateway reports no window and the
// model database does not know the model, so the assumed 128k window
// stands; a conversation past it is compacted automatically.
func TestE2ECompactsPastTheAssumedWindow(t *testing.T) {
	t.Parallel()
	g := newBigGateway(t, 150_000)
	env := map[string]string{"LLM_BASE_URL": g.srv.URL + "/v1", "LLM_API_KEY": e2eKey, "LLM_MODEL": "e2e-model", "TERN_HOME": t.TempDir()}
	r := tern(t, t.TempDir(), env, "", "run", "--json", "--approval", "full-auto", "write two files")
	if r.code != exitOK {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	if n := g.compactions(); n == 0 {
		t.Fatalf("no compaction request reached the gateway\nstdout: %s", r.stdout)
	}
	if !strings.Contains(r.stdout, `"type":"context.compacted"`) {
		t.Errorf("no context.compacted line:\n%s", r.stdout)
	}
}

// TestE2EListPrices: a model the database knows is priced at its list
// prices with no price config, marked as such; config prices win.
func TestE2EListPrices(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		config   string
		wantList bool
		minCost  float64
	}{
		{"list prices", "", true, 1e-6},
		// 750 prompt and 39 completion tokens at $1 a token, 300 of them
		// cached at the input price: far above any list price.
		{"config wins", "[models.\"gpt-4o-mini\"]\nprice_input = 1000000\nprice_output = 1000000\n", false, 700},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			g := newFakeGateway(t, scripted)
			env := online(g)
			env["LLM_MODEL"] = "gpt-4o-mini"
			home := t.TempDir()
			if tt.config != "" {
				if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(tt.config), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			env["TERN_HOME"] = home
			r := tern(t, t.TempDir(), env, "", "run", "--json", "--approval", "full-auto", "create hello.txt")
			if r.code != exitOK {
				t.Fatalf("exit %d\nstderr: %s", r.code, r.stderr)
			}
			last := lastLine(t, r.stdout)
			usage, _ := last["usage"].(map[string]any)
			cost, _ := usage["cost"].(float64)
			list, _ := usage["list_prices"].(bool)
			if cost < tt.minCost || list != tt.wantList {
				t.Errorf("usage %v: want cost ≥ %g, list_prices %v", usage, tt.minCost, tt.wantList)
			}
		})
	}
}

// TestE2EEffortReachesReasoningModelsOnly: --effort is in the request body
// of a model that reasons and absent for one that does not.
func TestE2EEffortReachesReasoningModelsOnly(t *testing.T) {
	t.Parallel()
	tests := []struct {
		model, want string
	}{
		{"o3", `"reasoning_effort":"high"`},
		{"gpt-4o-mini", ""},
		{"e2e-model", ""}, // unknown to the database
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			t.Parallel()
			g := newFakeGateway(t, scripted)
			env := online(g)
			env["LLM_MODEL"] = tt.model
			env["TERN_HOME"] = t.TempDir()
			r := tern(t, t.TempDir(), env, "", "run", "--effort", "high", "--approval", "full-auto", "create hello.txt")
			if r.code != exitOK {
				t.Fatalf("exit %d\nstderr: %s", r.code, r.stderr)
			}
			g.mu.Lock()
			bodies := append([]string(nil), g.bodies...)
			g.mu.Unlock()
			if len(bodies) == 0 {
				t.Fatal("no request")
			}
			for i, b := range bodies {
				has := strings.Contains(b, "reasoning_effort")
				if tt.want != "" && !strings.Contains(b, tt.want) || tt.want == "" && has {
					t.Errorf("request %d: want %q in the body, got reasoning_effort %v:\n%.300s", i, tt.want, has, b)
				}
			}
		})
	}
}
