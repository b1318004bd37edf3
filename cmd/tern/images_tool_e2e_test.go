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

// TestE2EReadFileImage covers read_file on a picture with the real binary:
// for a model that takes images the request after the call carries the
// picture in a user message right after the tool result (a tool message
// holds text only); the log names it by hash and a continued session sends
// it again from the blob store. A model configured with vision = false
// gets the words only.
func TestE2EReadFileImage(t *testing.T) {
	t.Parallel()
	var pic bytes.Buffer
	if err := png.Encode(&pic, image.NewRGBA(image.Rect(0, 0, 5, 3))); err != nil {
		t.Fatal(err)
	}
	wantURL := "data:image/png;base64," + base64.StdEncoding.EncodeToString(pic.Bytes())
	sum := sha256.Sum256(pic.Bytes())
	hash := hex.EncodeToString(sum[:])
	call := `{"tool_calls":[{"index":0,"id":"call_pic","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"shot.png\"}"}}]}`

	for _, tc := range []struct {
		model  string
		vision bool
	}{{"vision-model", true}, {"text-model", false}} {
		t.Run(tc.model, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var bodies [][]byte
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
					http.NotFound(w, r)
					return
				}
				w.Header().Set("Content-Type", "text/event-stream")
				if bytes.Contains(body, []byte("Title this conversation")) {
					_, _ = io.WriteString(w, chunk(`{"content":"title"}`, "")+chunk(`{}`, "stop")+"data: [DONE]\n\n")
					return
				}
				mu.Lock()
				bodies = append(bodies, body)
				mu.Unlock()
				if bytes.Contains(body, []byte(`"role":"tool"`)) {
					_, _ = io.WriteString(w, chunk(`{"content":"a black rectangle"}`, "")+chunk(`{}`, "stop")+"data: [DONE]\n\n")
					return
				}
				_, _ = io.WriteString(w, chunk(call, "")+chunk(`{}`, "tool_calls")+"data: [DONE]\n\n")
			}))
			t.Cleanup(srv.Close)
			home, dir := t.TempDir(), t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "shot.png"), pic.Bytes(), 0o600); err != nil {
				t.Fatal(err)
			}
			if !tc.vision {
				cfg := "[models.\"text-model\"]\nvision = false\n"
				if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			env := map[string]string{"LLM_BASE_URL": srv.URL + "/v1", "LLM_API_KEY": e2eKey, "LLM_MODEL": tc.model, "TERN_HOME": home}
			if r := tern(t, dir, env, "", "run", "what is in shot.png?"); r.code != 0 {
				t.Fatalf("run: exit %d\nstderr: %s", r.code, r.stderr)
			}
			if r := tern(t, dir, env, "", "run", "--continue", "and now?"); r.code != 0 {
				t.Fatalf("continued run: exit %d\nstderr: %s", r.code, r.stderr)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(bodies) != 3 {
				t.Fatalf("the gateway saw %d chat requests, want 3", len(bodies))
			}
			// The request after the call, and the continued one, both send
			// the result and (for a vision model) the picture after it.
			for _, body := range bodies[1:] {
				roles, tool, pictures := imageMessages(t, body)
				want := "system user assistant tool"
				if tc.vision {
					want += " user"
				}
				if !strings.HasPrefix(roles, want) {
					t.Errorf("roles %q, want them to start %q", roles, want)
				}
				if tc.vision != strings.Contains(tool, "The picture is attached after the tool results.") ||
					!tc.vision != strings.Contains(tool, "takes no images") {
					t.Errorf("tool result %q", tool)
				}
				if tc.vision && (len(pictures) != 1 || pictures[0] != wantURL) {
					t.Errorf("pictures %v, want the PNG", len(pictures))
				}
				if !tc.vision && len(pictures) != 0 {
					t.Errorf("a text model was sent %d pictures", len(pictures))
				}
			}
			var logs []string
			_ = filepath.WalkDir(filepath.Join(home, "sessions"), func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
					logs = append(logs, p)
				}
				return nil
			})
			if len(logs) != 1 {
				t.Fatalf("logs %v", logs)
			}
			log, err := os.ReadFile(logs[0])
			if err != nil {
				t.Fatal(err)
			}
			named := strings.Contains(string(log), `"images":[{"hash":"`+hash+`"`)
			if named != tc.vision || bytes.Contains(log, []byte(base64.StdEncoding.EncodeToString(pic.Bytes()))) {
				t.Errorf("the log should name the picture by hash (%v), never hold its bytes:\n%s", tc.vision, log)
			}
		})
	}
}

// imageMessages reads a chat request: its roles in order, the text of its
// first tool message, and the data URLs of the pictures it carries.
func imageMessages(t *testing.T, body []byte) (roles, tool string, pictures []string) {
	t.Helper()
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("%v\n%s", err, body)
	}
	var rs []string
	for _, m := range req.Messages {
		rs = append(rs, m.Role)
		var text string
		if len(m.Content) == 0 {
			continue // an answer that only calls
		}
		if json.Unmarshal(m.Content, &text) == nil {
			if m.Role == "tool" && tool == "" {
				tool = text
			}
			continue
		}
		var parts []struct {
			ImageURL *struct {
				URL string `json:"url"`
			} `json:"image_url"`
		}
		if err := json.Unmarshal(m.Content, &parts); err != nil {
			t.Fatalf("content %s", m.Content)
		}
		for _, p := range parts {
			if p.ImageURL != nil {
				pictures = append(pictures, p.ImageURL.URL)
			}
		}
	}
	return strings.Join(rs, " "), tool, pictures
}
