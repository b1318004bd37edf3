package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestE2EModelHeadersFollowAResumedSession covers per-model headers chosen
// per request: a session recorded with model-b and continued while
// LLM_MODEL names model-a runs on model-b, and its request carries
// model-b's headers and none of model-a's, which were the ones known when
// tern started.
func TestE2EModelHeadersFollowAResumedSession(t *testing.T) {
	t.Parallel()
	type seen struct {
		model string
		h     http.Header
	}
	var mu sync.Mutex
	var got []seen
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
			http.NotFound(w, r) // the model list: tern assumes a window
			return
		}
		var req struct {
			Model string `json:"model"`
		}
		_ = json.Unmarshal(body, &req)
		mu.Lock()
		got = append(got, seen{model: req.Model, h: r.Header.Clone()})
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, chunk(`{"content":"hello"}`, "")+chunk(`{}`, "stop")+"data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	home, dir := t.TempDir(), t.TempDir()
	cfg := `[models."model-a"]
headers = { "X-Title" = "for-a", "X-Only-A" = "a" }

[models."model-b"]
headers = { "X-Title" = "for-b" }
`
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"LLM_BASE_URL": srv.URL + "/v1", "LLM_API_KEY": e2eKey, "LLM_MODEL": "model-b", "TERN_HOME": home}
	if r := tern(t, dir, env, "", "run", "say hello"); r.code != 0 {
		t.Fatalf("first run: exit %d\nstderr: %s", r.code, r.stderr)
	}
	env["LLM_MODEL"] = "model-a"
	if r := tern(t, dir, env, "", "run", "--continue", "say hello again"); r.code != 0 {
		t.Fatalf("continued run: exit %d\nstderr: %s", r.code, r.stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 {
		t.Fatalf("the gateway saw %d chat requests, want 2", len(got))
	}
	for i, s := range got {
		if s.model != "model-b" || s.h.Get("X-Title") != "for-b" || s.h.Get("X-Only-A") != "" {
			t.Errorf("request %d: model %q, X-Title %q, X-Only-A %q; want model-b's headers only", i, s.model, s.h.Get("X-Title"), s.h.Get("X-Only-A"))
		}
	}
}
