package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/agent"
)

// TestCostNamesTheModelInUse switches models with /model between turns:
// /cost names the model in use, not the one tern started with, and splits
// the figures by model once there are two.
func TestCostNamesTheModelInUse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		prices   *Prices
		switched bool
		want     []string
		notWant  []string
	}{
		{
			name: "no prices, switched", switched: true,
			want: []string{"model                other-model", "no prices configured for other-model",
				"by model", "  test-model         1 request · 10 prompt · 10 completion tokens · not priced",
				"  other-model        1 request · 500 prompt · 20 completion tokens · not priced"},
			notWant: []string{"configured for test-model"},
		},
		{
			name: "priced, switched", switched: true, prices: &Prices{Input: 1, Output: 1},
			want: []string{"model                other-model", "1 requests on other models, not priced",
				"  test-model         1 request · 10 prompt · 10 completion tokens · $0.0000",
				"  other-model        1 request · 500 prompt · 20 completion tokens · not priced"},
		},
		{
			name: "one model", prices: &Prices{Input: 1, Output: 1},
			want:    []string{"model                test-model"},
			notWant: []string{"by model"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m, fb := newTestModel(t, Options{Prices: tt.prices})
			step(m, tea.WindowSizeMsg{Width: 120, Height: 50})
			turn := func(prompt, completion int) {
				events(m, agent.Event{Kind: agent.EventTurnStarted, Text: "go"}, req(100, 0),
					used(prompt, 0, completion, time.Millisecond, false),
					agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
			}
			turn(10, 10)
			if tt.switched {
				fb.SetModel("other-model")
				turn(500, 20)
			}
			typeText(m, "/cost")
			press(m, keyEnter)
			s := screen(m)
			for _, w := range tt.want {
				if !strings.Contains(s, w) {
					t.Errorf("/cost lacks %q:\n%s", w, s)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(s, w) {
					t.Errorf("/cost shows %q:\n%s", w, s)
				}
			}
		})
	}
}
