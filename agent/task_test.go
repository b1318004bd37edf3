package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/provider/providertest"
	"github.com/ternhq/tern/tools"
)

// gateway answers each request by what it carries, so concurrent
// subagents get their own answers, and logs when each request starts and
// ends (its stream closed, or its context cancelled).
type gateway struct {
	route func(req provider.Request) script

	mu  sync.Mutex
	log []string
}

func (g *gateway) Stream(ctx context.Context, req provider.Request) (provider.Stream, error) {
	name := requestName(req)
	g.note("start " + name)
	go func() {
		<-ctx.Done()
		g.note("gone " + name)
	}()
	return &loggedStream{Stream: providertest.NewStream(ctx, g.route(req)), end: func() { g.note("end " + name) }}, nil
}

func (g *gateway) note(s string) {
	g.mu.Lock()
	g.log = append(g.log, s)
	g.mu.Unlock()
}

func (g *gateway) entries() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.log)
}

// index is where entry first appears in the log, -1 when it does not.
func (g *gateway) index(entry string) int { return slices.Index(g.entries(), entry) }

// loggedStream notes the end of its stream once.
type loggedStream struct {
	*providertest.Stream
	end  func()
	once sync.Once
}

func (s *loggedStream) Next() bool {
	if s.Stream.Next() {
		return true
	}
	s.once.Do(s.end)
	return false
}

// requestName names a request for the log: "parent" or "child:<prompt>",
// with the number of tool results it carries.
func requestName(req provider.Request) string {
	n := 0
	for _, m := range req.Messages {
		if m.Role == provider.RoleTool {
			n++
		}
	}
	if isChild(req) {
		return fmt.Sprintf("child:%s/%d", firstUser(req), n)
	}
	return fmt.Sprintf("parent/%d", n)
}

func isChild(req provider.Request) bool {
	return len(req.Messages) > 0 && strings.Contains(req.Messages[0].Content, subagentNote)
}

func firstUser(req provider.Request) string {
	for _, m := range req.Messages {
		if m.Role == provider.RoleUser {
			return m.Content
		}
	}
	return ""
}

// toolResults are the tool messages of a request.
func toolResults(req provider.Request) []provider.Message {
	var out []provider.Message
	for _, m := range req.Messages {
		if m.Role == provider.RoleTool {
			out = append(out, m)
		}
	}
	return out
}

// taskCall is the arguments of a task call.
func taskCall(desc, prompt string) string {
	b, _ := json.Marshal(map[string]string{"description": desc, "prompt": prompt})
	return string(b)
}

// taskHarness is a harness whose agent offers the task tool, on g.
func taskHarness(t *testing.T, g *gateway, reg *tools.Registry, configure func(*Options)) *harness {
	t.Helper()
	h := newHarness(t, reg, func(o *Options) {
		o.Provider = g
		o.Subagents = &Subagents{}
		if configure != nil {
			configure(o)
		}
	})
	h.appends = true
	return h
}

// subEvents are the child events of a turn, unwrapped, for one task call.
func subEvents(evs []Event, callID string) []Event {
	var out []Event
	for _, ev := range evs {
		if ev.Kind == EventSubagent && ev.Call != nil && ev.Call.ID == callID {
			out = append(out, *ev.Sub)
		}
	}
	return out
}

func TestTaskReadsFilesAndReturnsItsAnswerOnly(t *testing.T) {
	t.Parallel()
	read, edit, shell := fakeTools()
	read.run = func(_ context.Context, args json.RawMessage, _ func(string)) tools.Result {
		return tools.Result{Status: tools.StatusOK, Output: "1\tpackage secretsauce // " + string(args), Summary: "1 line"}
	}
	var childTools [][]string
	var mu sync.Mutex
	g := &gateway{route: func(req provider.Request) script {
		switch {
		case isChild(req):
			mu.Lock()
			var names []string
			for _, s := range req.Tools {
				names = append(names, s.Name)
			}
			childTools = append(childTools, names)
			mu.Unlock()
			if len(toolResults(req)) == 0 {
				return calls("read_file", `{"path":"a.go"}`, "read_file", `{"path":"b.go"}`)
			}
			return answer("a.go:1 and b.go:1 declare package secretsauce.")
		case len(toolResults(req)) == 0:
			return calls("task", taskCall("Find the package", "Which package do a.go and b.go declare?"))
		default:
			return answer("They declare secretsauce.")
		}
	}}
	h := taskHarness(t, g, tools.NewRegistry(read, edit, shell), nil)
	evs := h.turn("which package?", nil)
	if fin := finishOf(t, evs); fin.Reason != FinishDone || fin.Requests != 4 {
		t.Fatalf("finish %+v", fin)
	}
	done := eventsOf(evs, EventToolFinished)
	if len(done) != 1 || done[0].Call.Name != TaskTool || done[0].Result.Status != tools.StatusOK ||
		done[0].Result.Output != "a.go:1 and b.go:1 declare package secretsauce." {
		t.Fatalf("task result: %+v", done)
	}
	if s := done[0].Result.Summary; s != "2 tool calls, 2 requests" {
		t.Errorf("summary %q", s)
	}
	sub := subEvents(evs, done[0].Call.ID)
	if len(sub) == 0 || sub[0].Kind != EventTurnStarted || sub[0].Text != "Which package do a.go and b.go declare?" ||
		sub[len(sub)-1].Kind != EventTurnFinished {
		t.Fatalf("child events: %v", kinds(sub))
	}
	if n := len(eventsOf(sub, EventToolFinished)); n != 2 {
		t.Errorf("child finished %d calls", n)
	}
	for _, names := range childTools {
		if strings.Join(names, ",") != "read_file" {
			t.Errorf("the child was offered %v, want read_file only", names)
		}
	}
	for _, m := range h.a.Messages() {
		if strings.Contains(m.Content, "package secretsauce //") {
			t.Errorf("the child's read result entered the parent's conversation: %q", m.Content)
		}
	}
	checkHistory(t, h.a.Messages())
}

func TestSubagentCannotEditWriteRunOrStartTasks(t *testing.T) {
	t.Parallel()
	read, edit, shell := fakeTools()
	write := &fakeTool{name: tools.WriteFileName, kind: tools.KindEdit}
	g := &gateway{route: func(req provider.Request) script {
		switch {
		case isChild(req) && len(toolResults(req)) == 0:
			return calls("edit_file", `{"path":"a.go"}`, "write_file", `{"path":"b.go"}`,
				"run_shell", `{"command":"rm -rf x"}`, "task", taskCall("Nested", "go deeper"))
		case isChild(req):
			return answer("I could not change anything.")
		case len(toolResults(req)) == 0:
			return calls("task", taskCall("Change things", "edit a.go"))
		default:
			return answer("ok")
		}
	}}
	h := taskHarness(t, g, tools.NewRegistry(read, edit, write, shell), func(o *Options) { o.Policy = PolicyFullAuto })
	evs := h.turn("go", nil)
	done := eventsOf(evs, EventToolFinished)
	sub := eventsOf(subEvents(evs, done[len(done)-1].Call.ID), EventToolFinished)
	if len(sub) != 4 {
		t.Fatalf("child results: %d", len(sub))
	}
	for _, ev := range sub {
		r := ev.Result
		if r.Status != tools.StatusError || !strings.Contains(r.Output, "is not among a subagent's tools") || !strings.Contains(r.Output, "read_file") {
			t.Errorf("%s: %+v", ev.Call.Name, r)
		}
	}
	if len(edit.runs())+len(write.runs())+len(shell.runs()) != 0 {
		t.Error("a refused call ran")
	}
}

// slowChild answers a child's first request with a read after delay and
// its second with an answer naming its prompt.
func slowChild(req provider.Request, delay time.Duration) script {
	if len(toolResults(req)) == 0 {
		s := calls("read_file", `{"path":"`+firstUser(req)+`.go"}`)
		s.Delay = delay
		return s
	}
	return answer("answer for " + firstUser(req))
}

func TestTwoTasksOverlapAndKeepCallOrder(t *testing.T) {
	t.Parallel()
	read, _, _ := fakeTools()
	g := &gateway{route: func(req provider.Request) script {
		switch {
		case isChild(req) && firstUser(req) == "slow":
			return slowChild(req, 60*time.Millisecond)
		case isChild(req):
			return slowChild(req, 5*time.Millisecond)
		case len(toolResults(req)) == 0:
			return calls("task", taskCall("The slow one", "slow"), "task", taskCall("The quick one", "quick"))
		default:
			return answer("both done")
		}
	}}
	h := taskHarness(t, g, tools.NewRegistry(read), nil)
	evs := h.turn("go", nil)
	if fin := finishOf(t, evs); fin.Reason != FinishDone {
		t.Fatalf("finish %+v", fin)
	}
	// The quick child's request starts before the slow one's first ends.
	if q, s := g.index("start child:quick/0"), g.index("end child:slow/0"); q < 0 || s < 0 || q > s {
		t.Fatalf("the tasks did not overlap: %v", g.entries())
	}
	// The quick child finished first, yet the results keep call order.
	if g.index("end child:quick/1") > g.index("end child:slow/1") {
		t.Fatalf("the quick child did not finish first: %v", g.entries())
	}
	var results []string
	for _, m := range h.a.Messages() {
		if m.Role == provider.RoleTool {
			results = append(results, m.Content)
		}
	}
	if len(results) != 2 || !strings.Contains(results[0], "answer for slow") || !strings.Contains(results[1], "answer for quick") {
		t.Fatalf("results: %q", results)
	}
	checkHistory(t, h.a.Messages())
}

func TestCancelStopsEveryChild(t *testing.T) {
	t.Parallel()
	read, _, _ := fakeTools()
	g := &gateway{route: func(req provider.Request) script {
		switch {
		case isChild(req):
			return script{Hang: true}
		default:
			return calls("task", taskCall("One", "one"), "task", taskCall("Two", "two"), "task", taskCall("Three", "three"))
		}
	}}
	h := taskHarness(t, g, tools.NewRegistry(read), nil)
	started := 0
	evs := h.turn("go", func(ev Event) {
		if ev.Kind == EventSubagent && ev.Sub.Kind == EventRequest {
			if started++; started == 3 {
				h.a.Cancel()
			}
		}
	})
	if fin := finishOf(t, evs); fin.Reason != FinishCancelled {
		t.Fatalf("finish %+v", fin)
	}
	for _, name := range []string{"one", "two", "three"} {
		deadline := time.Now().Add(2 * time.Second)
		for g.index("gone child:"+name+"/0") < 0 && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if g.index("gone child:"+name+"/0") < 0 {
			t.Errorf("child %s was not disconnected: %v", name, g.entries())
		}
	}
	for _, ev := range eventsOf(evs, EventToolFinished) {
		if ev.Result.Status != tools.StatusCancelled {
			t.Errorf("%s: %+v", ev.Call.ID, ev.Result)
		}
	}
	checkHistory(t, h.a.Messages())
}

func TestBudgetStopsChildren(t *testing.T) {
	t.Parallel()
	read, _, _ := fakeTools()
	g := &gateway{route: func(req provider.Request) script {
		switch {
		case isChild(req):
			// A child that never stops reading.
			return calls("read_file", fmt.Sprintf(`{"path":"f%d.go"}`, len(toolResults(req))))
		case len(toolResults(req)) == 0:
			return calls("task", taskCall("Read forever", "read everything"))
		default:
			return answer("done")
		}
	}}
	h := taskHarness(t, g, tools.NewRegistry(read), func(o *Options) { o.Budget = Budget{MaxRequests: 4} })
	evs := h.turn("go", nil)
	fin := finishOf(t, evs)
	if fin.Reason != FinishBudget || fin.Requests != 4 {
		t.Fatalf("finish %+v", fin)
	}
	done := eventsOf(evs, EventToolFinished)
	if len(done) != 1 || done[0].Result.Status != tools.StatusError || !strings.Contains(done[0].Result.Output, "request budget") {
		t.Fatalf("task result: %+v", done)
	}
	if n := len(eventsOf(subEvents(evs, done[0].Call.ID), EventRequest)); n != 3 {
		t.Errorf("the child sent %d requests, want 3 of the 4", n)
	}
}

// changingProvider changes a file when a request carries the given number
// of tool results: the read the answer asks for sees the new content.
type changingProvider struct {
	provider.Provider
	at     int
	change func()
}

func (p changingProvider) Stream(ctx context.Context, req provider.Request) (provider.Stream, error) {
	if len(toolResults(req)) == p.at {
		p.change()
	}
	return p.Provider.Stream(ctx, req)
}

func TestUnchangedReRead(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("// a line of code that stays the same\n", 20)
	scripts := providertest.New(
		calls("read_file", `{"path":"a.go"}`),
		calls("read_file", `{"path":"./a.go"}`),
		calls("read_file", `{"path":"a.go","limit":5}`),
		calls("read_file", `{"path":"a.go"}`),
		answer("done"),
	)
	var h *harness
	prov := changingProvider{Provider: scripts, at: 3, change: func() {
		// The file changes before the fourth read.
		_ = os.WriteFile(filepath.Join(h.ws.Root, "a.go"), []byte(body+"// new\n"), 0o600)
	}}
	h = newHarness(t, tools.NewRegistry(), func(o *Options) { o.Provider = prov })
	h.a.opts.Tools.Add(tools.NewReadFile(h.ws))
	if err := os.WriteFile(filepath.Join(h.ws.Root, "a.go"), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	var outs []string
	h.turn("read a.go", func(ev Event) {
		if ev.Kind == EventToolFinished {
			outs = append(outs, ev.Result.Output)
		}
	})
	if len(outs) != 4 {
		t.Fatalf("%d results", len(outs))
	}
	first := h.a.Messages()[3].ToolCallID
	if want := "a.go (20 lines): unchanged since call " + first + ";"; !strings.HasPrefix(outs[1], want) {
		t.Errorf("second read: %q, want it to start %q", outs[1], want)
	}
	if !strings.Contains(outs[2], "     5\t") || strings.Contains(outs[2], "unchanged") {
		t.Errorf("another range is read again: %q", outs[2])
	}
	if !strings.Contains(outs[3], "// new") {
		t.Errorf("a changed file is read again: %q", outs[3])
	}
}
