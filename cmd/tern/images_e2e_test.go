package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"image"
	"image/png"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestE2ERunImage covers tern run --image: the request carries the picture
// as an image_url part with a data:image/png;base64 URL after the prompt's
// text; the session log names it by hash and its bytes are in the blob
// store once, though two turns sent it; a continued session sends it again
// from there.
func TestE2ERunImage(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var bodies [][]byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
			http.NotFound(w, r)
			return
		}
		if bytes.Contains(body, []byte("Title this conversation")) || bytes.Contains(body, []byte(`"max_tokens":`)) && !bytes.Contains(body, []byte(`"tools"`)) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, chunk(`{"content":"title"}`, "")+chunk(`{}`, "stop")+"data: [DONE]\n\n")
			return
		}
		mu.Lock()
		bodies = append(bodies, body)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, chunk(`{"content":"a red square"}`, "")+chunk(`{}`, "stop")+"data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	home, dir := t.TempDir(), t.TempDir()
	var pic bytes.Buffer
	if err := png.Encode(&pic, image.NewRGBA(image.Rect(0, 0, 8, 6))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "shot.png"), pic.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	wantURL := "data:image/png;base64," + base64.StdEncoding.EncodeToString(pic.Bytes())
	sum := sha256.Sum256(pic.Bytes())
	hash := hex.EncodeToString(sum[:])

	env := map[string]string{"LLM_BASE_URL": srv.URL + "/v1", "LLM_API_KEY": e2eKey, "LLM_MODEL": "vision-model", "TERN_HOME": home}
	if r := tern(t, dir, env, "", "run", "--image", "shot.png", "what is this?"); r.code != 0 {
		t.Fatalf("run: exit %d\nstderr: %s", r.code, r.stderr)
	}
	if r := tern(t, dir, env, "", "run", "--continue", "--image", filepath.Join(dir, "shot.png"), "and now?"); r.code != 0 {
		t.Fatalf("continued run: exit %d\nstderr: %s", r.code, r.stderr)
	}
	if r := tern(t, dir, env, "", "run", "--image", "missing.png", "x"); r.code != exitUsage || !strings.Contains(r.stderr, "missing.png") {
		t.Errorf("a missing image: exit %d, stderr %q", r.code, r.stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.png"), []byte("not a picture"), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := tern(t, dir, env, "", "run", "--image", "notes.png", "x"); r.code != exitUsage || !strings.Contains(r.stderr, "not a PNG") {
		t.Errorf("a file that is no image: exit %d, stderr %q", r.code, r.stderr)
	}

	mu.Lock()
	defer mu.Unlock()
	if len(bodies) != 2 {
		t.Fatalf("the gateway saw %d chat requests, want 2", len(bodies))
	}
	type part struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		ImageURL struct {
			URL string `json:"url"`
		} `json:"image_url"`
	}
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	// The continued request holds both turns: the first prompt's picture
	// comes back from the blob store.
	if err := json.Unmarshal(bodies[1], &req); err != nil {
		t.Fatalf("%v\n%s", err, bodies[1])
	}
	var users [][]part
	for _, m := range req.Messages {
		if m.Role == "user" {
			var parts []part
			if err := json.Unmarshal(m.Content, &parts); err != nil {
				t.Fatalf("a user message is not content parts: %s", m.Content)
			}
			users = append(users, parts)
		}
	}
	if len(users) != 2 {
		t.Fatalf("%d user messages, want 2:\n%s", len(users), bodies[1])
	}
	for i, want := range []string{"what is this?", "and now?"} {
		p := users[i]
		if len(p) != 2 || p[0].Type != "text" || p[0].Text != want || p[1].Type != "image_url" || p[1].ImageURL.URL != wantURL {
			t.Errorf("user message %d = %+v, want the text %q then the image", i, p, want)
		}
	}

	var logs, blobs []string
	_ = filepath.WalkDir(filepath.Join(home, "sessions"), func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil || d.IsDir():
		case strings.HasSuffix(p, ".jsonl"):
			logs = append(logs, p)
		case filepath.Base(filepath.Dir(p)) == "blobs" && filepath.Base(p) == hash:
			blobs = append(blobs, p)
		}
		return nil
	})
	if len(logs) != 1 || len(blobs) != 1 {
		t.Fatalf("logs %v, blobs %v: want one log and the picture stored once", logs, blobs)
	}
	log, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(log), `"hash":"`+hash+`"`) != 2 || bytes.Contains(log, []byte(base64.StdEncoding.EncodeToString(pic.Bytes()))) {
		t.Errorf("the log should name the picture by hash in both prompts, without its bytes:\n%s", log)
	}
}
