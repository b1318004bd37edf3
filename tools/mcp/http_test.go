package mcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/mcp"
)

// TestStreamableHTTPWithHeaders: a url server is reached over Streamable
// HTTP with the configured headers, their $VARS expanded from tern's
// environment (tern's own key never).
func TestStreamableHTTPWithHeaders(t *testing.T) {
	t.Parallel()
	srv := demoServer(nil)
	handler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	var mu sync.Mutex
	var auth, leak []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = append(auth, r.Header.Get("Authorization"))
		leak = append(leak, r.Header.Get("X-Leak"))
		mu.Unlock()
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close) // after the manager's cleanup (LIFO): its SSE stream holds a connection open
	env := map[string]string{"DOCS_TOKEN": "tok-123", "LLM_API_KEY": "sk-tern-secret"}
	m := started(t, mcp.Options{Getenv: func(n string) string { return env[n] }, Servers: []mcp.ServerConfig{{
		Name: "docs", URL: ts.URL, Headers: map[string]string{"Authorization": "Bearer $DOCS_TOKEN", "X-Leak": "$LLM_API_KEY"},
	}}})
	res := find(t, m, "mcp__docs__echo").Run(context.Background(), json.RawMessage(`{"text":"over http"}`), nil)
	if res.Status != tools.StatusOK || !strings.Contains(res.Output, "echo: over http") {
		t.Fatalf("%+v", res)
	}
	mu.Lock()
	defer mu.Unlock()
	for i := range auth {
		if auth[i] != "Bearer tok-123" || leak[i] != "" {
			t.Errorf("request %d: Authorization %q, X-Leak %q", i, auth[i], leak[i])
		}
	}
	if st := m.Servers()[0]; st.Transport != "http" || st.State != mcp.StateReady {
		t.Errorf("%+v", st)
	}
}
