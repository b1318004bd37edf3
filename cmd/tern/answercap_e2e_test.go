package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestE2EAnswerCapBoundsMemoryAndLog streams a 40 MB answer (ten 4 MB
// text events) to `tern run` with max_answer_bytes at 1 MiB: the run fails
// with an error naming the setting, and the session log holds no more than
// the cap of the answer.
func TestE2EAnswerCapBoundsMemoryAndLog(t *testing.T) {
	t.Parallel()
	const limit = 1 << 20
	piece := strings.Repeat("x", 4<<20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		for range 10 {
			if _, err := io.WriteString(w, chunk(`{"content":"`+piece+`"}`, "")); err != nil {
				return // tern hung up
			}
			w.(http.Flusher).Flush()
		}
		_, _ = io.WriteString(w, chunk(`{}`, "stop")+"data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)

	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("max_answer_bytes = 1048576\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"LLM_BASE_URL": srv.URL + "/v1", "LLM_API_KEY": e2eKey, "LLM_MODEL": "e2e-model", "TERN_HOME": home}
	r := tern(t, t.TempDir(), env, "", "run", "--json", "write a lot")
	if ru, ok := r.usage.(*syscall.Rusage); ok {
		// About 50 MiB with the cap (the 4 MB event is read whole), over
		// 500 MiB without it.
		t.Logf("tern's peak RSS: %d MiB", ru.Maxrss>>10)
		if ru.Maxrss>>10 > 200 {
			t.Errorf("tern grew to %d MiB reading a capped answer", ru.Maxrss>>10)
		}
	}
	if files := sessionFiles(t, home); len(files) == 1 {
		if info, err := os.Stat(files[0]); err == nil {
			t.Logf("session log %d bytes", info.Size())
		}
	}
	if r.code != exitFailed {
		t.Fatalf("exit %d, want %d\nstderr: %s", r.code, exitFailed, r.stderr)
	}
	last := lastLine(t, r.stdout)
	e, _ := last["error"].(map[string]any)
	if msg, _ := e["message"].(string); last["type"] != "turn.failed" || !strings.Contains(msg, "max_answer_bytes") {
		t.Errorf("last line %v", last)
	}
	if len(r.stdout) > limit+64<<10 {
		t.Errorf("the JSON output holds %d bytes, more than the cap of the answer", len(r.stdout))
	}
	files := sessionFiles(t, home)
	if len(files) != 1 {
		t.Fatalf("session files %v", files)
	}
	info, err := os.Stat(files[0])
	if err != nil {
		t.Fatal(err)
	}
	// The header (system prompt, tool list) and the turn's other records
	// take some tens of KiB.
	if info.Size() > limit+128<<10 {
		t.Errorf("the session log holds %d bytes; the answer is capped at %d", info.Size(), limit)
	}
}
