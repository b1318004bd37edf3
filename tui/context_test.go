package tui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
)

func TestContextCard(t *testing.T) {
	t.Parallel()
	info := agent.ContextBytes{System: 4000, Tools: 8000, Memory: 2000, User: 400, Assistant: 1600, ToolResults: 24000}
	tests := []struct {
		name   string
		window int // the session's window for the model; 0: none known
		info   agent.ContextBytes
		want   []string
	}{
		{
			name: "assumed window",
			info: info,
			want: []string{"window 128k tokens (assumed", "system prompt     ~1.0k   0.8%", "tool specs        ~2.0k   1.6%",
				"memory files       ~500   0.4%", "user messages      ~100   0.1%", "assistant          ~400   0.3%",
				"tool results      ~6.0k   4.7%", "free space        ~118k  92.2%", "estimated at 4 bytes per token"},
		},
		{
			name:   "configured window, warning from 80 %",
			window: 12_000,
			info:   info,
			want:   []string{"window 12k tokens", "tool results      ~6.0k  50.0%", "free space        ~2.0k  16.7%", "⚠ 83% of the window is in use"},
		},
		{
			name:   "a large window",
			window: 1_000_000,
			info:   agent.ContextBytes{User: 4},
			want:   []string{"window 1.0M tokens", "user messages        ~1   0.0%"},
		},
		{
			name:   "over the window",
			window: 1000,
			info:   agent.ContextBytes{ToolResults: 8000},
			want:   []string{"free space           ~0   0.0%", "⚠ about 1.0k tokens over the window"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			calls := 0
			m, fb := newTestModel(t, Options{}, func(f *fakeBackend) {
				f.window = fixedWindow(tt.window)
				f.context = func() agent.ContextBytes { calls++; return tt.info }
			})
			step(m, tea.WindowSizeMsg{Width: 100, Height: 40})
			typeText(m, "/context")
			press(m, keyEnter)
			if calls != 1 || len(fb.sent()) != 0 {
				t.Fatalf("Context called %d times; sent %v", calls, fb.sent())
			}
			s := screen(m)
			for _, w := range tt.want {
				if !strings.Contains(s, w) {
					t.Errorf("/context lacks %q:\n%s", w, s)
				}
			}
			if tt.window == 0 && strings.Contains(s, "⚠") {
				t.Errorf("warned at a small use:\n%s", s)
			}
		})
	}
}

func TestContextCardNarrow(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{}, func(f *fakeBackend) {
		f.context = func() agent.ContextBytes { return agent.ContextBytes{System: 100} }
	})
	step(m, tea.WindowSizeMsg{Width: 30, Height: 40})
	typeText(m, "/context")
	press(m, keyEnter)
	for _, l := range strings.Split(m.View().Content, "\n") {
		if w := ansi.StringWidth(l); w > 30 {
			t.Fatalf("a line of %d cells at width 30: %q", w, ansi.Strip(l))
		}
	}
	if !strings.Contains(screen(m), "system prompt") {
		t.Fatalf("no card:\n%s", screen(m))
	}
}

func TestStatusLineWarnsAt80Percent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		prompt int
		want   string
		warn   bool
	}{
		{500, "ctx 50%", false},
		{790, "ctx 79%", false},
		{800, "⚠ ctx 80%", true},
		{1200, "⚠ ctx 120%", true},
	}
	for _, tt := range tests {
		m, _ := newTestModel(t, Options{}, func(f *fakeBackend) { f.window = fixedWindow(1000) })
		step(m, tea.WindowSizeMsg{Width: 120, Height: 24})
		events(m, agent.Event{Kind: agent.EventUsage, Usage: provider.Usage{PromptTokens: tt.prompt}})
		line := m.statusLine()
		plain := ansi.Strip(line)
		if !strings.Contains(plain, tt.want) {
			t.Errorf("%d tokens: status %q lacks %q", tt.prompt, plain, tt.want)
		}
		if got := strings.Contains(plain, "⚠"); got != tt.warn {
			t.Errorf("%d tokens: warning shown = %v", tt.prompt, got)
		}
	}
}

func TestContextWindowFromTheSession(t *testing.T) {
	t.Parallel()
	var asked []string
	window := func(_ context.Context, model string) (int, bool) {
		asked = append(asked, model)
		if model == "test-model" {
			return 1000, false
		}
		return 128_000, true
	}
	m, fb := newTestModel(t, Options{}, func(f *fakeBackend) { f.window = window })
	step(m, tea.WindowSizeMsg{Width: 120, Height: 24})
	if len(asked) != 1 {
		t.Fatalf("the window was asked for %q at start", asked)
	}
	m.meter.add("test-model", provider.Usage{PromptTokens: 850}, nil, nil)
	m.lastIn = 850
	s := ansi.Strip(m.statusLine())
	if !strings.Contains(s, "⚠ ctx 85% full") || strings.Contains(s, "assumed") {
		t.Errorf("with the session's window: %q", s)
	}
	if m.lookupWindow() != nil {
		t.Error("asked again for the window of the same model")
	}
	// Another model: assumed until the session answers, then as it says.
	fb.SetModel("other-model")
	if s := ansi.Strip(m.statusLine()); !strings.Contains(s, "ctx 0% of 128k assumed") {
		t.Errorf("before the session answered: %q", s)
	}
	cmd := m.lookupWindow()
	if cmd == nil {
		t.Fatal("no lookup of the new model's window")
	}
	m.onWindow(cmd().(windowMsg))
	if len(asked) != 2 || asked[1] != "other-model" {
		t.Errorf("asked for %q", asked)
	}
	if w, assumed := m.modelWindow(); w != 128_000 || !assumed {
		t.Errorf("window = %d, assumed %v", w, assumed)
	}
}

func TestContextCardShowsTheLastRequest(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{}, func(f *fakeBackend) {
		f.context = func() agent.ContextBytes { return agent.ContextBytes{System: 400} }
	})
	step(m, tea.WindowSizeMsg{Width: 140, Height: 40})
	rq := func(bytes, prefix int) agent.Event {
		return agent.Event{Kind: agent.EventRequest, Request: &agent.RequestInfo{Bytes: bytes, ToolsBytes: 200, Messages: 3, ToolResultBytes: bytes / 2, PrefixBytes: prefix}}
	}
	card := func() string { return ansi.Strip(strings.Join(m.contextLines(m.be.Context()), "\n")) }
	events(m, rq(1000, 0))
	if s := card(); !strings.Contains(s, "last request: 1.0 KB sent in 3 messages, 50% tool results") || strings.Contains(s, "previous request") {
		t.Errorf("first request:\n%s", s)
	}
	events(m, rq(1500, 799))
	if s := card(); !strings.Contains(s, "it began with the previous request unchanged") {
		t.Errorf("grown request:\n%s", s)
	}
	events(m, rq(1200, 100))
	if s := card(); !strings.Contains(s, "only its first 100 B matched the previous request") {
		t.Errorf("rewritten request:\n%s", s)
	}
}
