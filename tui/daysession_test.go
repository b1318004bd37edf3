package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/provider/providertest"
	"github.com/ternhq/tern/session"
	"github.com/ternhq/tern/tools"
)

// The in-process, CI-sized variant of the day-long session benchmark
// (cmd/tern/e2e_day_bench_test.go): the real session service, agent and
// recorder under the interface's model, without a terminal, for dayTurns
// turns of tool calls and Markdown with a compaction about every 18.

const (
	dayTurns         = 60
	dayWindow        = 24_000
	dayTokensPerUser = 1000
	// dayHeapGrowth bounds the live heap's growth from the first
	// compaction to the last: the transcript's own text is a few KB a
	// turn; the bound is loose for a loaded machine's allocator.
	dayHeapGrowth = 4 << 20
	dayTurnWait   = 20 * time.Second
)

// dayProvider answers like cmd/tern's day-long gateway: turn n reads or
// edits notes.txt on odd and even turns (none every third), then answers in
// Markdown; a compaction request gets a summary. Prompts are reported at
// dayTokensPerUser a user message.
type dayProvider struct {
	mu          sync.Mutex
	last        []provider.Message
	answer      string
	compactions int
}

func (p *dayProvider) Stream(ctx context.Context, req provider.Request) (provider.Stream, error) {
	msgs := req.Messages
	users := 0
	n := 0
	for _, m := range msgs {
		if m.Role == provider.RoleUser {
			users++
			if v, ok := strings.CutPrefix(m.Content, "turn "); ok {
				n, _ = strconv.Atoi(v)
			}
		}
	}
	u := provider.Usage{PromptTokens: users * dayTokensPerUser, CompletionTokens: 40}
	last := msgs[len(msgs)-1]
	p.mu.Lock()
	defer p.mu.Unlock()
	if last.Role == provider.RoleUser && strings.Contains(last.Content, "Compaction request") {
		p.compactions++
		return providertest.NewStream(ctx, providertest.Answer(u, "## Goal\nThe numbered turns.\n## Open tasks\n- the next turn")), nil
	}
	var s providertest.Script
	id := func(name string, _ int) string { return fmt.Sprintf("call_%d_%s", n, name) }
	switch {
	case last.Role == provider.RoleUser && n%3 == 1:
		s = providertest.Calls(u, id, tools.ReadFileName, `{"path":"notes.txt"}`)
	case last.Role == provider.RoleUser && n%3 == 2:
		s = providertest.Calls(u, id, tools.EditFileName, fmt.Sprintf(`{"path":"notes.txt","old_string":"line %d todo\n","new_string":"line %d done\n"}`, n, n))
	default:
		answer := fmt.Sprintf("## Turn %d\n\nA paragraph with `code` and **bold**.\n\n- one\n- two\n\n```go\nfunc turn%d() {}\n```\n\nDAY-DONE-%d", n, n, n)
		s = providertest.Answer(u, answer[:len(answer)/2], answer[len(answer)/2:])
		p.answer = answer
	}
	p.last = append([]provider.Message(nil), msgs...)
	return providertest.NewStream(ctx, s), nil
}

// dayPump runs the model's commands as Bubble Tea would, each on its own
// goroutine, and hands their messages back in order; stop ends it.
type dayPump struct {
	msgs chan tea.Msg
	stop chan struct{}
	wg   sync.WaitGroup
	// running counts the commands running, to tell the session's
	// goroutines from the pump's.
	running atomic.Int32
}

func (p *dayPump) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	p.wg.Add(1)
	p.running.Add(1)
	go func() {
		defer p.wg.Done()
		defer p.running.Add(-1)
		msg := cmd()
		switch msg := msg.(type) {
		case nil:
			return
		case tea.BatchMsg:
			for _, c := range msg {
				p.run(c)
			}
			return
		}
		select {
		case p.msgs <- msg:
		case <-p.stop:
		}
	}()
}

// until feeds messages to m until done accepts it.
func (p *dayPump) until(t *testing.T, m *model, what string, done func() bool) {
	t.Helper()
	deadline := time.After(dayTurnWait)
	for !done() {
		select {
		case msg := <-p.msgs:
			_, cmd := m.Update(msg)
			p.run(cmd)
		case <-deadline:
			t.Fatalf("after %v still waiting for %s", dayTurnWait, what)
		}
	}
}

func TestDaySessionStaysFlat(t *testing.T) {
	// Not parallel: it counts the process's goroutines.
	if testing.Short() {
		t.Skip("drives 60 turns through the real agent")
	}
	home, dir := t.TempDir(), t.TempDir()
	var notes strings.Builder
	for i := 1; i <= dayTurns; i++ {
		fmt.Fprintf(&notes, "line %d todo\n", i)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte(notes.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	baseline := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	prov := &dayProvider{}
	sess, err := app.New(ctx, app.Options{
		Version: "test", Provider: prov, Host: "test", Workspace: ws,
		Registry: tools.NewRegistry(tools.NewReadFile(ws), tools.NewEditFile(ws)),
		System:   "You are a test.", Model: "day-model", Policy: agent.PolicyFullAuto,
		Home: home, Window: func(string) int { return dayWindow },
	})
	if err != nil {
		t.Fatal(err)
	}
	runDone := make(chan struct{})
	go func() {
		defer close(runDone)
		sess.Run(ctx)
	}()
	m := newModel(ctx, Options{App: sess, Workspace: dir, Theme: "dark"}, noEnv)
	m.keyGuard = 0
	pump := &dayPump{msgs: make(chan tea.Msg, 64), stop: make(chan struct{})}
	_, cmd := m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	pump.run(cmd)
	pump.run(m.Init())

	type sample struct {
		turn, goroutines int
		heap             uint64
	}
	var samples []sample
	measure := func(turn int) {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		samples = append(samples, sample{turn, runtime.NumGoroutine() - int(pump.running.Load()), ms.HeapAlloc})
	}
	compactions := 0
	for n := 1; n <= dayTurns; n++ {
		for _, r := range fmt.Sprintf("turn %d", n) {
			_, cmd := m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
			pump.run(cmd)
		}
		_, cmd := m.Update(keyEnter)
		pump.run(cmd)
		want := fmt.Sprintf("DAY-DONE-%d", n)
		pump.until(t, m, "turn "+strconv.Itoa(n)+" to end", func() bool {
			a, ok := lastAnswer(m)
			return !m.busy && !m.awaiting && ok && strings.Contains(a, want)
		})
		prov.mu.Lock()
		c := prov.compactions
		prov.mu.Unlock()
		if c > compactions {
			compactions = c
			measure(n)
		}
	}
	if len(samples) < 2 {
		t.Fatalf("%d compactions in %d turns, want at least 2", len(samples), dayTurns)
	}
	first, last := samples[0], samples[len(samples)-1]
	t.Logf("after compactions (turn, goroutines, heap): %+v", samples)
	if last.goroutines > first.goroutines {
		t.Errorf("goroutines grew from %d after the first compaction (turn %d) to %d after the last (turn %d)", first.goroutines, first.turn, last.goroutines, last.turn)
	}
	if last.heap > first.heap+dayHeapGrowth {
		t.Errorf("live heap grew from %d to %d bytes between the compactions after turns %d and %d", first.heap, last.heap, first.turn, last.turn)
	}

	// Quit: the agent stops, its events drain, the log closes.
	prov.mu.Lock()
	conv, answer := prov.last, prov.answer
	prov.mu.Unlock()
	cancel()
	close(pump.stop)
	for range sess.Events() {
	}
	<-runDone
	if err := sess.Close(); err != nil {
		t.Fatal(err)
	}
	pump.wg.Wait()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > baseline && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > baseline {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines after quitting, %d before the session:\n%s", g, baseline, buf[:runtime.Stack(buf, true)])
	}

	info, err := session.Latest(home, ws.Root)
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := session.Load(info.Path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := session.Restore(loaded)
	if err != nil {
		t.Fatal(err)
	}
	want := append(append([]provider.Message(nil), conv[1:]...), provider.Message{Role: provider.RoleAssistant, Content: answer})
	if conv[0].Content != st.System {
		t.Errorf("the reloaded system prompt differs")
	}
	if !reflect.DeepEqual(st.Messages, want) {
		t.Errorf("the reloaded conversation (%d messages) differs from the last request and its answer (%d)", len(st.Messages), len(want))
		for i := range min(len(want), len(st.Messages)) {
			if !reflect.DeepEqual(st.Messages[i], want[i]) {
				t.Fatalf("first difference at message %d:\n%+v\nwant\n%+v", i, st.Messages[i], want[i])
			}
		}
	}
}

// lastAnswer is the text of the transcript's last answer.
func lastAnswer(m *model) (string, bool) {
	for i := len(m.tr.blocks) - 1; i >= 0; i-- {
		if b, ok := m.tr.blocks[i].(*assistantBlock); ok {
			return b.text(), true
		}
	}
	return "", false
}
