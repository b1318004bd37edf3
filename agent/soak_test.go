package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/provider/openai"
	"github.com/ternhq/tern/session"
	"github.com/ternhq/tern/tools"
)

// The soak test drives the real agent through the real OpenAI-compatible
// provider against a scripted gateway that injects faults, for many turns,
// records it through session.Recorder as tern does, and checks that nothing
// leaks, the conversation stays valid and the session log reloads to it.
// It lives outside package agent because package session imports agent; it
// shortens the agent's retry backoff, which has no option, with SetRetry
// from export_test.go. (A test file may import provider/openai: the
// fitness rules check production imports.)

const (
	soakTurns = 200
	soakSeed  = 7
	// soakTurnTimeout bounds one turn: a turn that takes longer hangs.
	soakTurnTimeout = 15 * time.Second
	// soakTurnBytes bounds the heap one turn may add: its messages and
	// their records, about 2 KiB, with room for the allocator's rounding.
	soakTurnBytes = 8 << 10
)

// faultKind is what the gateway does with one request.
type faultKind int

const (
	faultNone faultKind = iota
	faultSlow
	faultRateLimited
	faultRateLimitedWait
	faultServer
	faultDropMidway
	faultDropAtStart
	faultStreamError
	faultMalformed
	faultKinds
)

func (f faultKind) String() string {
	switch f {
	case faultNone:
		return "none"
	case faultSlow:
		return "slow stream"
	case faultRateLimited:
		return "429 Retry-After: 0"
	case faultRateLimitedWait:
		return "429 Retry-After: 1"
	case faultServer:
		return "5xx"
	case faultDropMidway:
		return "dropped midway"
	case faultDropAtStart:
		return "dropped before the first event"
	case faultStreamError:
		return "error event in the stream"
	case faultMalformed:
		return "malformed event"
	case faultKinds:
	}
	return "unknown"
}

// soakGateway is a scripted OpenAI-compatible gateway: it answers a user
// message with tool calls (or text), tool results with text, and injects a
// random fault into some responses. Its random choices come from one seed,
// in request order, so a failing run can be replayed.
type soakGateway struct {
	mu     sync.Mutex
	rng    *rand.Rand
	n      int
	faults map[faultKind]int
	// waits counts the Retry-After: 1 answers, which cost a second each.
	waits int
}

func newSoakGateway(seed uint64) *soakGateway {
	return &soakGateway{rng: rand.New(rand.NewPCG(seed, seed^0x5eed)), faults: make(map[faultKind]int)}
}

// plan is one request's scripted answer.
type plan struct {
	fault  faultKind
	status int
	// cut is the number of events sent before the connection drops.
	cut int
	// delay is slept before each event.
	delay  time.Duration
	events []string
}

// soakRequest is the part of a chat completion request the gateway reads.
type soakRequest struct {
	Messages []struct {
		Role string `json:"role"`
	} `json:"messages"`
}

func (g *soakGateway) plan(req soakRequest) plan {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.n++
	p := plan{fault: faultNone}
	switch x := g.rng.IntN(100); {
	case x < 12:
		p.fault = faultSlow
		p.delay = time.Duration(1+g.rng.IntN(3)) * time.Millisecond
	case x < 20:
		p.fault, p.status = faultRateLimited, http.StatusTooManyRequests
	case x < 21 && g.waits < 3:
		p.fault, p.status = faultRateLimitedWait, http.StatusTooManyRequests
		g.waits++
	case x < 28:
		p.fault, p.status = faultServer, []int{500, 502, 503}[g.rng.IntN(3)]
	case x < 38:
		p.fault = faultDropMidway
	case x < 41:
		p.fault = faultDropAtStart
	case x < 44:
		p.fault = faultStreamError
	case x < 45:
		p.fault = faultMalformed
	}
	g.faults[p.fault]++

	last := ""
	if n := len(req.Messages); n > 0 {
		last = req.Messages[n-1].Role
	}
	if last == string(provider.RoleUser) && g.rng.IntN(10) < 7 {
		p.events = g.toolCallEvents()
	} else {
		p.events = g.textEvents()
	}
	if p.fault == faultDropMidway {
		p.cut = 1 + g.rng.IntN(len(p.events)-1)
	}
	return p
}

// toolCallEvents is an answer with one or two calls whose arguments arrive
// in pieces, sometimes after a little text.
func (g *soakGateway) toolCallEvents() []string {
	var ev []string
	if g.rng.IntN(2) == 0 {
		ev = append(ev, soakDelta(`{"role":"assistant","content":"Let me look."}`))
	}
	for i := range 1 + g.rng.IntN(2) {
		name, args := "read_file", `{"path":"notes.txt"}`
		switch g.rng.IntN(5) {
		case 0:
			name, args = "wait", fmt.Sprintf(`{"ms":%d}`, g.rng.IntN(4))
		case 1:
			name, args = "no_such_tool", `{}`
		}
		id := fmt.Sprintf("call_%d_%d", g.n, i)
		ev = append(ev, soakDelta(fmt.Sprintf(`{"tool_calls":[{"index":%d,"id":%q,"type":"function","function":{"name":%q,"arguments":""}}]}`, i, id, name)))
		cut := len(args) / 2
		for _, part := range []string{args[:cut], args[cut:]} {
			ev = append(ev, soakDelta(fmt.Sprintf(`{"tool_calls":[{"index":%d,"function":{"arguments":%q}}]}`, i, part)))
		}
	}
	return append(ev, soakFinish("tool_calls"), soakUsage)
}

// textEvents is a final answer in several pieces.
func (g *soakGateway) textEvents() []string {
	var ev []string
	if g.rng.IntN(3) == 0 {
		ev = append(ev, soakDelta(`{"role":"assistant","reasoning_content":"thinking about it"}`))
	}
	for _, w := range strings.Fields(fmt.Sprintf("Done with request %d, all good.", g.n)) {
		ev = append(ev, soakDelta(fmt.Sprintf(`{"content":%q}`, w+" ")))
	}
	return append(ev, soakFinish("stop"), soakUsage)
}

const soakHead = `{"id":"chatcmpl-soak","object":"chat.completion.chunk","created":1741570283,"model":"soak","choices":[{"index":0,"delta":`

func soakDelta(d string) string { return soakHead + d + `,"finish_reason":null}]}` }

func soakFinish(reason string) string { return soakHead + `{},"finish_reason":"` + reason + `"}]}` }

const soakUsage = `{"id":"chatcmpl-soak","object":"chat.completion.chunk","created":1741570283,"model":"soak","choices":[],"usage":{"prompt_tokens":100,"completion_tokens":10,"total_tokens":110}}`

func (g *soakGateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	var req soakRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, `{"error":{"message":"bad json","type":"invalid_request_error"}}`, http.StatusBadRequest)
		return
	}
	p := g.plan(req)
	switch p.fault {
	case faultRateLimited, faultRateLimitedWait:
		wait := "0"
		if p.fault == faultRateLimitedWait {
			wait = "1"
		}
		w.Header().Set("Retry-After", wait)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(p.status)
		_, _ = io.WriteString(w, `{"error":{"message":"Rate limit reached, slow down","type":"rate_limit_error","code":"rate_limit_exceeded"}}`)
		return
	case faultServer:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(p.status)
		_, _ = io.WriteString(w, `{"error":{"message":"The server had an error","type":"server_error"}}`)
		return
	case faultDropAtStart:
		hangUp(w)
		return
	case faultNone, faultSlow, faultDropMidway, faultStreamError, faultMalformed, faultKinds:
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	flusher, ok := w.(http.Flusher)
	if !ok {
		return
	}
	send := func(payload string) bool {
		if p.delay > 0 {
			select {
			case <-time.After(p.delay):
			case <-r.Context().Done():
				return false
			}
		}
		if _, err := io.WriteString(w, "data: "+payload+"\n\n"); err != nil {
			return false
		}
		flusher.Flush()
		return true
	}
	for i, e := range p.events {
		switch {
		case p.fault == faultDropMidway && i == p.cut:
			hangUp(w)
			return
		case p.fault == faultStreamError && i == len(p.events)/2:
			_ = send(`{"error":{"message":"The model is overloaded","type":"server_error","code":503}}`)
			return
		case p.fault == faultMalformed && i == len(p.events)/2:
			_ = send(`{"choices":[{"index":0,"delta":{"content":"x"`)
			return
		}
		if !send(e) {
			return
		}
	}
	_ = send("[DONE]")
}

// hangUp closes the connection under the response, as a crashing gateway or
// a proxy timing out does: what was flushed arrived, the rest never will.
func hangUp(w http.ResponseWriter) {
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic("the test server cannot hijack connections")
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		return
	}
	_ = conn.Close()
}

// waitTool is a read tool that takes a few milliseconds, so cancellations
// also land while a tool runs.
type waitTool struct{}

func (waitTool) Spec() tools.Spec {
	return tools.Spec{Name: "wait", Description: "Wait a few milliseconds.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"ms":{"type":"integer","minimum":0}},"required":[],"additionalProperties":false}`)}
}

func (waitTool) Kind() tools.Kind { return tools.KindRead }

func (waitTool) Preview(context.Context, json.RawMessage) (tools.Preview, error) {
	return tools.Preview{Title: "wait"}, nil
}

func (waitTool) Run(ctx context.Context, args json.RawMessage, _ func(string)) tools.Result {
	var a struct {
		MS int `json:"ms"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return tools.Result{Status: tools.StatusError, Output: err.Error()}
	}
	select {
	case <-time.After(time.Duration(a.MS) * time.Millisecond):
		return tools.Result{Status: tools.StatusOK, Output: "waited", Summary: "waited"}
	case <-ctx.Done():
		return tools.Result{Status: tools.StatusCancelled, Output: "cancelled", Summary: "cancelled"}
	}
}

// soakTally counts what happened over the run.
type soakTally struct {
	finishes   map[agent.FinishReason]int
	retries    int
	cancels    int
	toolCalls  int
	heapAt50   uint64
	heapAtEnd  uint64
	errorKinds map[string]int
}

func TestSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("the soak test runs 200 turns; run it without -short")
	}
	// Not parallel: it counts goroutines.
	settleGoroutines()
	baseline := runtime.NumGoroutine()
	start := time.Now()

	gw := newSoakGateway(soakSeed)
	srv := httptest.NewServer(gw)
	transport := &http.Transport{}
	p, err := openai.New(openai.Config{
		BaseURL: srv.URL + "/v1", Model: "soak", MaxAttempts: 2, BaseBackoff: time.Millisecond,
		HTTPClient: &http.Client{Transport: transport},
	})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("remember the milk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	const system = "You are soaked."
	a, err := agent.New(agent.Options{Provider: p, Model: "soak", Tools: tools.NewRegistry(tools.NewReadFile(ws), waitTool{}), Workspace: ws, System: system})
	if err != nil {
		t.Fatal(err)
	}
	agent.SetRetry(a, 2, func(int, error) time.Duration { return time.Millisecond })

	// Record the session as cmd/tern does: the Recorder taps the events on
	// their way to the reader.
	w, err := session.Create(t.TempDir(), session.Header{
		TernVersion: "soak", Workspace: ws.Root, Model: "soak", ApprovalPolicy: agent.PolicyAsk.String(), SystemPrompt: system,
	})
	if err != nil {
		t.Fatal(err)
	}
	rec := session.NewRecorder(w)

	ctx, stop := context.WithCancel(context.Background())
	runDone := make(chan struct{})
	go func() {
		defer close(runDone)
		a.Run(ctx)
	}()
	events := rec.Tap(ctx, a.Events())

	rng := rand.New(rand.NewPCG(soakSeed, 1))
	tally := soakTally{finishes: make(map[agent.FinishReason]int), errorKinds: make(map[string]int)}
	finished := make(map[string]bool) // call ids that got EventToolFinished
	for turn := 1; turn <= soakTurns; turn++ {
		if err := a.Submit(fmt.Sprintf("Turn %d: check the notes.", turn)); err != nil {
			t.Fatalf("turn %d: Submit: %v", turn, err)
		}
		// Some turns are cancelled at a random moment: while streaming,
		// retrying, running a tool or just finishing.
		cancelStop, cancelDone := make(chan struct{}), make(chan struct{})
		if rng.IntN(100) < 15 {
			tally.cancels++
			delay := time.Duration(rng.IntN(20_000)) * time.Microsecond
			go func() {
				defer close(cancelDone)
				select {
				case <-time.After(delay):
					a.Cancel()
				case <-cancelStop:
				}
			}()
		} else {
			close(cancelDone)
		}
		fin := soakTurn(t, events, turn, finished, &tally)
		close(cancelStop)
		<-cancelDone
		tally.finishes[fin.Reason]++
		if fin.Err != nil {
			tally.errorKinds[provider.KindOf(fin.Err).String()]++
		}
		switch turn {
		case 50:
			tally.heapAt50 = heapInUse()
		case soakTurns:
			tally.heapAtEnd = heapInUse()
		}
	}

	held := a.Messages()
	checkSoakHistory(t, held)

	// Stop as tern does when its interface closes: cancel, drain what the
	// tap passes on (it ends with the context or with the agent's stream),
	// wait for Run, and drain what the tap left in the agent's channel.
	stop()
	for range events {
	}
	<-runDone
	for range a.Events() {
	}
	if err := closeSoakLog(rec, w); err != nil {
		t.Fatal(err)
	}
	records := checkSoakReload(t, w.Path(), system, held)
	srv.Close()
	transport.CloseIdleConnections()
	if n := waitGoroutines(baseline, 5*time.Second); n > baseline {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines left behind (baseline %d, now %d):\n%s", n-baseline, baseline, n, buf[:runtime.Stack(buf, true)])
	}

	// The conversation grows with every turn (about 2 KiB each, as the
	// agent and the recorder hold it), so the heap may grow by that much,
	// with room to spare, not by anything per request.
	if limit := tally.heapAt50 + (soakTurns-50)*soakTurnBytes + 1<<20; tally.heapAtEnd > limit {
		t.Errorf("heap in use grew from %d KiB at turn 50 to %d KiB at turn %d (limit %d KiB)",
			tally.heapAt50>>10, tally.heapAtEnd>>10, soakTurns, limit>>10)
	}

	gw.mu.Lock()
	defer gw.mu.Unlock()
	var faults []string
	injected := 0
	for k, n := range gw.faults {
		if k != faultNone {
			injected += n
			faults = append(faults, fmt.Sprintf("%s %d", k, n))
		}
	}
	sort.Strings(faults)
	t.Logf("%d turns in %v: %d requests, %d faults injected (%s); %d cancellations scheduled; %d retries by the agent; %d tool calls answered; finishes %v; failures by kind %v; heap in use %d KiB at turn 50, %d KiB at turn %d; the session log of %d records reloads to the %d messages the agent held",
		soakTurns, time.Since(start).Round(time.Millisecond), gw.n, injected, strings.Join(faults, ", "), tally.cancels, tally.retries,
		tally.toolCalls, tally.finishes, tally.errorKinds, tally.heapAt50>>10, tally.heapAtEnd>>10, soakTurns, records, len(held)-1)
	if injected == 0 || gw.faults[faultDropMidway] == 0 || gw.faults[faultRateLimited] == 0 || tally.finishes[agent.FinishCancelled] == 0 {
		t.Errorf("the run did not exercise the faults it is about: %v, finishes %v", gw.faults, tally.finishes)
	}
}

// soakTurn reads the events of one turn until it finishes, checking that
// every call announced is finished exactly once unless a retry discarded it.
func soakTurn(t *testing.T, events <-chan agent.Event, turn int, finished map[string]bool, tally *soakTally) agent.Finish {
	t.Helper()
	started := make(map[string]bool)
	timeout := time.NewTimer(soakTurnTimeout)
	defer timeout.Stop()
	for {
		var ev agent.Event
		select {
		case e, ok := <-events:
			if !ok {
				t.Fatalf("turn %d: the events channel closed mid-turn", turn)
			}
			ev = e
		case <-timeout.C:
			buf := make([]byte, 1<<20)
			t.Fatalf("turn %d did not finish within %v:\n%s", turn, soakTurnTimeout, buf[:runtime.Stack(buf, true)])
		}
		switch ev.Kind {
		case agent.EventToolCallStarted:
			started[ev.Call.ID] = true
		case agent.EventRetrying:
			tally.retries++
			if ev.Retry.DiscardPartial {
				clear(started)
			}
		case agent.EventToolFinished:
			if finished[ev.Call.ID] {
				t.Errorf("turn %d: call %s finished twice", turn, ev.Call.ID)
			}
			finished[ev.Call.ID] = true
			delete(started, ev.Call.ID)
			tally.toolCalls++
		case agent.EventApprovalRequested:
			// The soak's tools are reads, which never ask.
			t.Errorf("turn %d: unexpected approval request for %s", turn, ev.Call.Name)
			ev.Approval.Reply(agent.Decision{Kind: agent.Deny})
		case agent.EventTurnStarted, agent.EventTextDelta, agent.EventReasoningDelta, agent.EventToolCallReady, agent.EventApprovalResolved,
			agent.EventToolRunning, agent.EventToolOutput, agent.EventUsage, agent.EventError, agent.EventRequest, agent.EventHook,
			agent.EventCompactionStarted, agent.EventCompactionFinished, agent.EventMessageAppended, agent.EventSubagent:
		case agent.EventTurnFinished:
			if len(started) > 0 {
				t.Errorf("turn %d: calls %v were announced but never finished", turn, started)
			}
			if ev.Finish == nil {
				t.Fatalf("turn %d: EventTurnFinished without a Finish", turn)
			}
			return *ev.Finish
		}
	}
}

// checkSoakHistory checks that every tool call in the conversation is
// answered by exactly one tool message right after it, and that no tool
// message answers nothing.
func checkSoakHistory(t *testing.T, msgs []provider.Message) {
	t.Helper()
	seen := make(map[string]bool)
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		switch m.Role {
		case provider.RoleTool:
			t.Errorf("message %d answers call %s, which no assistant message just made", i, m.ToolCallID)
		case provider.RoleAssistant:
			want := make(map[string]bool, len(m.ToolCalls))
			for _, c := range m.ToolCalls {
				if seen[c.ID] || want[c.ID] {
					t.Errorf("message %d reuses the call id %s", i, c.ID)
				}
				want[c.ID] = true
				seen[c.ID] = true
			}
			for i+1 < len(msgs) && msgs[i+1].Role == provider.RoleTool {
				i++
				id := msgs[i].ToolCallID
				if !want[id] {
					t.Errorf("message %d answers call %s, which is not open (a second answer, or no such call)", i, id)
				}
				delete(want, id)
			}
			if len(want) > 0 {
				t.Errorf("message %d: calls %v have no result", i, want)
			}
		case provider.RoleSystem, provider.RoleUser:
		}
	}
}

// closeSoakLog writes what the recorder holds and closes the log, as tern
// does when it exits.
func closeSoakLog(rec *session.Recorder, w *session.Writer) error {
	return errors.Join(rec.Err(), rec.Flush(), w.Close())
}

// checkSoakReload loads the session log at path and restores it, as
// `tern --continue` does, and checks that it gives back the system prompt
// and exactly the conversation the agent held (held, system prompt first).
// It returns the number of records in the log.
func checkSoakReload(t *testing.T, path, system string, held []provider.Message) int {
	t.Helper()
	s, err := session.Load(path)
	if err != nil {
		t.Fatalf("load the session log: %v", err)
	}
	if len(s.Warnings) > 0 {
		t.Errorf("loading the session log warned: %q", s.Warnings)
	}
	st, err := session.Restore(s)
	if err != nil {
		t.Fatalf("restore the session: %v", err)
	}
	if len(st.Warnings) > 0 {
		t.Errorf("restoring the session warned: %q", st.Warnings)
	}
	if st.System != system {
		t.Errorf("restored system prompt %q, want %q", st.System, system)
	}
	want := held[1:]
	for i := range max(len(st.Messages), len(want)) {
		switch {
		case i >= len(st.Messages):
			t.Fatalf("the reloaded conversation ends after %d messages; the agent held %d, next %+v", i, len(want), want[i])
		case i >= len(want):
			t.Fatalf("the reloaded conversation has %d messages; the agent held %d, extra %+v", len(st.Messages), len(want), st.Messages[i])
		case !reflect.DeepEqual(st.Messages[i], want[i]):
			t.Fatalf("message %d differs after reloading:\n got %+v\nwant %+v", i, st.Messages[i], want[i])
		}
	}
	return len(s.Records)
}

// heapInUse returns the heap in use after a full collection.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// settleGoroutines gives goroutines ending from earlier tests a moment.
func settleGoroutines() {
	for range 50 {
		n := runtime.NumGoroutine()
		time.Sleep(10 * time.Millisecond)
		if runtime.NumGoroutine() >= n {
			return
		}
	}
}

// waitGoroutines waits until at most want goroutines run, or the time is
// up, and returns how many run.
func waitGoroutines(want int, within time.Duration) int {
	deadline := time.Now().Add(within)
	for {
		n := runtime.NumGoroutine()
		if n <= want || time.Now().After(deadline) {
			return n
		}
		time.Sleep(20 * time.Millisecond)
	}
}
