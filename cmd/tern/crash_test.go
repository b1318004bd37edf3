package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ternhq/tern/session"
)

// The crash tests run a scripted three-request session (text, write_file;
// text, run_shell; text) and kill -9 the binary at a point the gateway
// chooses: when it has written its Nth SSE event, optionally some time
// later. After each kill the log must load and resume having lost at most the
// answer in flight.

// crashTick is the pause between two streamed events: long enough that a
// kill lands between them, short enough that 20+ runs fit in seconds.
const crashTick = 15 * time.Millisecond

// crashStep is one request of the script: text streamed word by word, then
// an optional tool call.
type crashStep struct {
	words []string
	call  *session.ToolCall
}

func (s crashStep) text() string { return strings.Join(s.words, "") }

var crashScript = []crashStep{
	{
		words: []string{"I ", "will ", "write ", "the ", "file ", "now."},
		call:  &session.ToolCall{ID: "call_w", Name: "write_file", Arguments: `{"path":"hello.txt","content":"hello from tern\n"}`},
	},
	{
		words: []string{"Written. ", "Now ", "a ", "shell ", "command ", "to ", "finish."},
		call:  &session.ToolCall{ID: "call_s", Name: "run_shell", Arguments: `{"command":"echo hi > out.txt"}`},
	},
	// Long enough that some of it is flushed to the log before a kill.
	{words: strings.Fields(strings.Repeat("All done: hello.txt and out.txt exist. ", 5))},
}

// crashEvents lists the SSE events of one step in the order they are sent.
func crashEvents(s crashStep) []string {
	var ev []string
	for i, w := range s.words {
		role := ""
		if i == 0 {
			role = `"role":"assistant",`
		}
		ev = append(ev, chunk(`{`+role+`"content":`+jsonString(w)+`}`, ""))
	}
	finish := "stop"
	if c := s.call; c != nil {
		head := `{"tool_calls":[{"index":0,"id":"` + c.ID + `","type":"function","function":{"name":"` + c.Name + `","arguments":""}}]}`
		ev = append(ev, chunk(head, ""))
		half := len(c.Arguments) / 2
		for _, part := range []string{c.Arguments[:half], c.Arguments[half:]} {
			ev = append(ev, chunk(`{"tool_calls":[{"index":0,"function":{"arguments":`+jsonString(part)+`}}]}`, ""))
		}
		finish = "tool_calls"
	}
	return append(ev, chunk(`{}`, finish), usageChunk(100, 10, 0), "data: [DONE]\n\n")
}

// jsonString quotes s as a JSON string (marshalling a string cannot fail).
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// crashPoint kills the process once the gateway has written event `after`
// of step `step` (-1: as soon as the step's request arrives), `delay` later.
type crashPoint struct {
	name  string
	step  int
	after int
	delay time.Duration
}

// crashPoints spreads kills over the whole run: every few events of each
// stream, right after each tool call was sent, while the tools run, as each
// request arrives, and after the last answer.
func crashPoints() []crashPoint {
	var ps []crashPoint
	for step, s := range crashScript {
		n := len(crashEvents(s))
		ps = append(ps, crashPoint{fmt.Sprintf("req%d-arrived", step+1), step, -1, 0})
		for _, after := range []int{0, 2, len(s.words) - 1} {
			ps = append(ps, crashPoint{fmt.Sprintf("req%d-text%d", step+1, after+1), step, after, 0})
		}
		// Later, when streamed text has waited longer than the flush
		// interval (in the long third answer) or the run has moved on.
		ps = append(ps, crashPoint{fmt.Sprintf("req%d-text%d+200ms", step+1, len(s.words)/3), step, len(s.words)/3 - 1, 200 * time.Millisecond})
		if s.call != nil {
			ps = append(ps, crashPoint{fmt.Sprintf("req%d-mid-call", step+1), step, len(s.words) + 1, 0})
		}
		for _, d := range []time.Duration{0, 2 * time.Millisecond, 10 * time.Millisecond} {
			ps = append(ps, crashPoint{fmt.Sprintf("req%d-done+%s", step+1, d), step, n - 1, d})
		}
	}
	return ps
}

// crashGateway serves the script to one process and kills it at its point.
type crashGateway struct {
	srv   *httptest.Server
	point crashPoint

	mu      sync.Mutex
	proc    *os.Process
	killed  bool
	sent    [][]string // per step, the text chunks fully written
	reached int        // requests received
	killAt  time.Time
	chunkAt [][]time.Time // per step, when each text chunk was written
}

func newCrashGateway(t *testing.T, p crashPoint) *crashGateway {
	t.Helper()
	g := &crashGateway{point: p, sent: make([][]string, len(crashScript)), chunkAt: make([][]time.Time, len(crashScript))}
	g.srv = httptest.NewServer(http.HandlerFunc(g.chat))
	t.Cleanup(g.srv.Close)
	return g
}

func (g *crashGateway) kill() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.killed || g.proc == nil {
		return
	}
	g.killed = true
	g.killAt = time.Now()
	_ = g.proc.Kill()
}

// trigger kills at the point: at once (then the handler sends nothing more)
// or after the delay, while the run goes on.
func (g *crashGateway) trigger(step, event int) bool {
	if step != g.point.step || event != g.point.after {
		return false
	}
	if g.point.delay == 0 {
		g.kill()
		return true
	}
	time.AfterFunc(g.point.delay, g.kill)
	return false
}

func (g *crashGateway) chat(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req struct {
		Messages []struct {
			Role string `json:"role"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	step := 0
	for _, m := range req.Messages {
		if m.Role == "tool" {
			step++
		}
	}
	if step >= len(crashScript) {
		http.Error(w, "the script has no more steps", http.StatusBadRequest)
		return
	}
	g.mu.Lock()
	g.reached++
	g.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	if g.trigger(step, -1) {
		return
	}
	s := crashScript[step]
	for i, ev := range crashEvents(s) {
		select {
		case <-r.Context().Done():
			return
		case <-time.After(crashTick):
		}
		if _, err := io.WriteString(w, ev); err != nil {
			return
		}
		w.(http.Flusher).Flush()
		g.mu.Lock()
		if i < len(s.words) {
			g.sent[step] = append(g.sent[step], s.words[i])
			g.chunkAt[step] = append(g.chunkAt[step], time.Now())
		}
		g.mu.Unlock()
		if g.trigger(step, i) {
			<-r.Context().Done()
			return
		}
	}
}

// okGateway answers every request with "ok" and keeps the request bodies.
type okGateway struct {
	srv    *httptest.Server
	mu     sync.Mutex
	bodies [][]byte
}

func newOKGateway(t *testing.T) *okGateway {
	t.Helper()
	g := &okGateway{}
	g.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
			// tern asks the model list for the context window in the
			// background; this gateway has none.
			http.NotFound(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		g.mu.Lock()
		g.bodies = append(g.bodies, body)
		g.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		for _, ev := range []string{chunk(`{"role":"assistant","content":"ok"}`, ""), chunk(`{}`, "stop"), usageChunk(10, 1, 0), "data: [DONE]\n\n"} {
			_, _ = io.WriteString(w, ev)
		}
	}))
	t.Cleanup(g.srv.Close)
	return g
}

func TestCrashPoints(t *testing.T) {
	t.Parallel()
	points := crashPoints()
	if len(points) < 20 {
		t.Fatalf("only %d crash points", len(points))
	}
	for _, p := range points {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			crashAt(t, p)
		})
	}
}

func crashAt(t *testing.T, p crashPoint) {
	g := newCrashGateway(t, p)
	ws, home := t.TempDir(), t.TempDir()
	env := withHome(map[string]string{"LLM_BASE_URL": g.srv.URL + "/v1", "LLM_API_KEY": e2eKey, "LLM_MODEL": "e2e-model"}, home)
	cmd := exec.Command(ternBin, "run", "--approval", "full-auto", "write hello.txt, then run a command")
	cmd.Dir = ws
	cmd.Env = testEnv(t, env)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	g.mu.Lock()
	if err := cmd.Start(); err != nil {
		g.mu.Unlock()
		t.Fatal(err)
	}
	g.proc = cmd.Process
	g.mu.Unlock()
	waitErr := make(chan error, 1)
	go func() { waitErr <- cmd.Wait() }()
	finished := false
	select {
	case err := <-waitErr:
		g.mu.Lock()
		killed := g.killed
		g.mu.Unlock()
		if !killed && err != nil {
			t.Fatalf("tern exited before the kill: %v\nstderr: %s", err, stderr.String())
		}
		finished = err == nil
	case <-time.After(15 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("tern still ran after 15 s (%v); stderr: %s", <-waitErr, stderr.String())
	}
	// Later requests must not reach a gateway that was told to kill.
	g.mu.Lock()
	g.killed = true
	sent, reached, chunkAt, killAt := g.sent, g.reached, g.chunkAt, g.killAt
	g.mu.Unlock()

	files := sessionFiles(t, env["TERN_HOME"])
	if len(files) != 1 {
		if reached == 0 && len(files) == 0 {
			t.Logf("killed before the first request; no session file yet")
			return
		}
		t.Fatalf("session files = %q, want one", files)
	}
	s, err := session.Load(files[0])
	if err != nil {
		t.Fatalf("load after kill -9: %v", err)
	}
	st, err := session.Restore(s)
	if err != nil {
		t.Fatalf("restore after kill -9: %v", err)
	}
	lost := checkCrashLog(t, ws, s, crashSent{sent, chunkAt, killAt}, finished, reached)
	how := "killed"
	if finished {
		how = "finished before the kill"
	}
	t.Logf("point %s: %s; %d requests reached; lost %s; load warnings %q; restore warnings %q", p.name, how, reached, lost, s.Warnings, st.Warnings)

	ok := newOKGateway(t)
	env["LLM_BASE_URL"] = ok.srv.URL + "/v1"
	r := tern(t, ws, env, "", "run", "--approval", "full-auto", "--session", s.Header.ID, "carry on")
	if r.code != exitOK {
		t.Fatalf("resume: exit %d\nstderr: %s", r.code, r.stderr)
	}
	ok.mu.Lock()
	bodies := ok.bodies
	ok.mu.Unlock()
	if len(bodies) != 1 {
		t.Fatalf("resume sent %d requests, want 1", len(bodies))
	}
	checkHistory(t, bodies[0])
}

// crashSent is what the gateway streamed before the kill.
type crashSent struct {
	words   [][]string
	chunkAt [][]time.Time
	killAt  time.Time
}

// lostSince says how much streamed text of step beyond the first kept bytes
// the log lacks, and how long before the kill its first chunk was sent.
func (c crashSent) lostSince(step, kept int) (int, time.Duration) {
	n := 0
	for i, w := range c.words[step] {
		if n+len(w) > kept {
			return len(strings.Join(c.words[step], "")) - kept, c.killAt.Sub(c.chunkAt[step][i])
		}
		n += len(w)
	}
	return 0, 0
}

// maxLost bounds how old lost streamed text may be: the 250 ms flush
// interval of docs/sessions.md, plus slack for a loaded machine.
const maxLost = session.DefaultFlushInterval + 250*time.Millisecond

// checkCrashLog checks what the log kept against what the gateway sent and
// says what was lost.
func checkCrashLog(t *testing.T, ws string, s *session.Session, c crashSent, finished bool, reached int) string {
	t.Helper()
	sent := c.words
	var answers []session.AssistantMessage
	results := map[string]session.ToolResult{}
	store := session.NewStore(s.Path)
	for _, rec := range s.Records {
		switch b := rec.Body.(type) {
		case session.AssistantMessage:
			answers = append(answers, b)
		case session.ToolResult:
			if _, dup := results[b.CallID]; dup {
				t.Errorf("two results for %s", b.CallID)
			}
			results[b.CallID] = b
		case session.Checkpoint:
			for _, h := range []string{b.Hash, b.After} {
				if h == "" || h == session.Absent {
					continue
				}
				if _, err := store.Load(h); err != nil {
					t.Errorf("checkpoint of %s: blob %s: %v", b.Path, h, err)
				}
			}
		}
	}
	if len(answers) > len(crashScript) {
		t.Fatalf("%d answers in the log, the gateway sent at most %d", len(answers), len(crashScript))
	}
	lost := "nothing"
	for i, step := range crashScript {
		// The turn progressed past answer i when the next request came, or
		// when tern ended by itself before the kill.
		progressed := i+1 < reached || finished
		if i >= len(answers) {
			if progressed {
				t.Errorf("answer %d was finished and acted on, but is not in the log", i+1)
			}
			if n, age := c.lostSince(i, 0); n > 0 {
				lost = fmt.Sprintf("answer %d: all %d streamed bytes, the first sent %s before the kill", i+1, n, age.Round(time.Millisecond))
				if age > maxLost {
					t.Errorf("lost %s", lost)
				}
			}
			continue
		}
		a := answers[i]
		streamed := strings.Join(sent[i], "")
		if a.Interrupted {
			if progressed {
				t.Errorf("answer %d was finished and acted on, but the log has it interrupted: %+v", i+1, a)
			}
			if !strings.HasPrefix(streamed, a.Text) {
				t.Errorf("partial answer %d = %q, not a prefix of what was streamed %q", i+1, a.Text, streamed)
			}
			n, age := c.lostSince(i, len(a.Text))
			lost = fmt.Sprintf("answer %d: %d of %d streamed bytes, sent in the last %s before the kill", i+1, n, len(streamed), age.Round(time.Millisecond))
			if n == 0 {
				lost = fmt.Sprintf("answer %d: no text, only its end (kept marked interrupted)", i+1)
			}
			if age > maxLost {
				t.Errorf("lost %s", lost)
			}
			continue
		}
		if a.Text != step.text() {
			t.Errorf("answer %d text = %q, want %q", i+1, a.Text, step.text())
		}
		var want []session.ToolCall
		if step.call != nil {
			want = []session.ToolCall{*step.call}
		}
		if len(a.ToolCalls) != len(want) || (len(want) == 1 && (a.ToolCalls[0].ID != want[0].ID || a.ToolCalls[0].Name != want[0].Name || !sameJSON(a.ToolCalls[0].Arguments, want[0].Arguments))) {
			t.Errorf("answer %d tool calls = %+v, want %+v", i+1, a.ToolCalls, want)
		}
		if step.call == nil {
			continue
		}
		res, ok := results[step.call.ID]
		if !ok {
			if progressed {
				t.Errorf("the result of %s reached the gateway but is not in the log", step.call.ID)
			}
			continue
		}
		if res.Tool != step.call.Name || res.Status != session.StatusOK || res.ExitCode != 0 {
			t.Errorf("result of %s = %+v, want ok", step.call.ID, res)
		}
		file, content := "hello.txt", "hello from tern\n"
		if step.call.Name == "run_shell" {
			file, content = "out.txt", "hi\n"
		}
		if got, err := os.ReadFile(filepath.Join(ws, file)); err != nil || string(got) != content {
			t.Errorf("%s has a result but %s = %q (%v)", step.call.ID, file, got, err)
		}
	}
	for id := range results {
		if id != "call_w" && id != "call_s" {
			t.Errorf("a result for an unknown call %q", id)
		}
	}
	return lost
}

func sameJSON(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}

// checkHistory checks that a request's history answers every tool call with
// exactly one tool message, right after the call.
func checkHistory(t *testing.T, body []byte) {
	t.Helper()
	var req struct {
		Messages []struct {
			Role       string `json:"role"`
			ToolCallID string `json:"tool_call_id"`
			ToolCalls  []struct {
				ID string `json:"id"`
			} `json:"tool_calls"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("resume request: %v\n%s", err, body)
	}
	msgs := req.Messages
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		if m.Role == "tool" {
			t.Errorf("message %d: a tool message %q answers no call just before it\n%s", i, m.ToolCallID, body)
			continue
		}
		if m.Role != "assistant" || len(m.ToolCalls) == 0 {
			continue
		}
		at := i
		want := map[string]bool{}
		for _, c := range m.ToolCalls {
			want[c.ID] = true
		}
		for range m.ToolCalls {
			i++
			if i >= len(msgs) || msgs[i].Role != "tool" || !want[msgs[i].ToolCallID] {
				t.Errorf("message %d: the calls of message %d are not each followed by one tool message\n%s", i, at, body)
				break
			}
			delete(want, msgs[i].ToolCallID)
		}
	}
	if n := len(msgs); n == 0 || msgs[n-1].Role != "user" {
		t.Errorf("the resumed request does not end with the new prompt\n%s", body)
	}
}
