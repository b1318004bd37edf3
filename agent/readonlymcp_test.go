package agent

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// fakeMCP is an MCP tool as tools/mcp makes it: it says it is read-only
// (tools.ReadOnly) when its server marks it readOnlyHint and the source
// was given mcp_trust_read_only (trust); claims makes it say so anyway.
type fakeMCP struct {
	fakeExternal
	trust, claims bool
}

func (f fakeMCP) ReadOnly() bool { return f.claims || (f.readOnly && f.trust) }

// mcpTool is a fakeMCP named mcp__demo__<remote>.
func mcpTool(remote string, hint, trust bool) fakeMCP {
	return fakeMCP{fakeExternal: fakeExternal{&fakeTool{name: "mcp__demo__" + remote, kind: tools.KindExternal, schema: `{"type":"object"}`}, hint}, trust: trust}
}

func TestSubagentGetsTrustedReadOnlyMCPTools(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		trust  bool
		policy Policy
		// offered is what the child is offered; ran how many times look
		// ran; asked whether the child's call asked.
		offered string
		ran     int
		asked   bool
	}{
		{"trusted under read-only", true, PolicyReadOnly, "read_file mcp__demo__look", 1, false},
		{"trusted under ask asks as before", true, PolicyAsk, "read_file mcp__demo__look", 1, true},
		{"untrusted hint", false, PolicyReadOnly, "read_file", 0, false},
		{"untrusted hint under full-auto", false, PolicyFullAuto, "read_file", 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			read, _, _ := fakeTools()
			look := mcpTool("look", true, c.trust)
			echo := mcpTool("echo", false, c.trust) // not marked read-only: never a child's
			var mu sync.Mutex
			var offered []string
			g := &gateway{route: func(req provider.Request) script {
				switch {
				case isChild(req) && len(toolResults(req)) == 0:
					mu.Lock()
					offered = append(offered, specNames(req))
					mu.Unlock()
					return calls("mcp__demo__look", `{}`, "mcp__demo__echo", `{}`)
				case isChild(req):
					return answer("looked")
				case len(toolResults(req)) == 0:
					return calls("task", taskCall("Look around", "look"))
				default:
					return answer("done")
				}
			}}
			h := taskHarness(t, g, tools.NewRegistry(read), func(o *Options) {
				o.External = &fakeSource{tools: []tools.Tool{echo, look}}
				o.TrustReadOnlyMCP = c.trust
				o.Policy = c.policy
			})
			asked := false
			evs := h.turn("go", func(ev Event) {
				if ev.Kind == EventSubagent && ev.Sub.Kind == EventApprovalRequested {
					asked = true
					ev.Sub.Approval.Reply(Decision{Kind: AllowOnce})
				}
			})
			if fin := finishOf(t, evs); fin.Reason != FinishDone {
				t.Fatalf("finish %+v", fin)
			}
			if len(offered) != 1 || offered[0] != c.offered {
				t.Errorf("the child was offered %q, want %q", offered, c.offered)
			}
			if got := len(look.runs()); got != c.ran {
				t.Errorf("look ran %d times, want %d", got, c.ran)
			}
			if len(echo.runs()) != 0 {
				t.Error("the child ran a tool not marked read-only")
			}
			if asked != c.asked {
				t.Errorf("the child's call asked: %v, want %v", asked, c.asked)
			}
			done := eventsOf(evs, EventToolFinished)
			sub := eventsOf(subEvents(evs, done[len(done)-1].Call.ID), EventToolFinished)
			for _, ev := range sub {
				refused := strings.Contains(ev.Result.Output, "is not among a subagent's tools")
				if want := ev.Call.Name == "mcp__demo__echo" || c.ran == 0; refused != want {
					t.Errorf("%s: refused %v, want %v (%q)", ev.Call.Name, refused, want, ev.Result.Output)
				}
			}
		})
	}
}

func TestReadOnlyMCPCallsRunInParallel(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name         string
		trust, hint  bool
		claims       bool
		agentTrusted bool
		overlap      bool
	}{
		{"trusted readOnlyHint", true, true, false, true, true},
		{"untrusted readOnlyHint", false, true, false, false, false},
		{"trusted, no hint", true, false, false, true, false},
		// A tool that says it is read-only without the agent's trust
		// still runs alone: the agent follows the approval engine.
		{"claims read-only, agent untrusted", false, true, true, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var running, most atomic.Int32
			slow := func(context.Context, json.RawMessage, func(string)) tools.Result {
				n := running.Add(1)
				for {
					m := most.Load()
					if n <= m || most.CompareAndSwap(m, n) {
						break
					}
				}
				time.Sleep(80 * time.Millisecond)
				running.Add(-1)
				return tools.Result{Status: tools.StatusOK, Output: "looked", Summary: "ok"}
			}
			one, two := mcpTool("one", c.hint, c.trust), mcpTool("two", c.hint, c.trust)
			one.claims, two.claims = c.claims, c.claims
			one.run, two.run = slow, slow
			read, _, _ := fakeTools()
			h := newHarness(t, tools.NewRegistry(read), func(o *Options) {
				o.External = &fakeSource{tools: []tools.Tool{one, two}}
				o.TrustReadOnlyMCP = c.agentTrusted
				o.Policy = PolicyFullAuto
			}, calls("mcp__demo__one", `{}`, "mcp__demo__two", `{}`), answer("done"))
			evs := h.turn("look twice", nil)
			if fin := finishOf(t, evs); fin.Reason != FinishDone {
				t.Fatalf("finish %+v", fin)
			}
			if len(one.runs()) != 1 || len(two.runs()) != 1 {
				t.Fatalf("runs %d and %d", len(one.runs()), len(two.runs()))
			}
			if got := most.Load() > 1; got != c.overlap {
				t.Errorf("the calls overlapped: %v, want %v", got, c.overlap)
			}
		})
	}
}
