package tui

import (
	"math"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

func TestPricesCost(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		p    Prices
		u    provider.Usage
		want float64
	}{
		{"input and output", Prices{Input: 1, Output: 2}, provider.Usage{PromptTokens: 1_000_000, CompletionTokens: 500_000}, 2},
		{"cached at its own price", Prices{Input: 1, CachedInput: 0.25, Output: 2},
			provider.Usage{PromptTokens: 1_000_000, CachedPromptTokens: 400_000}, 0.6 + 0.1},
		{"no cached price: cached costs input", Prices{Input: 1}, provider.Usage{PromptTokens: 1_000_000, CachedPromptTokens: 400_000}, 1},
		{"cached above prompt is clamped", Prices{Input: 1, CachedInput: 0.5}, provider.Usage{PromptTokens: 100, CachedPromptTokens: 300}, 0.00005},
		{"nothing", Prices{Input: 1, Output: 1}, provider.Usage{}, 0},
	}
	for _, tt := range tests {
		if got := tt.p.Cost(tt.u); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: cost = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestMeterMedianTTFT(t *testing.T) {
	t.Parallel()
	ms := func(ns ...int) []time.Duration {
		var out []time.Duration
		for _, n := range ns {
			out = append(out, time.Duration(n)*time.Millisecond)
		}
		return out
	}
	tests := []struct {
		in   []time.Duration
		want time.Duration
		ok   bool
	}{
		{nil, 0, false},
		{ms(300), 300 * time.Millisecond, true},
		{ms(900, 100, 300), 300 * time.Millisecond, true},
		{ms(400, 100, 200, 900), 300 * time.Millisecond, true},
	}
	for _, tt := range tests {
		mt := meter{ttft: tt.in}
		got, ok := mt.medianTTFT()
		if got != tt.want || ok != tt.ok {
			t.Errorf("median(%v) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// req and used are the agent's meter events for one request.
func req(bytes, toolBytes int) agent.Event {
	return agent.Event{Kind: agent.EventRequest, Request: &agent.RequestInfo{Bytes: bytes, ToolResultBytes: toolBytes, Messages: 2}}
}

func used(prompt, cached, completion int, ttft time.Duration, estimated bool) agent.Event {
	return agent.Event{Kind: agent.EventUsage,
		Usage:    provider.Usage{PromptTokens: prompt, CachedPromptTokens: cached, CompletionTokens: completion},
		Response: &agent.ResponseInfo{FirstToken: ttft, Duration: 2 * ttft, Estimated: estimated}}
}

func TestCostCountsRequestsAndTTFT(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{Prices: &Prices{Input: 2, CachedInput: 0.5, Output: 8}})
	step(m, tea.WindowSizeMsg{Width: 100, Height: 50})
	call := &agent.Call{ID: "c1", Name: "read_file", Args: []byte(`{"path":"a.go"}`)}
	events(m, agent.Event{Kind: agent.EventTurnStarted, Text: "go"}, req(3000, 0),
		agent.Event{Kind: agent.EventReasoningDelta, Text: "hmm"},
		agent.Event{Kind: agent.EventToolCallStarted, Call: &agent.Call{ID: "c1", Name: "read_file"}},
		agent.Event{Kind: agent.EventToolCallReady, Call: call},
		used(1000, 0, 100, 200*time.Millisecond, false),
		agent.Event{Kind: agent.EventToolRunning, Call: call},
		agent.Event{Kind: agent.EventToolFinished, Call: call, Result: &agent.ToolResult{Status: tools.StatusOK, Summary: "1 line"}},
		req(5000, 2000),
		agent.Event{Kind: agent.EventTextDelta, Text: "done"},
		used(1200, 1000, 50, 600*time.Millisecond, false),
		agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
	if m.meter.requests != 2 || m.meter.reported != 2 {
		t.Fatalf("requests %d reported %d, want 2 and 2", m.meter.requests, m.meter.reported)
	}
	if d, _ := m.meter.medianTTFT(); d != 400*time.Millisecond {
		t.Fatalf("median TTFT = %v (all %v), want 400ms", d, m.meter.ttft)
	}
	typeText(m, "/cost")
	press(m, keyEnter)
	if len(fb.sent()) != 0 {
		t.Fatal("/cost was sent to the model")
	}
	s := screen(m)
	// Money: (1000*2 + 100*8 + 200*2 + 1000*0.5 + 50*8) / 1e6 = 0.0041.
	for _, want := range []string{"model requests       2", "prompt tokens        2200",
		"cached             1000", "completion tokens    150", "cache hit rate       45%", "first token (median) 400ms",
		"sent                 8.0 KB, 25% tool results", "cost                 $0.0041"} {
		if !strings.Contains(s, want) {
			t.Errorf("/cost lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "~") {
		t.Errorf("/cost marks reported figures as estimated:\n%s", s)
	}
}

func TestCostMarksEstimates(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{Prices: &Prices{Input: 1, Output: 1}})
	step(m, tea.WindowSizeMsg{Width: 120, Height: 50})
	events(m, agent.Event{Kind: agent.EventTurnStarted, Text: "go"},
		req(400, 0), used(100, 0, 10, 0, false),
		req(800, 300), used(200, 0, 20, 0, true),
		agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
	if st := m.statusLine(); !strings.Contains(ansi.Strip(st), "↑~300 ↓~30") || !strings.Contains(ansi.Strip(st), "ctx ~0% of 128k assumed") {
		t.Errorf("status line does not mark the estimate: %q", ansi.Strip(st))
	}
	typeText(m, "/cost")
	press(m, keyEnter)
	s := screen(m)
	for _, want := range []string{"model requests       2", "prompt tokens        ~300", "completion tokens    ~30",
		"cost                 ~$0.0003", "~ estimated at 4 bytes a token: the gateway reported no usage for 1 of 2 requests"} {
		if !strings.Contains(s, want) {
			t.Errorf("/cost lacks %q:\n%s", want, s)
		}
	}
}

func TestCostModelSwitch(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{Prices: &Prices{Input: 1, Output: 1}})
	events(m, agent.Event{Kind: agent.EventTurnStarted, Text: "go"}, req(100, 0), used(10, 0, 10, time.Millisecond, false),
		agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
	fb.SetModel("other-model")
	events(m, agent.Event{Kind: agent.EventTurnStarted, Text: "go"}, req(100, 0),
		used(1_000_000, 0, 0, time.Millisecond, false),
		agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
	typeText(m, "/cost")
	press(m, keyEnter)
	s := screen(m)
	if !strings.Contains(s, "$0.0000") || !strings.Contains(s, "1 requests on other models, not priced") {
		t.Fatalf("the other model's request was priced at the first one's prices:\n%s", s)
	}
}

func TestCostWithoutPricesSaysHow(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	step(m, tea.WindowSizeMsg{Width: 40, Height: 30})
	typeText(m, "/cost")
	press(m, keyEnter)
	s := screen(m)
	if !strings.Contains(s, "no prices") || !strings.Contains(s, "price_input") {
		t.Fatalf("/cost without prices:\n%s", s)
	}
	for _, l := range strings.Split(m.View().Content, "\n") {
		if w := ansi.StringWidth(l); w > 40 {
			t.Fatalf("a line of %d cells at width 40: %q", w, ansi.Strip(l))
		}
	}
}
