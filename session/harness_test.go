package session

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/provider/providertest"
	"github.com/ternhq/tern/tools"
)

// script is one scripted model answer; fakeProvider replays them.
type (
	script       = providertest.Script
	fakeProvider = providertest.Provider
)

// Delta and script constructors, with this package's usage figures.
func text(s string) provider.Delta      { return providertest.Text(s) }
func reasoning(s string) provider.Delta { return providertest.Reasoning(s) }
func finish(r provider.FinishReason) provider.Delta {
	return providertest.Finish(r)
}
func usage(p, c, cached int) provider.Delta {
	return providertest.Usage(provider.Usage{PromptTokens: p, CompletionTokens: c, CachedPromptTokens: cached})
}

// answer is a text answer.
func answer(parts ...string) script {
	return providertest.Answer(provider.Usage{PromptTokens: 100, CompletionTokens: 10, CachedPromptTokens: 50}, parts...)
}

// callSeq numbers the gateway call ids of scripts.
var callSeq atomic.Int64

// calls is an answer made of tool calls, given as name and JSON arguments
// pairs, each streamed in two fragments after an optional text.
func calls(say string, nameArgs ...string) script {
	id := func(string, int) string { return fmt.Sprintf("gw_%d", callSeq.Add(1)) }
	s := providertest.Calls(provider.Usage{PromptTokens: 200, CompletionTokens: 20, CachedPromptTokens: 100}, id, nameArgs...)
	if say != "" {
		s.Deltas = append([]provider.Delta{text(say)}, s.Deltas...)
	}
	return s
}

// args encodes tool arguments.
func args(kv ...string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// harness runs a real agent with the real tools on a temporary workspace,
// recording its session with a Recorder and a Checkpointer.
type harness struct {
	t      *testing.T
	home   string
	ws     string
	prov   *fakeProvider
	w      *Writer
	rec    *Recorder
	shadow *Shadow
	a      *agent.Agent
	events <-chan agent.Event
	stop   context.CancelFunc
	done   chan struct{}
	// decide answers approval requests; nil allows once.
	decide func(*agent.ApprovalRequest) agent.Decision
	// onEvent sees every event as it arrives (to cancel at a point).
	onEvent func(agent.Event)
}

type harnessOptions struct {
	git      bool
	files    map[string]string
	policy   agent.Policy
	maxSteps int
	// window and threshold set the agent's ContextWindow and
	// CompactThreshold (automatic compaction).
	window, threshold int
	// resume continues the session of this state instead of starting one.
	resume *State
	// subagents offers the task tool.
	subagents bool
	path      string
	home      string
	ws        string
}

func newHarness(t *testing.T, o harnessOptions) *harness {
	t.Helper()
	h := &harness{t: t, prov: &fakeProvider{}, home: o.home, ws: o.ws}
	if h.home == "" {
		h.home = t.TempDir()
	}
	if h.ws == "" {
		if o.git {
			h.ws = gitRepo(t, o.files)
		} else {
			dir, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			writeFiles(t, dir, o.files)
			h.ws = dir
		}
	}
	ws, err := tools.NewWorkspace(h.ws)
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.DefaultRegistry(ws, os.Environ())
	ctx := context.Background()
	if sh, err := OpenShadow(ctx, h.home, h.ws); err == nil {
		h.shadow = sh
	}
	specs := make([]provider.ToolSpec, 0)
	for _, s := range reg.Specs() {
		specs = append(specs, provider.ToolSpec{Name: s.Name, Description: s.Description, Parameters: s.Parameters})
	}
	opts := agent.Options{
		Provider: h.prov, Model: "model-a", Tools: reg, Workspace: ws, Policy: o.policy, MaxSteps: o.maxSteps,
		System: "You are tern, in " + h.ws + ".", ContextWindow: o.window, CompactThreshold: o.threshold,
	}
	if o.subagents {
		opts.Subagents = &agent.Subagents{}
	}
	if o.resume != nil {
		opts.System, opts.Model, opts.Policy = o.resume.System, o.resume.Model, o.resume.Policy
		opts.History, opts.Grants = o.resume.Messages, o.resume.Grants
		h.w, err = OpenAppend(o.path)
	} else {
		h.w, err = Create(h.home, Header{
			TernVersion: "test", Workspace: h.ws, Model: opts.Model, ApprovalPolicy: policyName(o.policy),
			SystemPrompt: opts.System, ToolsHash: ToolsHash(specs),
		})
	}
	if err != nil {
		t.Fatal(err)
	}
	h.a, err = agent.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	h.rec = NewRecorder(h.w)
	if o.resume != nil {
		h.rec.StartAfter(o.resume.LastTurn)
	}
	NewCheckpointer(h.rec, h.shadow).Install(ws)

	runCtx, stop := context.WithCancel(ctx)
	h.stop, h.done = stop, make(chan struct{})
	go func() {
		defer close(h.done)
		h.a.Run(runCtx)
	}()
	h.events = h.rec.Tap(runCtx, h.a.Events())
	t.Cleanup(h.close)
	return h
}

func policyName(p agent.Policy) string {
	if p == 0 {
		return agent.PolicyAsk.String()
	}
	return p.String()
}

// close stops the agent and closes the log.
func (h *harness) close() {
	h.stop()
	for range h.events {
	}
	<-h.done
	_ = h.rec.Flush()
	_ = h.w.Close()
}

// turn submits text and returns the turn's events, answering approvals.
func (h *harness) turn(text string) []agent.Event {
	h.t.Helper()
	if err := h.a.Submit(text); err != nil {
		h.t.Fatal(err)
	}
	var evs []agent.Event
	timeout := time.After(20 * time.Second)
	for {
		select {
		case ev, ok := <-h.events:
			if !ok {
				h.t.Fatal("events closed during a turn")
			}
			evs = append(evs, ev)
			if h.onEvent != nil {
				h.onEvent(ev)
			}
			if ev.Kind == agent.EventApprovalRequested {
				d := agent.Decision{Kind: agent.AllowOnce}
				if h.decide != nil {
					d = h.decide(ev.Approval)
				}
				if d.Kind != 0 {
					ev.Approval.Reply(d)
				}
			}
			if ev.Kind == agent.EventTurnFinished {
				return evs
			}
		case <-timeout:
			h.t.Fatalf("turn %q did not finish; events so far: %v", text, kinds(evs))
		}
	}
}

func kinds(evs []agent.Event) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Kind.String()
	}
	return out
}

// restored flushes the log and restores it.
func (h *harness) restored() State {
	h.t.Helper()
	if err := h.rec.Flush(); err != nil {
		h.t.Fatal(err)
	}
	s, err := Load(h.w.Path())
	if err != nil {
		h.t.Fatal(err)
	}
	st, err := Restore(s)
	if err != nil {
		h.t.Fatal(err)
	}
	return st
}

// checkConversation fails unless the restored conversation is exactly the
// agent's (after its system prompt).
func (h *harness) checkConversation(st State) {
	h.t.Helper()
	want := h.a.Messages()
	if len(want) == 0 || want[0].Role != provider.RoleSystem {
		h.t.Fatalf("agent history has no system prompt: %s", dump(want))
	}
	if st.System != want[0].Content {
		h.t.Errorf("system prompt = %q, want %q", st.System, want[0].Content)
	}
	if !reflect.DeepEqual(nilIfEmpty(st.Messages), nilIfEmpty(want[1:])) {
		h.t.Errorf("restored conversation differs from the agent's\n got: %s\nwant: %s", dump(st.Messages), dump(want[1:]))
	}
}

func nilIfEmpty(ms []provider.Message) []provider.Message {
	if len(ms) == 0 {
		return nil
	}
	for i := range ms {
		if len(ms[i].ToolCalls) == 0 {
			ms[i].ToolCalls = nil
		}
		// A picture's dimensions describe it to the user and are never
		// sent, so the log does not keep them.
		images := slices.Clone(ms[i].Images)
		for j := range images {
			images[j].Width, images[j].Height = 0, 0
		}
		ms[i].Images = images
	}
	return ms
}

func dump(ms []provider.Message) string {
	var b strings.Builder
	for _, m := range ms {
		j, _ := json.Marshal(m)
		b.WriteString("\n  ")
		b.Write(j)
	}
	return b.String()
}

func (h *harness) file(rel string) (string, bool) {
	h.t.Helper()
	return readFile(h.t, h.ws, rel)
}

func (h *harness) rewinder() *Rewinder {
	return NewRewinder(h.rec, h.shadow, h.ws)
}
