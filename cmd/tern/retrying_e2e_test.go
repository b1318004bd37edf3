package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestE2ERunJSONReportsRetries runs `tern run --json` against a gateway
// that first refuses with a status and a Retry-After, then answers: each
// wait is a request.retrying line (attempt, limit, delay, error) before
// the answer's items, and the turn completes.
func TestE2ERunJSONReportsRetries(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		refusals []int // statuses answered before the stream
		kind     string
		status   string
	}{
		{"429 with Retry-After then a stream", []int{http.StatusTooManyRequests}, "rate_limited", "429"},
		{"a stream at once", nil, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var n atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
					http.NotFound(w, r) // the model list: tern assumes a window
					return
				}
				if i := int(n.Add(1)) - 1; i < len(tc.refusals) {
					w.Header().Set("Retry-After", "1")
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(tc.refusals[i])
					_, _ = io.WriteString(w, `{"error":{"message":"slow down"}}`)
					return
				}
				w.Header().Set("Content-Type", "text/event-stream")
				_, _ = io.WriteString(w, chunk(`{"content":"hello"}`, "")+chunk(`{}`, "stop")+"data: [DONE]\n\n")
			}))
			t.Cleanup(srv.Close)
			env := map[string]string{"LLM_BASE_URL": srv.URL + "/v1", "LLM_API_KEY": e2eKey, "LLM_MODEL": "e2e-model"}
			r := tern(t, t.TempDir(), env, "", "run", "--json", "say hello")
			if r.code != 0 {
				t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
			}
			var retries []map[string]any
			var types []string
			for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
				var m map[string]any
				if err := json.Unmarshal([]byte(l), &m); err != nil {
					t.Fatalf("not JSON: %q", l)
				}
				types = append(types, m["type"].(string))
				if m["type"] == "request.retrying" {
					retries = append(retries, m)
				}
			}
			if len(retries) != len(tc.refusals) {
				t.Fatalf("%d request.retrying lines, want %d:\n%s", len(retries), len(tc.refusals), r.stdout)
			}
			if got := strings.Join(types, " "); !strings.HasSuffix(got, "item.completed turn.completed") || (len(retries) > 0 && !strings.Contains(got, "turn.started request.retrying item.started")) {
				t.Errorf("order: %s", got)
			}
			for i, m := range retries {
				e, _ := m["error"].(map[string]any)
				msg, _ := e["message"].(string)
				delay, _ := m["delay_s"].(float64)
				if m["version"] != 1.0 || m["turn"] != 1.0 || m["attempt"] != float64(i+2) || m["max_attempts"] != 4.0 {
					t.Errorf("retry %d: %v", i, m)
				}
				if delay < 1 || delay > 2 {
					t.Errorf("retry %d: delay_s %v, want the Retry-After's 1 s or a little more", i, delay)
				}
				if e["kind"] != tc.kind || !strings.Contains(msg, tc.status) || !strings.Contains(msg, "slow down") {
					t.Errorf("retry %d: error %v, want kind %s naming %s", i, e, tc.kind, tc.status)
				}
			}
		})
	}
}
