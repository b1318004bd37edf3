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
	"time"
)

// These tests run the real binary full screen inside tmux against an
// httptest gateway, and look at the screen as the user would.

// chatMessage is the part of a request's message the scripts look at.
type chatMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
}

// text is the message's content when it is a plain string.
func (m chatMessage) text() string {
	var s string
	if json.Unmarshal(m.Content, &s) != nil {
		return string(m.Content)
	}
	return s
}

// chatRequest is the part of a completion request the scripts look at.
type chatRequest struct {
	Messages []chatMessage `json:"messages"`
}

// toolResult returns the content of the tool message answering call id.
func (r chatRequest) toolResult(id string) (string, bool) {
	for _, m := range r.Messages {
		if m.Role == "tool" && m.ToolCallID == id {
			return m.text(), true
		}
	}
	return "", false
}

// lastUser is the text of the last user message.
func (r chatRequest) lastUser() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].text()
		}
	}
	return ""
}

// sse writes one streamed completion.
type sse struct {
	w http.ResponseWriter
	f http.Flusher
}

// event writes one SSE data line and flushes it, so it leaves at once.
func (s *sse) event(data string) {
	_, _ = io.WriteString(s.w, data)
	s.f.Flush()
}

// delta sends one chunk whose delta is d (marshalled to JSON).
func (s *sse) delta(d map[string]any) {
	b, err := json.Marshal(d)
	if err != nil {
		panic(err) // only maps of strings and slices: cannot fail
	}
	s.event(chunk(string(b), ""))
}

// text streams content in pieces of size bytes, pause apart.
func (s *sse) text(content string, size int, pause time.Duration) {
	for len(content) > 0 {
		n := min(size, len(content))
		s.delta(map[string]any{"content": content[:n]})
		content = content[n:]
		if pause > 0 {
			time.Sleep(pause)
		}
	}
}

// toolCall streams one tool call, its arguments in two pieces.
func (s *sse) toolCall(id, name string, args map[string]string) {
	b, err := json.Marshal(args)
	if err != nil {
		panic(err)
	}
	half := len(b) / 2
	s.delta(map[string]any{"tool_calls": []map[string]any{{"index": 0, "id": id, "type": "function", "function": map[string]string{"name": name, "arguments": ""}}}})
	s.delta(map[string]any{"tool_calls": []map[string]any{{"index": 0, "function": map[string]string{"arguments": string(b[:half])}}}})
	s.delta(map[string]any{"tool_calls": []map[string]any{{"index": 0, "function": map[string]string{"arguments": string(b[half:])}}}})
}

// finish ends the completion with reason, usage and [DONE].
func (s *sse) finish(reason string) {
	s.event(chunk(`{}`, reason))
	s.event(usageChunk(500, 40, 0))
	s.event("data: [DONE]\n\n")
}

// script answers one completion request.
type script func(s *sse, req chatRequest, r *http.Request)

// sseGateway is an OpenAI-compatible gateway whose answers a script decides
// from the conversation in each request.
type sseGateway struct {
	srv    *httptest.Server
	mu     sync.Mutex
	reqs   []chatRequest
	titles int // title requests, answered with titleFor
	script script
}

// titlePrefix starts every title the test gateway gives.
const titlePrefix = "Named: "

// titleFor is the test gateway's title: titlePrefix and the session's
// first prompt, so screens that show prompts show them in titles too.
func (r chatRequest) titleFor() string {
	prompt := r.lastUser()
	prompt = strings.TrimPrefix(prompt, "Request:\n")
	prompt, _, _ = strings.Cut(prompt, "\n")
	return titlePrefix + prompt
}

// isTitle reports the request tern makes to name a session.
func (r chatRequest) isTitle() bool {
	return len(r.Messages) > 0 && r.Messages[0].Role == "system" && strings.Contains(r.Messages[0].text(), "short title")
}

const (
	tmuxKey   = "test-key"
	tmuxModel = "test-model"
)

func newSSEGateway(t testing.TB, sc script) *sseGateway {
	t.Helper()
	g := &sseGateway{script: sc}
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		var req chatRequest
		body, err := io.ReadAll(r.Body)
		if err == nil {
			err = json.Unmarshal(body, &req)
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if r.Header.Get("Authorization") != "Bearer "+tmuxKey {
			http.Error(w, `{"error":{"message":"bad key","type":"invalid_request_error","code":"invalid_api_key"}}`, http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		if req.isTitle() {
			// The request that names a session after its first answer is
			// answered here, so the scripts see only the conversation's.
			g.mu.Lock()
			g.titles++
			g.mu.Unlock()
			s := &sse{w: w, f: w.(http.Flusher)}
			s.text(req.titleFor(), 64, 0)
			s.finish("stop")
			return
		}
		g.mu.Lock()
		g.reqs = append(g.reqs, req)
		g.mu.Unlock()
		g.script(&sse{w: w, f: w.(http.Flusher)}, req, r)
	})
	g.srv = httptest.NewServer(mux)
	t.Cleanup(g.srv.Close)
	return g
}

// requests returns the completion requests seen so far.
func (g *sseGateway) requests() []chatRequest {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]chatRequest(nil), g.reqs...)
}

// tmuxEnv is the whole environment of tern in the pane: a private home and
// TERN_HOME, the gateway, and a UTF-8 locale so tmux keeps the box drawing.
func tmuxEnv(t testing.TB, gatewayURL string) []string {
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + t.TempDir(),
		"TERN_HOME=" + t.TempDir(),
		"LANG=C.UTF-8",
		"SHELL=/bin/sh",
		"LLM_BASE_URL=" + gatewayURL + "/v1",
		"LLM_API_KEY=" + tmuxKey,
		"LLM_MODEL=" + tmuxModel,
	}
}

// shellQuote quotes s for sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// startTern runs tern full screen in a new tmux server against g, in a
// fresh workspace holding files, and waits for its input to be ready. The
// pane runs `tern; echo EXITED $?` so the exit status shows after it quits,
// and then sleeps: tmux hides the cursor of a dead pane, and the terminal
// state tern leaves behind is what the quit tests look at.
func startTern(t *testing.T, g *sseGateway, files map[string]string) (*tmuxServer, string) {
	t.Helper()
	needTmux(t)
	ws := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(ws, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := startTmux(t, tmuxEnv(t, g.srv.URL), ws, shellQuote(ternBin)+"; echo EXITED $?; exec sleep 600")
	s.waitText(tmuxTimeout, placeholder, tmuxModel)
	return s, ws
}

// Screen texts the tests wait for.
const (
	placeholder = "Ask tern anything"
	dialogTitle = "Allow edit_file"
)

// tmuxTimeout bounds each wait: generous, for a loaded 2-core machine.
const tmuxTimeout = 15 * time.Second

// editScript plans in Markdown, then holds the stream open until release is
// closed (so the test sees the plan while the answer is still streaming),
// reads notes.txt, proposes an edit to it, and finally says how it went
// (from the edit's tool result).
func editScript(release <-chan struct{}) script {
	return func(s *sse, req chatRequest, r *http.Request) {
		editTurn(s, req, r, release)
	}
}

func editTurn(s *sse, req chatRequest, r *http.Request, release <-chan struct{}) {
	if res, ok := req.toolResult("call_edit"); ok {
		if strings.Contains(res, "denied") {
			s.text("Understood: notes.txt stays as it is.", 8, 0)
		} else {
			s.text("Fixed the typo in notes.txt.", 8, 0)
		}
		s.finish("stop")
		return
	}
	if res, ok := req.toolResult("call_read"); ok {
		if !strings.Contains(res, "Teh quick brown fox") {
			s.text("read_file did not return the file: "+res, 64, 0)
			s.finish("stop")
			return
		}
		s.text("The first word is misspelt.", 8, 0)
		s.toolCall("call_edit", "edit_file", map[string]string{"path": "notes.txt", "old_string": "Teh quick", "new_string": "The quick"})
		s.finish("tool_calls")
		return
	}
	s.text("## Plan\n\n- read notes.txt\n- fix the typo\n", 4, 10*time.Millisecond)
	select {
	case <-release:
	case <-r.Context().Done():
		return
	case <-time.After(tmuxTimeout):
	}
	s.toolCall("call_read", "read_file", map[string]string{"path": "notes.txt"})
	s.finish("tool_calls")
}

const (
	notesBefore = "Teh quick brown fox.\n"
	notesAfter  = "The quick brown fox.\n"
)

// approveEdit sends the prompt, checks the Markdown on screen while it
// streams, lets the script go on (release) and waits for the approval
// dialog, then answers it with key.
func approveEdit(t *testing.T, s *tmuxServer, release chan<- struct{}, key string) {
	t.Helper()
	s.typeText("fix the typo in notes.txt")
	s.keys("Enter")
	scr := s.waitText(tmuxTimeout, "• fix the typo", "answering")
	// Rendered, not raw: the list items have bullets.
	for _, want := range []string{"Plan", "• read notes.txt", "• fix the typo"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the streaming answer lacks %q:\n%s", want, scr)
		}
	}
	if strings.Contains(scr, "- fix the typo") {
		t.Errorf("the list item is shown as raw Markdown:\n%s", scr)
	}
	close(release)
	scr = s.waitText(tmuxTimeout, dialogTitle)
	for _, want := range []string{"read_file notes.txt", "- Teh quick brown fox.", "+ The quick brown fox."} {
		if !strings.Contains(scr, want) {
			t.Errorf("the screen with the dialog lacks %q:\n%s", want, scr)
		}
	}
	// The dialog ignores answer keys for its first 400 ms (a keystroke meant
	// for the input must not answer it); it appeared before we saw it.
	time.Sleep(500 * time.Millisecond)
	s.keys(key)
}

func TestTmux(t *testing.T) {
	t.Parallel()
	needTmux(t)

	t.Run("approve edit", func(t *testing.T) {
		t.Parallel()
		release := make(chan struct{})
		g := newSSEGateway(t, editScript(release))
		s, ws := startTern(t, g, map[string]string{"notes.txt": notesBefore})
		approveEdit(t, s, release, "y")
		scr := s.waitText(tmuxTimeout, "Fixed the typo in notes.txt.")
		if got := readFile(t, filepath.Join(ws, "notes.txt")); got != notesAfter {
			t.Errorf("notes.txt after y = %q, want %q", got, notesAfter)
		}
		if strings.Contains(scr, dialogTitle) || !strings.Contains(scr, "✎ edit_file notes.txt  ✓") {
			t.Errorf("after y the dialog is still up or the card is not done:\n%s", scr)
		}
		if n := len(g.requests()); n != 3 {
			t.Errorf("the gateway saw %d requests, want 3 (plan+read, edit, final)", n)
		}
	})

	t.Run("deny edit", func(t *testing.T) {
		t.Parallel()
		release := make(chan struct{})
		g := newSSEGateway(t, editScript(release))
		s, ws := startTern(t, g, map[string]string{"notes.txt": notesBefore})
		approveEdit(t, s, release, "n")
		scr := s.waitText(tmuxTimeout, "Understood: notes.txt stays as it is.")
		if got := readFile(t, filepath.Join(ws, "notes.txt")); got != notesBefore {
			t.Errorf("notes.txt after n = %q, want it unchanged", got)
		}
		if strings.Contains(scr, dialogTitle) || !strings.Contains(scr, "✎ edit_file notes.txt  ⊘ denied") {
			t.Errorf("after n the dialog is still up or the card does not say denied:\n%s", scr)
		}
	})

	t.Run("esc interrupts", func(t *testing.T) {
		t.Parallel()
		gone := make(chan time.Time, 1)
		g := newSSEGateway(t, func(s *sse, _ chatRequest, r *http.Request) {
			tick := time.NewTicker(50 * time.Millisecond)
			defer tick.Stop()
			end := time.After(30 * time.Second)
			for i := 0; ; i++ {
				select {
				case <-r.Context().Done():
					select {
					case gone <- time.Now():
					default: // only the first stream's end is measured
					}
					return
				case <-end:
					s.finish("stop")
					return
				case <-tick.C:
					s.delta(map[string]any{"content": fmt.Sprintf("word%d ", i)})
				}
			}
		})
		s, _ := startTern(t, g, nil)
		s.typeText("think slowly")
		s.keys("Enter")
		s.waitText(tmuxTimeout, "word5 ")
		pressed := time.Now()
		s.keys("Escape")
		var took time.Duration
		select {
		case at := <-gone:
			took = at.Sub(pressed)
		case <-time.After(tmuxTimeout):
			t.Fatalf("the gateway did not see the client go within %v of esc:\n%s", tmuxTimeout, s.screen())
		}
		t.Logf("esc to the gateway seeing the disconnect: %v", took)
		if took > time.Second {
			t.Errorf("esc took %v to close the stream, want ≤ 1s", took)
		}
		scr := s.waitText(tmuxTimeout, "interrupted")
		if !strings.Contains(scr, "word5") || turnRunning(scr) {
			t.Errorf("after esc the partial answer is gone or the turn still runs:\n%s", scr)
		}
	})

	t.Run("help", func(t *testing.T) {
		t.Parallel()
		s, _ := startTern(t, newSSEGateway(t, editScript(nil)), nil)
		s.typeText("/help")
		s.keys("Enter")
		// Waits for the last of them too: a loaded machine can be caught
		// drawing the frame.
		scr := s.waitText(tmuxTimeout, "Commands", "Keys", "pgup/pgdn")
		for _, want := range []string{"/clear", "/model [id]", "/approval [mode]", "/exit", "esc", "ctrl+d", "ctrl+o", "pgup/pgdn"} {
			if !strings.Contains(scr, want) {
				t.Errorf("/help lacks %q:\n%s", want, scr)
			}
		}
	})

	for _, quit := range []struct {
		name string
		keys func(s *tmuxServer)
	}{
		{"quit with ctrl+d", func(s *tmuxServer) { s.keys("C-d") }},
		{"quit with /exit", func(s *tmuxServer) { s.typeText("/exit"); s.keys("Enter") }},
	} {
		t.Run(quit.name, func(t *testing.T) {
			t.Parallel()
			s, _ := startTern(t, newSSEGateway(t, editScript(nil)), nil)
			quit.keys(s)
			scr := s.waitText(tmuxTimeout, "EXITED 0")
			if strings.Contains(scr, placeholder) {
				t.Errorf("the interface is still on the screen after quitting:\n%s", scr)
			}
			// The pane's terminal state, as tern left it: main screen, cursor
			// shown, no mouse reporting, keypad back to normal.
			want := "alt=0 cursor=1 mouse=0 keypad=0"
			if got := s.format("alt=#{alternate_on} cursor=#{cursor_flag} mouse=#{mouse_any_flag} keypad=#{keypad_flag}"); got != want {
				t.Errorf("terminal after quitting: %s, want %s", got, want)
			}
		})
	}
}
