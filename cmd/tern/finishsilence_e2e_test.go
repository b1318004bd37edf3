package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestE2EFinishedAnswerThenSilence runs `tern run` against a gateway that
// sends a whole answer with its finish reason and then keeps the
// connection open without usage, [DONE] or the end of the body. When
// stream_idle_timeout ends the wait, the run must succeed with the
// answer, asked for once, not fail after retrying a finished answer.
func TestE2EFinishedAnswerThenSilence(t *testing.T) {
	t.Parallel()
	var requests atomicCount
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
			http.NotFound(w, r)
			return
		}
		requests.add()
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, chunk(`{"role":"assistant","content":"All done."}`, "")+chunk(`{}`, "stop"))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(func() { srv.CloseClientConnections(); srv.Close() })
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("stream_idle_timeout = \"300ms\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"LLM_BASE_URL": srv.URL + "/v1", "LLM_API_KEY": e2eKey, "LLM_MODEL": "e2e-model", "TERN_HOME": home}
	start := time.Now()
	r := tern(t, t.TempDir(), env, "", "run", "hello")
	if r.code != exitOK || r.stdout != "All done.\n" {
		t.Fatalf("exit %d after %v, stdout %q, stderr:\n%s", r.code, time.Since(start), r.stdout, r.stderr)
	}
	if n := requests.load(); n != 1 {
		t.Errorf("the gateway was asked %d times for one finished answer", n)
	}
}
