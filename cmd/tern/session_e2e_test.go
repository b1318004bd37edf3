package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/session"
)

// withHome returns env with a TERN_HOME (and HOME) shared by several runs, so
// a later run sees the sessions of an earlier one.
func withHome(env map[string]string, home string) map[string]string {
	out := map[string]string{"HOME": home, "TERN_HOME": filepath.Join(home, ".tern")}
	for k, v := range env {
		out[k] = v
	}
	return out
}

// sessionFiles returns the session logs under a TERN_HOME.
func sessionFiles(t *testing.T, ternHome string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(ternHome, "sessions", "*", "*", "*", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestE2ESessionRecordContinueListExport(t *testing.T) {
	t.Parallel()
	g := newFakeGateway(t, scripted)
	ws, home := t.TempDir(), t.TempDir()
	env := withHome(online(g), home)

	r := tern(t, ws, env, "", "run", "--approval", "full-auto", "make the hello file")
	if r.code != exitOK {
		t.Fatalf("first run: exit %d\nstderr: %s", r.code, r.stderr)
	}
	files := sessionFiles(t, env["TERN_HOME"])
	if len(files) != 1 {
		t.Fatalf("session files = %q, want one", files)
	}
	log := readFile(t, files[0])
	for _, want := range []string{`"type":"header"`, `"type":"user_message"`, `"text":"make the hello file"`, `"type":"tool_result"`, `"type":"checkpoint"`, `"hash":"absent"`, `"gateway_host":"127.0.0.1:`} {
		if !strings.Contains(log, want) {
			t.Errorf("session log lacks %s:\n%s", want, log)
		}
	}
	if strings.Contains(log, e2eKey) {
		t.Error("the session log holds the API key")
	}
	s, err := session.Load(files[0])
	if err != nil {
		t.Fatal(err)
	}
	id := s.Header.ID

	r = tern(t, ws, env, "", "sessions")
	if r.code != exitOK || !strings.Contains(r.stdout, id) || !strings.Contains(r.stdout, "make the hello file") {
		t.Errorf("tern sessions: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}

	g.mu.Lock()
	before := len(g.bodies)
	g.mu.Unlock()
	r = tern(t, ws, env, "", "run", "--continue", "what did you do?")
	if r.code != exitOK {
		t.Fatalf("continued run: exit %d\nstderr: %s", r.code, r.stderr)
	}
	g.mu.Lock()
	second := strings.Join(g.bodies[before:], "\n")
	g.mu.Unlock()
	for _, want := range []string{"make the hello file", "with a greeting.", "hello from tern", "what did you do?"} {
		if !strings.Contains(second, want) {
			t.Errorf("the continued run did not send %q to the gateway:\n%s", want, second)
		}
	}
	if files := sessionFiles(t, env["TERN_HOME"]); len(files) != 1 {
		t.Errorf("--continue started a new session: %q", files)
	}

	r = tern(t, ws, env, "", "sessions", "--json")
	var list []sessionJSON
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil {
		t.Fatalf("tern sessions --json: %v\n%s", err, r.stdout)
	}
	if len(list) != 1 || list[0].ID != id || list[0].Messages < 4 || list[0].Title != "make the hello file" {
		t.Errorf("tern sessions --json = %+v", list)
	}

	r = tern(t, ws, env, "", "sessions", "export", id[:6])
	if r.code != exitOK || !strings.Contains(r.stdout, "make the hello file") || !strings.Contains(r.stdout, "what did you do?") || !strings.Contains(r.stdout, "write_file") {
		t.Errorf("tern sessions export: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	out := filepath.Join(ws, "out.md")
	r = tern(t, ws, env, "", "sessions", "export", id, "out.md")
	if r.code != exitOK || !strings.Contains(readFile(t, out), "# make the hello file") {
		t.Errorf("tern sessions export ID PATH: exit %d, stderr %s", r.code, r.stderr)
	}

	r = tern(t, ws, env, "", "run", "--session", id, "once more")
	if r.code != exitOK {
		t.Fatalf("run --session: exit %d\nstderr: %s", r.code, r.stderr)
	}
	r = tern(t, ws, env, "", "run", "--session", "ffffffffffff", "nothing")
	if r.code != exitUsage || !strings.Contains(r.stderr, "tern sessions") {
		t.Errorf("run --session with an unknown id: exit %d, stderr %s", r.code, r.stderr)
	}
}

func TestE2EResumeWithoutIDListsSessions(t *testing.T) {
	t.Parallel()
	ws, home := t.TempDir(), t.TempDir()
	env := withHome(map[string]string{"MOCK": "1"}, home)
	if r := tern(t, ws, env, "", "run", "read go.mod"); r.code != exitOK {
		t.Fatalf("run: exit %d\nstderr: %s", r.code, r.stderr)
	}
	r := tern(t, ws, env, "", "--resume")
	if r.code != exitUsage || !strings.Contains(r.stderr, "read go.mod") || !strings.Contains(r.stderr, "tern --resume ID") {
		t.Errorf("tern --resume: exit %d\nstderr: %s", r.code, r.stderr)
	}
	r = tern(t, ws, env, "", "--fork")
	if r.code != exitUsage || !strings.Contains(r.stderr, "--fork needs") {
		t.Errorf("tern --fork: exit %d\nstderr: %s", r.code, r.stderr)
	}
}

// slowGateway streams text chunks every 20 ms for far longer than a test
// waits, so the process can be killed mid-answer.
func slowGateway(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		for i := 0; i < 1000; i++ {
			if _, err := io.WriteString(w, chunk(`{"content":"word`+strings.Repeat("x", i%7)+` "}`, "")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestE2ESessionSurvivesKill9(t *testing.T) {
	t.Parallel()
	srv := slowGateway(t)
	ws, home := t.TempDir(), t.TempDir()
	env := withHome(map[string]string{"LLM_BASE_URL": srv.URL + "/v1", "LLM_API_KEY": e2eKey, "LLM_MODEL": "e2e-model"}, home)
	cmd := exec.Command(ternBin, "run", "tell a long story")
	cmd.Dir = ws
	cmd.Env = testEnv(t, env)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill once streamed text is on disk (the flush interval is 250 ms).
	deadline := time.Now().Add(10 * time.Second)
	var path string
	for {
		if files := sessionFiles(t, env["TERN_HOME"]); len(files) == 1 {
			path = files[0]
			if b, err := os.ReadFile(path); err == nil && bytes.Count(b, []byte(`"type":"assistant_delta"`)) >= 2 {
				break
			}
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("no streamed text in the session log after 10 s; stderr:\n%s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait() // killed: the exit status says so

	s, err := session.Load(path)
	if err != nil {
		t.Fatalf("load after kill -9: %v", err)
	}
	var user, answer string
	interrupted := false
	for _, rec := range s.Records {
		switch b := rec.Body.(type) {
		case session.UserMessage:
			user = b.Text
		case session.AssistantMessage:
			answer, interrupted = b.Text, b.Interrupted
		}
	}
	if user != "tell a long story" {
		t.Errorf("user message = %q", user)
	}
	if !interrupted || !strings.HasPrefix(answer, "word ") || len(answer) < 10 {
		t.Errorf("partial answer = %q (interrupted %v), want the streamed text so far", answer, interrupted)
	}
	st, err := session.Restore(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Messages) != 2 {
		t.Errorf("restored %d messages, want the prompt and the partial answer", len(st.Messages))
	}
}

func TestE2EContinueRestoresPolicyAndNamesTheSession(t *testing.T) {
	t.Parallel()
	ws, home := t.TempDir(), t.TempDir()
	env := withHome(map[string]string{"MOCK": "1"}, home)
	r := tern(t, ws, env, "", "run", "--json", "--approval", "full-auto", "hello")
	if r.code != exitOK {
		t.Fatalf("run: exit %d\nstderr: %s", r.code, r.stderr)
	}
	first := parseLines(t, r.stdout)[0]
	var started struct {
		Approval  string `json:"approval_policy"`
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(strings.SplitN(r.stdout, "\n", 2)[0]), &started); err != nil || first.Type != "session.started" || started.SessionID == "" {
		t.Fatalf("first line %q: %v", strings.SplitN(r.stdout, "\n", 2)[0], err)
	}
	id := started.SessionID

	// No --approval: the session's policy comes back.
	r = tern(t, ws, env, "", "run", "--json", "--continue", "again")
	if err := json.Unmarshal([]byte(strings.SplitN(r.stdout, "\n", 2)[0]), &started); err != nil {
		t.Fatal(err)
	}
	if r.code != exitOK || started.Approval != "full-auto" || started.SessionID != id {
		t.Errorf("continued: exit %d, policy %q, session %q; want full-auto in %s\nstderr: %s", r.code, started.Approval, started.SessionID, id, r.stderr)
	}
	// An explicit flag wins, and the switch is recorded.
	r = tern(t, ws, env, "", "run", "--json", "--session", id, "--approval", "read-only", "and again")
	if err := json.Unmarshal([]byte(strings.SplitN(r.stdout, "\n", 2)[0]), &started); err != nil {
		t.Fatal(err)
	}
	if r.code != exitOK || started.Approval != "read-only" {
		t.Errorf("--approval on resume: exit %d, policy %q", r.code, started.Approval)
	}
	info, err := session.Find(env["TERN_HOME"], id)
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.Load(info.Path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := session.Restore(s)
	if err != nil {
		t.Fatal(err)
	}
	if st.Policy.String() != "read-only" || st.LastTurn != 3 || len(st.Turns) != 3 {
		t.Errorf("restored policy %s, last turn %d, %d turns; want read-only after 3 turns", st.Policy, st.LastTurn, len(st.Turns))
	}
}

func TestE2EInterruptedRunKeepsThePartialAnswer(t *testing.T) {
	t.Parallel()
	g := newFakeGateway(t, hanging)
	ws, home := t.TempDir(), t.TempDir()
	env := withHome(online(g), home)
	cmd := exec.Command(ternBin, "run", "--json", "think hard")
	cmd.Dir = ws
	cmd.Env = testEnv(t, env)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The hanging gateway sends one chunk and waits; interrupt once it shows.
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if strings.Contains(sc.Text(), `"type":"item.delta"`) {
			if err := cmd.Process.Signal(os.Interrupt); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	_, _ = io.Copy(io.Discard, stdout)
	var ee *exec.ExitError
	if err := cmd.Wait(); !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
		t.Fatalf("wait: %v, want exit %d; stderr:\n%s", err, exitInterrupted, stderr.String())
	}
	files := sessionFiles(t, env["TERN_HOME"])
	if len(files) != 1 {
		t.Fatalf("session files = %q", files)
	}
	s, err := session.Load(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Warnings) != 0 {
		t.Errorf("a clean exit left warnings: %q", s.Warnings)
	}
	var answer *session.AssistantMessage
	for _, rec := range s.Records {
		if b, ok := rec.Body.(session.AssistantMessage); ok {
			answer = &b
		}
	}
	if answer == nil || answer.Text != "Thinking about it" || !answer.Interrupted {
		t.Errorf("answer = %+v, want the partial text marked interrupted", answer)
	}
}

// TestE2ERunStopsWhenTheSessionCannotBeRecorded: a session log that cannot
// be opened in TERN_HOME stops the run before anything runs, saying why
// (issue 12: nothing runs unrecorded unless the user chooses so, which
// only the interface can ask).
func TestE2ERunStopsWhenTheSessionCannotBeRecorded(t *testing.T) {
	t.Parallel()
	ws, home := t.TempDir(), t.TempDir()
	env := withHome(map[string]string{"MOCK": "1"}, home)
	if err := os.MkdirAll(env["TERN_HOME"], 0o700); err != nil {
		t.Fatal(err)
	}
	// A file where the sessions folder should be.
	if err := os.WriteFile(filepath.Join(env["TERN_HOME"], "sessions"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	r := tern(t, ws, env, "", "run", "hello")
	if r.code != exitFailed || !strings.Contains(r.stderr, "recording the session failed") ||
		!strings.Contains(r.stderr, "open the session log") || r.stdout != "" {
		t.Errorf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
}
