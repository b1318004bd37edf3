package config

import (
	"strings"
	"testing"
	"time"
)

func TestBudgetPrecedence(t *testing.T) {
	t.Parallel()
	const file = "max_cost = 2.5\nmax_requests = 30\nmax_duration = \"15m\"\n"
	tests := []struct {
		name     string
		toml     string
		flags    Flags
		cost     float64
		requests int
		duration time.Duration
		src      SourceKind
	}{
		{"none", "", Flags{}, 0, 0, 0, SourceDefault},
		{"file", file, Flags{}, 2.5, 30, 15 * time.Minute, SourceFile},
		{"flags win", file, Flags{MaxCost: ptr(0.5), MaxRequests: ptr(3), MaxDuration: ptr(time.Minute)}, 0.5, 3, time.Minute, SourceFlag},
	}
	for _, tt := range tests {
		c, err := Load(Inputs{Flags: tt.flags, Getenv: envFunc(map[string]string{EnvHome: writeHome(t, tt.toml)})})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		b := c.Budget
		if b.MaxCost.V != tt.cost || b.MaxRequests.V != tt.requests || b.MaxDuration.V != tt.duration {
			t.Errorf("%s: budget %v %v %v", tt.name, b.MaxCost.V, b.MaxRequests.V, b.MaxDuration.V)
		}
		if b.MaxCost.Source.Kind != tt.src || b.MaxRequests.Source.Kind != tt.src || b.MaxDuration.Source.Kind != tt.src {
			t.Errorf("%s: sources %v %v %v", tt.name, b.MaxCost.Source, b.MaxRequests.Source, b.MaxDuration.Source)
		}
	}
}

func TestBudgetErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		toml string
		says string
	}{
		{"max_duration = \"soon\"\n", "not a duration"},
		{"max_cost = -1.0\n", "negative"},
		{"max_requests = -2\n", "negative"},
	} {
		_, err := Load(Inputs{Getenv: envFunc(map[string]string{EnvHome: writeHome(t, tc.toml)})})
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%q: err = %v, want %q", tc.toml, err, tc.says)
		}
	}
}

func TestCheckBudgetNeedsPrices(t *testing.T) {
	t.Parallel()
	home := writeHome(t, "[models.\"priced\"]\nprice_input = 1.0\nprice_output = 2.0\n")
	c, err := Load(Inputs{Flags: Flags{MaxCost: ptr(1.0)}, Getenv: envFunc(map[string]string{EnvHome: home})})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.CheckBudget("priced"); err != nil {
		t.Errorf("priced model: %v", err)
	}
	err = c.CheckBudget("other")
	if err == nil || !strings.Contains(err.Error(), `[models."other"]`) || !strings.Contains(err.Error(), "price_input") {
		t.Errorf("unpriced model: %v", err)
	}
	c.Budget.MaxCost.V = 0
	if err := c.CheckBudget("other"); err != nil {
		t.Errorf("no cost limit: %v", err)
	}
}
