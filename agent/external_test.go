package agent

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// fakeSource is a tools.Source whose tools the test changes.
type fakeSource struct {
	mu     sync.Mutex
	tools  []tools.Tool
	waits  int
	onWait func()
}

func (s *fakeSource) Wait(context.Context) {
	s.mu.Lock()
	s.waits++
	f := s.onWait
	s.mu.Unlock()
	if f != nil {
		f()
	}
}

func (s *fakeSource) Tools() []tools.Tool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]tools.Tool(nil), s.tools...)
}

func (s *fakeSource) set(ts ...tools.Tool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tools = ts
}

// specNames lists a request's tool names.
func specNames(r provider.Request) string {
	var n []string
	for _, s := range r.Tools {
		n = append(n, s.Name)
	}
	return strings.Join(n, " ")
}

func TestExternalToolsChangeAtTurnBoundaries(t *testing.T) {
	t.Parallel()
	read, _, _ := fakeTools()
	echo := &fakeTool{name: "mcp__demo__echo", kind: tools.KindExternal, schema: `{"type":"object"}`}
	added := &fakeTool{name: "mcp__demo__added", kind: tools.KindExternal, schema: `{"type":"object"}`}
	src := &fakeSource{}
	// The servers finish starting while the first request waits.
	src.onWait = func() { src.set(echo) }
	h := newHarness(t, tools.NewRegistry(read), func(o *Options) { o.External = src; o.Policy = PolicyFullAuto },
		calls("mcp__demo__echo", `{}`), answer("done"), answer("again"))
	echo.run = func(context.Context, json.RawMessage, func(string)) tools.Result {
		src.set(added, echo) // tools/list_changed inside the turn
		return tools.Result{Status: tools.StatusOK, Output: "echoed", Summary: "ok"}
	}
	h.turn("one", nil)
	h.turn("two", nil)
	reqs := h.prov.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	for i, want := range []string{
		"read_file mcp__demo__echo",
		"read_file mcp__demo__echo", // same turn: unchanged
		"read_file mcp__demo__added mcp__demo__echo",
	} {
		if got := specNames(reqs[i]); got != want {
			t.Errorf("request %d offers %q, want %q", i+1, got, want)
		}
	}
	if len(echo.runs()) != 1 {
		t.Errorf("echo ran %d times", len(echo.runs()))
	}
	if !strings.Contains(reqs[1].Messages[len(reqs[1].Messages)-1].Content, "echoed") {
		t.Errorf("the result did not reach the next request: %+v", reqs[1].Messages)
	}
	if src.waits != 1 {
		t.Errorf("waited %d times for the servers, want once", src.waits)
	}
}

func TestExternalCallsAskUnderAsk(t *testing.T) {
	t.Parallel()
	read, _, _ := fakeTools()
	echo := &fakeTool{name: "mcp__demo__echo", kind: tools.KindExternal, schema: `{"type":"object"}`}
	src := &fakeSource{tools: []tools.Tool{echo}}
	h := newHarness(t, tools.NewRegistry(read), func(o *Options) { o.External = src },
		calls("mcp__demo__echo", `{}`), answer("done"), calls("mcp__demo__echo", `{}`), answer("done"))
	var asked int
	h.turn("one", func(ev Event) {
		if ev.Kind == EventApprovalRequested {
			asked++
			ev.Approval.Reply(Decision{Kind: AllowSession})
		}
	})
	h.turn("two", func(ev Event) {
		if ev.Kind == EventApprovalRequested {
			asked++
			ev.Approval.Reply(Decision{Kind: Deny})
		}
	})
	if asked != 1 || len(echo.runs()) != 2 {
		t.Errorf("asked %d times, ran %d times; want 1 and 2 (the grant covers the tool)", asked, len(echo.runs()))
	}
}

// fakeExternal is a fakeTool that says what an MCP tool says of itself.
type fakeExternal struct {
	*fakeTool
	readOnly bool
}

func (f fakeExternal) Server() string     { return "demo" }
func (f fakeExternal) Remote() string     { return strings.TrimPrefix(f.name, "mcp__demo__") }
func (f fakeExternal) ReadOnlyHint() bool { return f.readOnly }

func TestExternalCallsUnderReadOnly(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		trust, hint bool
		ran         int
	}{
		{false, false, 0}, {false, true, 0}, {true, false, 0}, {true, true, 1},
	} {
		read, _, _ := fakeTools()
		look := fakeExternal{&fakeTool{name: "mcp__demo__look", kind: tools.KindExternal, schema: `{"type":"object"}`}, c.hint}
		h := newHarness(t, tools.NewRegistry(read), func(o *Options) {
			o.External = &fakeSource{tools: []tools.Tool{look}}
			o.Policy = PolicyReadOnly
			o.TrustReadOnlyMCP = c.trust
		}, calls("mcp__demo__look", `{}`), answer("done"))
		evs := h.turn("look", reply(Decision{Kind: AllowOnce}))
		if got := len(look.runs()); got != c.ran {
			t.Errorf("trust %v, hint %v: ran %d times, want %d", c.trust, c.hint, got, c.ran)
		}
		if len(eventsOf(evs, EventApprovalRequested)) != 0 {
			t.Errorf("trust %v, hint %v: read-only asked", c.trust, c.hint)
		}
	}
}
