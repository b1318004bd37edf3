package models

import (
	"slices"
	"testing"
)

// TestEmbeddedFigures pins a few figures of the embedded database, so an
// update of charm.land/catwalk that changes them is noticed here and the
// change is a decision, not an accident.
func TestEmbeddedFigures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		id, baseURL   string
		provider      string
		window        int
		input, output float64
		cached        float64
		reasons       bool
		levels        []string
		images        bool
	}{
		{"gpt-4o-mini", "https://api.openai.com/v1", "openai", 128_000, 0.15, 0.6, 0.075, false, nil, true},
		{"openai/gpt-4o-mini", "", "openrouter", 128_000, 0.15, 0.6, 0.075, false, nil, true},
		{"o3", "", "openai", 200_000, 2, 8, 0.5, true, []string{"low", "medium", "high"}, true},
		{"gpt-5", "", "openai", 400_000, 1.25, 10, 0.125, true, []string{"minimal", "low", "medium", "high"}, true},
		{"claude-sonnet-4-6", "", "anthropic", 200_000, 3, 15, 0.3, true, []string{"low", "medium", "high", "max"}, true},
	}
	db := Embedded()
	for _, tc := range tests {
		info, ok := db.Lookup(tc.id, tc.baseURL)
		if !ok {
			t.Errorf("%s: not in the database", tc.id)
			continue
		}
		if info.Provider != tc.provider || info.ContextWindow != tc.window || info.Prices.Input != tc.input ||
			info.Prices.Output != tc.output || info.Prices.CachedInput != tc.cached || info.Reasons != tc.reasons ||
			!slices.Equal(info.EffortLevels, tc.levels) || info.Images != tc.images {
			t.Errorf("%s = %+v; the database changed: check and update the pinned figures", tc.id, info)
		}
	}
	if _, ok := db.Lookup("no-such-model-anywhere", ""); ok {
		t.Error("an unknown id was found")
	}
}
