package app

import (
	"context"
	"errors"
	"testing"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider/models"
	"github.com/ternhq/tern/session"
	"github.com/ternhq/tern/tools"
)

// testDB knows a model that reasons and one that does not.
func testDB(model string) (models.Info, bool) {
	switch model {
	case "thinker":
		return models.Info{ID: model, ContextWindow: 200_000, Prices: models.Prices{Input: 2, CachedInput: 0.5, Output: 8},
			Reasons: true, EffortLevels: []string{"low", "medium", "high"}}, true
	case "plain":
		return models.Info{ID: model, ContextWindow: 64_000, Prices: models.Prices{Input: 1, Output: 2}}, true
	}
	return models.Info{}, false
}

func TestWindowPrecedence(t *testing.T) {
	t.Parallel()
	w := &windowSource{
		ctx: context.Background(),
		configured: func(m string) int {
			if m == "configured" {
				return 32_000
			}
			return 0
		},
		lookup: func(_ context.Context, m string) (GatewayModel, error) {
			switch m {
			case "configured", "listed":
				return GatewayModel{Window: 100_000}, nil
			}
			return GatewayModel{}, errors.New("not listed")
		},
		database: func(m string) int {
			if m == "unknown" {
				return 0
			}
			return 400_000
		},
		assumed: 50_000,
	}
	tests := []struct {
		model  string
		tokens int
		source WindowSource
	}{
		{"configured", 32_000, WindowConfigured}, // over the gateway and the database
		{"listed", 100_000, WindowGateway},       // over the database
		{"cataloged", 400_000, WindowDatabase},
		{"unknown", 50_000, WindowAssumed}, // default_context_window
	}
	for _, tc := range tests {
		if n, source := w.of(context.Background(), tc.model); n != tc.tokens || source != tc.source {
			t.Errorf("%s: %d from %v, want %d from %v", tc.model, n, source, tc.tokens, tc.source)
		}
	}
}

func TestPricesPrecedence(t *testing.T) {
	t.Parallel()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	opts := testOptions(t, "", ws)
	opts.ModelInfo = testDB
	opts.Prices = func(m string) *agent.Prices {
		if m == "plain" {
			return &agent.Prices{Input: 5, Output: 5}
		}
		return nil
	}
	s := newTestSession(t, opts)
	tests := []struct {
		model  string
		input  float64
		source PriceSource
	}{
		{"plain", 5, PricesConfigured},
		{"thinker", 2, PricesList},
		{"unknown", 0, PricesNone},
	}
	for _, tc := range tests {
		if p, source := s.Prices(tc.model); p.Input != tc.input || source != tc.source {
			t.Errorf("%s: %+v from %v, want input %v from %v", tc.model, p, source, tc.input, tc.source)
		}
	}
}

// TestEffortFollowsTheModel: the chosen effort reaches the agent only for a
// model that reasons and takes it, survives model switches, and is
// recorded so a continued session brings it back.
func TestEffortFollowsTheModel(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	opts := testOptions(t, home, ws)
	opts.ModelInfo, opts.Model, opts.Effort = testDB, "thinker", "high"
	s := newTestSession(t, opts)
	oneTurn(t, s)
	steps := []struct {
		do         func()
		wantChosen string
		wantSent   string
	}{
		{func() {}, "high", "high"},
		{func() { s.SetModel("plain") }, "high", ""},
		{func() { s.SetModel("thinker") }, "high", "high"},
		{func() { s.SetEffort("xhigh") }, "xhigh", ""}, // not one of its levels
		{func() { s.SetEffort("low") }, "low", "low"},
	}
	for i, st := range steps {
		st.do()
		if s.Effort() != st.wantChosen || s.agent.Effort() != st.wantSent {
			t.Errorf("step %d: chosen %q sent %q, want %q %q", i, s.Effort(), s.agent.Effort(), st.wantChosen, st.wantSent)
		}
	}
	id := s.ID()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, chosen := range []bool{false, true} {
		saved, err := Find(home, ws.Root, Choice{Mode: ResumeID, ID: id})
		if err != nil {
			t.Fatal(err)
		}
		opts := testOptions(t, home, ws)
		opts.ModelInfo, opts.Model, opts.Saved, opts.Fork = testDB, "thinker", saved, true
		opts.Effort, opts.EffortChosen = "medium", chosen
		r := newTestSession(t, opts)
		want := "low" // the session's own
		if chosen {
			want = "medium" // --effort wins
		}
		if r.Effort() != want || r.agent.Effort() != want {
			t.Errorf("continued (--effort %v): chosen %q sent %q, want %q", chosen, r.Effort(), r.agent.Effort(), want)
		}
		fork := r.ID()
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
		loaded, err := session.Find(home, fork)
		if err != nil {
			t.Fatal(err)
		}
		back, err := load(loaded)
		if err != nil {
			t.Fatal(err)
		}
		if back.state.Effort != want {
			t.Errorf("continued (--effort %v): the log says effort %q, want %q", chosen, back.state.Effort, want)
		}
	}
}
