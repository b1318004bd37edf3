package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestE2EStalledGatewayEndsTheRun runs `tern run` against gateways that
// never finish an answer: one that never sends headers, one that sends
// only keep-alive comments, one that stalls after the first text. With
// small first_token_timeout and stream_idle_timeout each attempt fails,
// is retried, and the run ends with a network error naming the setting
// instead of waiting for ever.
func TestE2EStalledGatewayEndsTheRun(t *testing.T) {
	t.Parallel()
	hold := func(head string, comments bool) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			if head != "" {
				w.Header().Set("Content-Type", "text/event-stream")
				_, _ = io.WriteString(w, head)
				w.(http.Flusher).Flush()
			}
			tick := time.NewTicker(20 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-r.Context().Done():
					return
				case <-tick.C:
					if comments {
						_, _ = io.WriteString(w, ": ping\n\n")
						w.(http.Flusher).Flush()
					}
				}
			}
		}
	}
	for _, tt := range []struct {
		name     string
		handler  http.HandlerFunc
		setting  string
		requests int32
	}{
		// The provider retries before the first text: --max-attempts 2.
		{"no headers", hold("", false), "first_token_timeout", 2},
		{"only comments", hold(": ping\n\n", true), "first_token_timeout", 2},
		// After text reached the agent, the agent retries (three times).
		{"stalls after text", hold(chunk(`{"role":"assistant","content":"Thinking"}`, ""), true), "stream_idle_timeout", 4},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var requests atomicCount
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
					http.NotFound(w, r) // the model list: no window to learn
					return
				}
				requests.add()
				tt.handler(w, r)
			}))
			t.Cleanup(func() { srv.CloseClientConnections(); srv.Close() })
			home := t.TempDir()
			cfg := "first_token_timeout = \"300ms\"\nstream_idle_timeout = \"300ms\"\n"
			if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o600); err != nil {
				t.Fatal(err)
			}
			env := map[string]string{"LLM_BASE_URL": srv.URL + "/v1", "LLM_API_KEY": e2eKey, "LLM_MODEL": "e2e-model", "TERN_HOME": home}
			start := time.Now()
			r := tern(t, t.TempDir(), env, "", "run", "--json", "--max-attempts", "2", "hello")
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("the run took %v", d)
			}
			if r.code != exitFailed {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, exitFailed, r.stdout, r.stderr)
			}
			last := lastLine(t, r.stdout)
			e, _ := last["error"].(map[string]any)
			msg, _ := e["message"].(string)
			if last["type"] != "turn.failed" || e["kind"] != "network" || !strings.Contains(msg, tt.setting) {
				t.Errorf("last line %v", last)
			}
			if n := requests.load(); n != tt.requests {
				t.Errorf("%d attempts reached the gateway, want %d", n, tt.requests)
			}
		})
	}
}

// atomicCount counts requests across the server's goroutines.
type atomicCount struct{ n atomic.Int32 }

func (c *atomicCount) add()        { c.n.Add(1) }
func (c *atomicCount) load() int32 { return c.n.Load() }
