package tui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/provider/models"
)

// withModelFacts gives the fake a database knowing "thinker" (reasons)
// and "plain", both at list prices.
func withModelFacts(f *fakeBackend) {
	f.models = func(context.Context) ([]string, error) { return []string{"plain", "thinker", "local"}, nil }
	f.info = func(m string) (models.Info, bool) {
		switch m {
		case "thinker":
			return models.Info{ID: m, ContextWindow: 200_000, Reasons: true, EffortLevels: []string{"low", "medium", "high"}, DefaultEffort: "medium",
				Prices: models.Prices{Input: 2, Output: 8}}, true
		case "plain":
			return models.Info{ID: m, ContextWindow: 64_000, Prices: models.Prices{Input: 1, Output: 2}}, true
		}
		return models.Info{}, false
	}
	f.prices = func(m string) (agent.Prices, app.PriceSource) {
		if info, ok := f.info(m); ok {
			return agent.Prices{Input: info.Prices.Input, Output: info.Prices.Output}, app.PricesList
		}
		return agent.Prices{}, app.PricesNone
	}
}

func TestModelPickerChoosesTheEffort(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{}, withModelFacts)
	step(m, tea.WindowSizeMsg{Width: 120, Height: 30})
	typeText(m, "/model")
	press(m, keyEnter)
	if m.pal == nil || m.pal.kind != palModels {
		t.Fatalf("no model picker (notice %q)", m.notice)
	}
	if s := screen(m); !strings.Contains(s, "200k ctx · reasons: low/medium/high") {
		t.Errorf("the picker does not show the effort levels:\n%s", s)
	}
	typeText(m, "thinker")
	press(m, keyEnter)
	if fb.Model() != "thinker" || m.pal == nil || m.pal.kind != palEfforts {
		t.Fatalf("model %q, no effort picker after choosing a model that reasons", fb.Model())
	}
	press(m, keyDown) // default → low
	press(m, keyDown) // → medium
	press(m, keyDown) // → high
	press(m, keyEnter)
	if fb.Effort() != "high" || m.pal != nil {
		t.Fatalf("effort %q", fb.Effort())
	}
	if s := ansi.Strip(m.statusLine()); !strings.Contains(s, "thinker (high)") {
		t.Errorf("status line lacks the effort: %q", s)
	}
	// A model that does not reason opens no effort picker, and the status
	// line shows no effort it would not get.
	typeText(m, "/model plain")
	press(m, keyEnter)
	if m.pal != nil {
		t.Error("an effort picker for a model that does not reason")
	}
	if s := ansi.Strip(m.statusLine()); strings.Contains(s, "(high)") {
		t.Errorf("status line shows an effort the model does not get: %q", s)
	}
	// /model <id> <effort> does both.
	typeText(m, "/model thinker low")
	press(m, keyEnter)
	if fb.Model() != "thinker" || fb.Effort() != "low" {
		t.Errorf("/model thinker low: model %q effort %q", fb.Model(), fb.Effort())
	}
}

func TestListPricesAreMarked(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{}, withModelFacts, func(f *fakeBackend) { f.model = "plain" })
	step(m, tea.WindowSizeMsg{Width: 140, Height: 40})
	m.meter.add(fb.Model(), provider.Usage{PromptTokens: 1_000_000, CompletionTokens: 500_000}, nil, m.prices())
	if s := ansi.Strip(m.statusLine()); !strings.Contains(s, "$2.0000 list") {
		t.Errorf("status line: %q", s)
	}
	typeText(m, "/cost")
	press(m, keyEnter)
	s := screen(m)
	for _, want := range []string{"$2.0000", "list prices from the model database"} {
		if !strings.Contains(s, want) {
			t.Errorf("/cost lacks %q:\n%s", want, s)
		}
	}
}
