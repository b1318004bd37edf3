package models

import (
	"testing"

	"charm.land/catwalk/pkg/catwalk"
)

// testDB is a small database: a first-party provider, a reseller with the
// same id at other prices, and an aggregator with vendor-prefixed ids.
func testDB() *DB {
	return New([]catwalk.Provider{
		{ID: "openrouter", APIEndpoint: "https://openrouter.ai/api/v1", Models: []catwalk.Model{
			{ID: "openai/gpt-4o-mini", ContextWindow: 128_000, CostPer1MIn: 0.2, CostPer1MOut: 0.7},
			{ID: "acme/rocket", ContextWindow: 64_000, CostPer1MIn: 1, CostPer1MOut: 2, CanReason: true},
		}},
		{ID: "reseller", APIEndpoint: "https://api.reseller.example/v1", Models: []catwalk.Model{
			{ID: "gpt-4o-mini", ContextWindow: 100_000, CostPer1MIn: 9, CostPer1MOut: 9},
		}},
		{ID: "openai", APIEndpoint: "$OPENAI_API_ENDPOINT", Models: []catwalk.Model{
			{ID: "gpt-4o-mini", ContextWindow: 128_000, CostPer1MIn: 0.15, CostPer1MOut: 0.6, SupportsImages: true},
			{ID: "o3", ContextWindow: 200_000, CostPer1MIn: 2, CostPer1MInCached: 0.5, CostPer1MOut: 8, CanReason: true,
				ReasoningLevels: []string{"low", "medium", "high"}, DefaultReasoningEffort: "medium"},
		}},
	})
}

func TestLookup(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, id, baseURL string
		ok                bool
		provider, dbID    string
		match             Match
		input             float64
	}{
		{"exact, first party first", "gpt-4o-mini", "", true, "openai", "gpt-4o-mini", MatchExact, 0.15},
		{"exact, the gateway's own entry first", "gpt-4o-mini", "https://api.reseller.example/v1", true, "reseller", "gpt-4o-mini", MatchExact, 9},
		{"official host", "gpt-4o-mini", "https://api.openai.com/v1", true, "openai", "gpt-4o-mini", MatchExact, 0.15},
		{"exact prefixed id on its aggregator", "openai/gpt-4o-mini", "https://openrouter.ai/api/v1", true, "openrouter", "openai/gpt-4o-mini", MatchExact, 0.2},
		{"prefix stripped", "openai/o3", "http://127.0.0.1:8080/v1", true, "openai", "o3", MatchUnprefixed, 2},
		{"two prefixes stripped", "openrouter/openai/o3", "", true, "openai", "o3", MatchUnprefixed, 2},
		{"gateway prefix names the aggregator", "openrouter/acme/rocket", "", true, "openrouter", "acme/rocket", MatchUnprefixed, 1},
		{"same model under another provider", "rocket", "", true, "openrouter", "acme/rocket", MatchOtherProvider, 1},
		{"other vendor prefix", "azure/rocket", "", true, "openrouter", "acme/rocket", MatchOtherProvider, 1},
		{"unknown", "llama-local", "http://localhost:11434/v1", false, "", "", 0, 0},
		{"empty", " ", "", false, "", "", 0, 0},
	}
	db := testDB()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			info, ok := db.Lookup(tc.id, tc.baseURL)
			if ok != tc.ok || info.Provider != tc.provider || info.ID != tc.dbID || info.Match != tc.match || info.Prices.Input != tc.input {
				t.Errorf("Lookup(%q, %q) = %+v, %v; want %s %s %v input %v, %v", tc.id, tc.baseURL, info, ok, tc.provider, tc.dbID, tc.match, tc.input, tc.ok)
			}
		})
	}
}

func TestInfoFigures(t *testing.T) {
	t.Parallel()
	info, ok := testDB().Lookup("o3", "")
	if !ok {
		t.Fatal("o3 not found")
	}
	if info.Prices.CachedInput != 0.5 || !info.Reasons || info.DefaultEffort != "medium" || len(info.EffortLevels) != 3 {
		t.Errorf("o3 = %+v", info)
	}
	for effort, want := range map[string]bool{"high": true, "xhigh": false, "": false} {
		if got := info.AcceptsEffort(effort); got != want {
			t.Errorf("AcceptsEffort(%q) = %v, want %v", effort, got, want)
		}
	}
	mini, _ := testDB().Lookup("gpt-4o-mini", "")
	if mini.AcceptsEffort("high") {
		t.Error("a model that does not reason accepts an effort")
	}
	if images, known := testDB().Images("gpt-4o-mini", ""); !images || !known {
		t.Errorf("Images(gpt-4o-mini) = %v, %v", images, known)
	}
	if _, known := testDB().Images("nope", ""); known {
		t.Error("an unknown model's image support is known")
	}
}

func TestCacheRead(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		m    catwalk.Model
		want float64
	}{
		{"read price in out_cached", catwalk.Model{CostPer1MIn: 3, CostPer1MInCached: 3.75, CostPer1MOutCached: 0.3}, 0.3},
		{"read price in in_cached", catwalk.Model{CostPer1MIn: 5, CostPer1MInCached: 0.5}, 0.5},
		{"write price only", catwalk.Model{CostPer1MIn: 3, CostPer1MInCached: 3.75}, 0},
		{"none", catwalk.Model{CostPer1MIn: 3}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := cacheRead(tc.m); got != tc.want {
				t.Errorf("cacheRead = %v, want %v", got, tc.want)
			}
		})
	}
}
