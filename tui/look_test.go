package tui

import (
	"image/color"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tui/markdown"
)

func TestBackgroundColourPicksTheme(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{Theme: "auto"})
	events(m, agent.Event{Kind: agent.EventTurnStarted}, agent.Event{Kind: agent.EventTextDelta, Text: "# Title\n"})
	frame(m)
	gen := m.rc.gen
	step(m, tea.BackgroundColorMsg{Color: color.RGBA{R: 250, G: 250, B: 250, A: 255}})
	if m.dark || m.rc.th.md != markdown.Light || m.rc.gen == gen {
		t.Fatalf("light background ignored: dark=%v md=%v", m.dark, m.rc.th.md)
	}
	if !strings.Contains(screen(m), "Title") {
		t.Fatal("transcript lost on theme change")
	}
}

func TestThemeOverrideWins(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{Theme: "light"})
	step(m, tea.BackgroundColorMsg{Color: color.RGBA{A: 255}})
	if m.dark {
		t.Fatal("--theme light overridden by the terminal")
	}
}

func TestNoColor(t *testing.T) {
	t.Parallel()
	fb := newFakeBackend()
	t.Cleanup(fb.close)
	env := func(k string) string {
		if k == "NO_COLOR" {
			return "1"
		}
		return ""
	}
	m := newModel(t.Context(), Options{App: fb, Theme: "dark", Workspace: "/w"}, env)
	m.clock = func() time.Time { return fixedClock }
	step(m, tea.WindowSizeMsg{Width: 80, Height: 30})
	events(m, agent.Event{Kind: agent.EventTurnStarted, Text: "hi"}, agent.Event{Kind: agent.EventTextDelta, Text: "# Title\n\nsome `code` and **bold**\n"})
	call, req := editRequest("c")
	events(m, agent.Event{Kind: agent.EventApprovalRequested, Call: call, Approval: req})
	frame(m)
	if c := colourCode(m.View().Content); c != "" {
		t.Fatalf("colour SGR %q drawn with NO_COLOR", c)
	}
	coloured, _ := newTestModel(t, Options{})
	if colourCode(coloured.View().Content) == "" {
		t.Fatal("the check finds no colour even without NO_COLOR")
	}
}

var sgrRe = regexp.MustCompile(`\x1b\[([0-9;:]*)m`)

// colourCode returns the first SGR sequence in s that sets a colour.
func colourCode(s string) string {
	for _, m := range sgrRe.FindAllStringSubmatch(s, -1) {
		for _, p := range strings.FieldsFunc(m[1], func(r rune) bool { return r == ';' || r == ':' }) {
			n, _ := strconv.Atoi(p)
			if (n >= 30 && n <= 38) || (n >= 40 && n <= 48) || (n >= 90 && n <= 97) || (n >= 100 && n <= 107) {
				return m[0]
			}
		}
	}
	return ""
}

func TestResizeReflows(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	long := strings.Repeat("word ", 60)
	events(m, agent.Event{Kind: agent.EventTurnStarted}, agent.Event{Kind: agent.EventTextDelta, Text: long + "\n"},
		agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
	typeText(m, strings.Repeat("typed ", 20))
	for _, w := range []int{80, 40, 120, 60} {
		step(m, tea.WindowSizeMsg{Width: w, Height: 20})
		lines := strings.Split(m.View().Content, "\n")
		if len(lines) != 20 {
			t.Fatalf("width %d: %d lines, want 20", w, len(lines))
		}
		for i, l := range lines {
			if n := ansi.StringWidth(l); n > w {
				t.Fatalf("width %d: line %d is %d cells: %q", w, i, n, ansi.Strip(l))
			}
		}
		if !strings.Contains(screen(m), "word word") {
			t.Fatalf("width %d: answer not visible", w)
		}
	}
}

func TestViewFillsScreenExactly(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	for _, h := range []int{10, 24, 50} {
		step(m, tea.WindowSizeMsg{Width: 80, Height: h})
		if n := strings.Count(m.View().Content, "\n") + 1; n != h {
			t.Errorf("height %d: view has %d lines", h, n)
		}
	}
}
