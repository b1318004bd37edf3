package doctor

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/cmd/tern/config"
	"github.com/ternhq/tern/provider/models"
)

func TestModelChecksSayWhereFiguresComeFrom(t *testing.T) {
	t.Parallel()
	reasoner := models.Info{ID: "o3", Provider: "openai", Match: models.MatchExact, ContextWindow: 200_000,
		Prices: models.Prices{Input: 2, Output: 8}, Reasons: true, EffortLevels: []string{"low", "medium", "high"}}
	db := func(m string) (models.Info, bool) { return reasoner, m == "o3" }
	gateway := func(_ context.Context, m string) (int, error) {
		if m == "listed" {
			return 64_000, nil
		}
		return 0, errors.New("not listed")
	}
	tests := []struct {
		name     string
		model    string
		settings config.ModelSettings
		effort   string
		facts    ModelFacts
		want     []string // window, prices, reasoning details contain these
	}{
		{"configured wins", "o3", config.ModelSettings{ContextWindow: 32_000, PriceInput: 1, PriceOutput: 1}, "", ModelFacts{Info: db, Window: gateway},
			[]string{"32000 tokens from config.toml", "configured (config.toml)", "its default effort"}},
		{"the gateway's list before the database", "listed", config.ModelSettings{}, "", ModelFacts{Info: db, Window: gateway},
			[]string{"64000 tokens from the gateway", "none known", "unknown to the model database"}},
		{"the database", "o3", config.ModelSettings{}, "high", ModelFacts{Info: db, Window: gateway},
			[]string{"200000 tokens from the model database (openai's o3, exact id)", "list prices from the model database", "effort high"}},
		{"assumed offline", "o3", config.ModelSettings{}, "", ModelFacts{},
			[]string{"128000 tokens assumed (default_context_window", "none known", "unknown to the model database"}},
		{"an effort the model lacks", "o3", config.ModelSettings{}, "xhigh", ModelFacts{Info: db},
			[]string{"200000", "list prices", `effort "xhigh"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := &config.Config{
				Model:                config.Value[string]{V: tc.model},
				Models:               map[string]config.ModelSettings{tc.model: tc.settings},
				DefaultContextWindow: config.Value[int]{V: config.DefaultContextWindow},
				ReasoningEffort:      config.Value[string]{V: tc.effort},
			}
			checks := modelChecks(context.Background(), c, tc.facts, time.Second)
			if len(checks) != 3 {
				t.Fatalf("%d checks", len(checks))
			}
			for i, want := range tc.want {
				if !strings.Contains(checks[i].Detail, want) {
					t.Errorf("%s: %q lacks %q", checks[i].Name, checks[i].Detail, want)
				}
			}
		})
	}
}
