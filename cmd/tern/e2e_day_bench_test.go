package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/session"
)

// The day-long session benchmark (issue 20): 500 prompts typed into tern in
// a 120x40 tmux pane, answered at once by a local gateway with tool calls
// (read_file, edit_file, run_shell under full-auto) and Markdown, whose
// reported prompt sizes grow so that the conversation is compacted about
// every 100 turns. After each compaction it samples tern's memory through
// TERN_MEMSTATS (cmd/tern/memstats.go: garbage collected, a heap profile
// kept); at the end it quits and checks the session log reloads to the
// conversation the gateway saw last. On demand:
//
//	TERN_E2E_BENCH=1 go test -run TestE2EDayBench -v -timeout 30m ./cmd/tern/
//
// TERN_DAY_TURNS=<n> runs n turns instead of 500, TERN_DAY_PROFILES=<dir>
// keeps the memory samples and heap profiles there (compare the first and
// last compaction with go tool pprof -diff_base), and TERN_E2E_BIN=<path>
// measures that build.

// Targets of issue 20 for a day-long session.
const (
	dayTurns = 500
	// dayRSSGrowth bounds RSS after the last compaction over RSS after the
	// first.
	dayRSSGrowth = 10 << 20
	// dayTokensPerTurn is the prompt the gateway reports per user message
	// in the request: past 85% of the assumed 128k window after about 100.
	dayTokensPerTurn = 1100
	dayTurnWait      = 30 * time.Second
)

// dayMessage is a message of a request as the gateway received it.
type dayMessage struct {
	Role      string `json:"role"`
	Content   string `json:"content"`
	ToolCalls []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
	ToolCallID string `json:"tool_call_id"`
}

// dayGateway answers the day-long session's requests at once.
type dayGateway struct {
	srv *httptest.Server
	mu  sync.Mutex
	// last is the last conversation request (not a title or summary one),
	// answers the text of each final answer by its marker.
	last        []dayMessage
	lastAnswer  string
	compactions int
	requests    int
}

// dayTool is the tool call turn n makes before it answers ("" for none).
func dayTool(n int) (name string, args map[string]string) {
	switch n % 4 {
	case 0:
		return "read_file", map[string]string{"path": "notes.txt"}
	case 1:
		return "edit_file", map[string]string{"path": "notes.txt", "old_string": fmt.Sprintf("line %d todo\n", n), "new_string": fmt.Sprintf("line %d done\n", n)}
	case 2:
		return "run_shell", map[string]string{"command": fmt.Sprintf("echo turn %d && ls", n)}
	}
	return "", nil
}

// dayMarker ends the answer to turn n.
func dayMarker(n int) string { return fmt.Sprintf("DAY-DONE-%d", n) }

// dayAnswer is turn n's Markdown answer, about 1.5 KB.
func dayAnswer(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Turn %d\n\nThis paragraph explains turn %d in a sentence long enough to wrap on a narrow terminal, with `inline code`, **bold** and *emphasis*.\n\n", n, n)
	fmt.Fprintf(&b, "- first point of turn %d\n- second point, with a [link](https://example.com/%d)\n  - a nested point\n\n", n, n)
	fmt.Fprintf(&b, "```go\nfunc turn%d(x int) int {\n\tif x > %d {\n\t\treturn x * 2\n\t}\n\treturn x + %d\n}\n```\n\n", n, n, n)
	fmt.Fprintf(&b, "| name | value |\n|------|------:|\n| alpha%d | %d |\n| beta%d | %d |\n\n", n, n, n, 2*n)
	b.WriteString("Finished: " + dayMarker(n))
	return b.String()
}

// daySummary answers a compaction request.
const daySummary = "## Goal\nWork through the numbered turns.\n## User instructions\n- none\n## Decisions\n- each turn reads, edits or runs one thing\n## Files\n- notes.txt: lines marked done\n## Open tasks\n- the next turn"

func newDayGateway(t *testing.T) *dayGateway {
	t.Helper()
	g := &dayGateway{}
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/chat/completions", g.chat)
	g.srv = httptest.NewServer(mux)
	t.Cleanup(g.srv.Close)
	return g
}

func (g *dayGateway) chat(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Messages []dayMessage `json:"messages"`
	}
	body, err := io.ReadAll(r.Body)
	if err == nil {
		err = json.Unmarshal(body, &req)
	}
	if err != nil || len(req.Messages) == 0 {
		http.Error(w, fmt.Sprint("bad request: ", err), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	s := &sse{w: w, f: w.(http.Flusher)}
	msgs := req.Messages
	last := msgs[len(msgs)-1]
	users := 0
	for _, m := range msgs {
		if m.Role == "user" {
			users++
		}
	}
	switch {
	case msgs[0].Role == "system" && strings.Contains(msgs[0].Content, "short title"):
		s.text("A day of turns", 64, 0)
		s.finish("stop")
		return
	case last.Role == "user" && strings.Contains(last.Content, "Compaction request"):
		g.mu.Lock()
		g.compactions++
		g.mu.Unlock()
		s.text(daySummary, 256, 0)
		s.event(chunk(`{}`, "stop"))
		s.event(usageChunk(users*dayTokensPerTurn, 60, 0))
		s.event("data: [DONE]\n\n")
		return
	}
	// The turn's number is in its prompt, the last user message.
	n := 0
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			n, _ = strconv.Atoi(strings.TrimPrefix(msgs[i].Content, "turn "))
			break
		}
	}
	answer := ""
	name, args := dayTool(n)
	if name != "" && last.Role == "user" {
		s.toolCall(fmt.Sprintf("call_%d", n), name, args)
		s.event(chunk(`{}`, "tool_calls"))
	} else {
		answer = dayAnswer(n)
		s.text(answer, 256, 0)
		s.event(chunk(`{}`, "stop"))
	}
	g.mu.Lock()
	g.last, g.lastAnswer = msgs, answer
	g.requests++
	g.mu.Unlock()
	s.event(usageChunk(users*dayTokensPerTurn, 40, 0))
	s.event("data: [DONE]\n\n")
}

// state returns the compactions so far, the last conversation request and
// its answer.
func (g *dayGateway) state() (int, []dayMessage, string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.compactions, g.last, g.lastAnswer
}

// daySample is one memory sample: /proc's VmRSS before the hook collected
// garbage, and what the hook wrote.
type daySample struct {
	turn   int
	rawRSS int64
	// cpu is tern's CPU time so far; steady the goroutines but Bubble
	// Tea's batches waiting on a command (steadyGoroutines).
	cpu    time.Duration
	steady int
	memSample
}

func TestE2EDayBench(t *testing.T) {
	if os.Getenv("TERN_E2E_BENCH") != "1" {
		t.Skip("the day-long session benchmark runs on demand: TERN_E2E_BENCH=1 go test -run TestE2EDayBench -v -timeout 30m ./cmd/tern/")
	}
	needTmux(t)
	turns := dayTurns
	if v := os.Getenv("TERN_DAY_TURNS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("TERN_DAY_TURNS=%q: want a number of turns", v)
		}
		turns = n
	}
	profiles := os.Getenv("TERN_DAY_PROFILES")
	if profiles == "" {
		profiles = t.TempDir()
	} else if err := os.MkdirAll(profiles, 0o755); err != nil {
		t.Fatal(err)
	}
	stats := filepath.Join(profiles, "memstats.jsonl")
	_ = os.Remove(stats) // a rerun into the same folder starts afresh

	g := newDayGateway(t)
	ws := t.TempDir()
	var notes strings.Builder
	for i := 1; i <= turns+4; i++ {
		fmt.Fprintf(&notes, "line %d todo\n", i)
	}
	if err := os.WriteFile(filepath.Join(ws, "notes.txt"), []byte(notes.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	env := tmuxEnv(t, g.srv.URL)
	for i, e := range env {
		if strings.HasPrefix(e, "TERN_HOME=") {
			env[i] = "TERN_HOME=" + home
		}
	}
	env = append(env, envMemStats+"="+stats)
	pressureAtStart := cpuPressure()
	s := startTmux(t, env, ws, "exec cat")
	b := &bench{t: t, c: s.control()}
	win := tmuxSession + ":day"
	b.must(fmt.Sprintf("new-window -d -t %s: -n day -c %s %s", tmuxSession, shellQuote(ws), shellQuote("exec "+shellQuote(ternBin)+" --approval full-auto")))
	b.target = win
	b.poll(win, 10*time.Millisecond, "the input", func(scr string) bool { return strings.Contains(scr, "› "+placeholder) })
	pid, err := strconv.Atoi(strings.TrimSpace(b.must("display-message -p -t " + win + " '#{pane_pid}'")))
	if err != nil {
		t.Fatal(err)
	}
	p := proc{t: t, pid: pid}
	start, cpuStart := time.Now(), p.cpu()

	var samples []daySample
	sample := func(turn int) {
		t.Helper()
		time.Sleep(300 * time.Millisecond) // no frame or write left over from the turn
		raw := p.mem("VmRSS")
		want := len(samples) + 1
		if err := syscallKill(pid); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(benchWait)
		for {
			got := readMemSamples(t, stats)
			if len(got) >= want {
				samples = append(samples, daySample{turn: turn, rawRSS: raw, cpu: p.cpu(), steady: steadyGoroutines(t, fmt.Sprintf("%s.goroutines.%d", stats, want)), memSample: got[want-1]})
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("no memory sample %d in %s after %v", want, stats, benchWait)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}

	compactions := 0
	var compactedAt []int
	var turnTimes []time.Duration
	for n := 1; n <= turns; n++ {
		ts := time.Now()
		b.typed(win, fmt.Sprintf("turn %d", n))
		b.must("send-keys -t " + win + " Enter")
		marker := dayMarker(n)
		waitScreen(b, win, dayTurnWait, marker+" and idle", func(scr string) bool {
			return strings.Contains(scr, marker) && !turnRunning(scr)
		})
		turnTimes = append(turnTimes, time.Since(ts))
		if n == 1 {
			sample(n)
		}
		if c, _, _ := g.state(); c > compactions {
			compactions = c
			compactedAt = append(compactedAt, n)
			sample(n)
		}
	}
	sample(turns)
	cpuUsed := p.cpu() - cpuStart
	wall := time.Since(start)
	hwm := p.mem("VmHWM")

	// The first answers, whose rendered lines the transcript let go long
	// ago, draw again at the top and a page down.
	b.must("send-keys -t " + win + " Home")
	waitScreen(b, win, benchWait, "the first answer at the top", func(scr string) bool {
		return strings.Contains(scr, "func turn1(x int) int {") && strings.Contains(scr, "Finished: "+dayMarker(1))
	})
	// Page by page, until the second or third answer shows: three pages
	// sent at once could pass both (a page is about one turn).
	seen := false
	prev := b.must("capture-pane -p -t " + win)
	for range 3 {
		b.must("send-keys -t " + win + " PgDn")
		waitScreen(b, win, benchWait, "the screen a page down", func(scr string) bool { return scr != prev })
		time.Sleep(50 * time.Millisecond) // the whole frame, not the start of it
		scr := b.must("capture-pane -p -t " + win)
		prev = scr
		if strings.Contains(scr, "func turn2(x int) int {") || strings.Contains(scr, "func turn3(x int) int {") {
			seen = true
			break
		}
	}
	if !seen {
		t.Errorf("three pages down from the top, neither the second nor the third answer showed:\n%s", b.must("capture-pane -p -t "+win))
	}
	b.must("send-keys -t " + win + " End")

	_, last, answer := g.state()
	b.must("send-keys -t " + win + " C-d")
	waitScreen(b, win, benchWait, "tern to exit", func(string) bool {
		return strings.TrimSpace(b.must("display-message -p -t "+win+" '#{pane_dead}'")) == "1"
	})

	// The log reloads to the conversation the gateway saw last, and the
	// answer to it.
	info, err := session.Latest(home, ws)
	if err != nil {
		t.Fatal(err)
	}
	loadStart := time.Now()
	loaded, err := session.Load(info.Path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := session.Restore(loaded)
	if err != nil {
		t.Fatal(err)
	}
	loadTook := time.Since(loadStart)
	logInfo, err := os.Stat(info.Path)
	if err != nil {
		t.Fatal(err)
	}
	problems := compareDayConversation(st, last, answer)
	benchTable(t, "day-long session: the log reloads equal to the conversation the gateway saw last", fmt.Sprintf("%d differences", len(problems)), "equal", len(problems) == 0)
	if len(problems) > 0 {
		t.Errorf("the reloaded session differs from the conversation the gateway saw last (%d messages, %d reloaded):\n%s",
			len(last), len(st.Messages), strings.Join(problems[:min(len(problems), 10)], "\n"))
	}

	var report strings.Builder
	for i, sm := range samples {
		perTurn := ""
		if i > 0 && sm.turn > samples[i-1].turn {
			perTurn = fmt.Sprintf(", %.1f ms CPU a turn since turn %d", float64((sm.cpu-samples[i-1].cpu).Microseconds())/1000/float64(sm.turn-samples[i-1].turn), samples[i-1].turn)
		}
		fmt.Fprintf(&report, "\n  after turn %4d: RSS %s (before the collection %s), heap %s in %d objects, %d goroutines (%d steady)%s",
			sm.turn, mb(sm.RSS), mb(sm.rawRSS), mb(int64(sm.HeapAlloc)), sm.HeapObj, sm.Goroutines, sm.steady, perTurn)
	}
	slices.Sort(turnTimes)
	t.Logf("day-long session benchmark (tern %s, %d turns, %d compactions after turns %v, %s of log; CPU pressure at the start %s, at the end %s):"+
		"\n  wall %v, CPU %.2f s, per turn: median %v, max %v; peak RSS %s; log reload %v%s",
		ternBin, turns, compactions, compactedAt, mb(logInfo.Size()), pressureAtStart, cpuPressure(),
		wall.Round(time.Second), cpuUsed.Seconds(), turnTimes[len(turnTimes)/2].Round(time.Millisecond), turnTimes[len(turnTimes)-1].Round(time.Millisecond),
		mb(hwm), loadTook.Round(time.Millisecond), report.String())
	if compactions < 2 {
		t.Fatalf("%d compactions in %d turns: too few to compare the first and the last", compactions, turns)
	}
	first, lastC := samples[1], samples[len(samples)-2]
	grew := lastC.RSS - first.RSS
	benchTable(t, fmt.Sprintf("day-long session, %d turns: RSS after the last compaction minus after the first", turns), mb(grew), "≤ 10 MB", grew <= dayRSSGrowth)
	benchTable(t, "day-long session: goroutines after the first compaction, the last, the end", fmt.Sprintf("%d, %d, %d", first.steady, lastC.steady, samples[len(samples)-1].steady), "no growth",
		lastC.steady <= first.steady && samples[len(samples)-1].steady <= first.steady)
	if grow := lastC.RSS - first.RSS; grow > dayRSSGrowth {
		t.Errorf("RSS after the last compaction %s, after the first %s: grew %s, want ≤ 10 MB", mb(lastC.RSS), mb(first.RSS), mb(grow))
	}
	if lastC.steady > first.steady || samples[len(samples)-1].steady > first.steady {
		t.Errorf("goroutines grew: %d after the first compaction, %d after the last, %d at the end, not counting Bubble Tea's batches, regexp2's clock and kept-alive connections (stacks in %s.goroutines.N)",
			first.steady, lastC.steady, samples[len(samples)-1].steady, stats)
	}
}

// waitScreen polls target every 10 ms until ok accepts its screen.
func waitScreen(b *bench, target string, timeout time.Duration, what string, ok func(string) bool) {
	b.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		scr := b.must("capture-pane -p -t " + target)
		if ok(scr) {
			return
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("after %v the screen still does not show %s:\n%s", timeout, what, scr)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// steadyGoroutines counts the goroutines in a goroutine profile (debug=1)
// but three kinds whose number follows timing, not the session's length:
// Bubble Tea's batches of commands (one waits on the agent's events or not,
// depending on which command last asked for them), regexp2's clock, which
// runs while syntax highlighting used a regexp in the last second, and the
// HTTP client's kept-alive connection to the gateway (two goroutines while
// it is open).
func steadyGoroutines(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, stack := range strings.Split(string(b), "\n\n") {
		count, _, ok := strings.Cut(stack, " @ ")
		c, err := strconv.Atoi(strings.TrimSpace(count))
		if !ok || err != nil || strings.Contains(stack, "bubbletea/v2.(*Program).execBatchMsg") || strings.Contains(stack, "regexp2/v2.runClock") ||
			strings.Contains(stack, "net/http.(*persistConn)") {
			continue
		}
		n += c
	}
	return n
}

// readMemSamples reads the TERN_MEMSTATS file written so far.
func readMemSamples(t *testing.T, path string) []memSample {
	t.Helper()
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	var out []memSample
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var s memSample
		if json.Unmarshal(sc.Bytes(), &s) != nil {
			break // a line being written
		}
		out = append(out, s)
	}
	return out
}

// compareDayConversation lists how the restored conversation differs from
// the gateway's last request (after its system prompt) and its answer.
func compareDayConversation(st session.State, last []dayMessage, answer string) []string {
	var problems []string
	if len(last) == 0 {
		return []string{"the gateway saw no conversation request"}
	}
	if last[0].Role != "system" || last[0].Content != st.System {
		problems = append(problems, "the system prompt differs")
	}
	want := append([]dayMessage(nil), last[1:]...)
	want = append(want, dayMessage{Role: "assistant", Content: answer})
	if len(st.Messages) != len(want) {
		problems = append(problems, fmt.Sprintf("%d messages reloaded, want %d", len(st.Messages), len(want)))
	}
	for i := range min(len(want), len(st.Messages)) {
		if d := diffDayMessage(st.Messages[i], want[i]); d != "" {
			problems = append(problems, fmt.Sprintf("message %d: %s", i, d))
		}
	}
	return problems
}

// diffDayMessage says how a restored message differs from the one sent.
func diffDayMessage(got provider.Message, want dayMessage) string {
	switch {
	case string(got.Role) != want.Role:
		return fmt.Sprintf("role %s, want %s", got.Role, want.Role)
	case got.Content != want.Content:
		return fmt.Sprintf("content %.80q, want %.80q", got.Content, want.Content)
	case got.ToolCallID != want.ToolCallID:
		return fmt.Sprintf("tool_call_id %q, want %q", got.ToolCallID, want.ToolCallID)
	case len(got.ToolCalls) != len(want.ToolCalls):
		return fmt.Sprintf("%d tool calls, want %d", len(got.ToolCalls), len(want.ToolCalls))
	}
	for i, c := range got.ToolCalls {
		w := want.ToolCalls[i]
		if c.ID != w.ID || c.Name != w.Function.Name || c.Arguments != w.Function.Arguments {
			return fmt.Sprintf("tool call %d: %s %s %s, want %s %s %s", i, c.ID, c.Name, c.Arguments, w.ID, w.Function.Name, w.Function.Arguments)
		}
	}
	return ""
}

// syscallKill asks tern for a memory sample.
func syscallKill(pid int) error { return syscall.Kill(pid, syscall.SIGUSR1) }
