package tui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
)

// TestGoldenRetryCountdown is the screen while a 429 is waited out: the
// status line says why, counts down to the next attempt, and keeps the
// token counts and the context use.
func TestGoldenRetryCountdown(t *testing.T) {
	t.Parallel()
	for _, width := range []int{120, 80} {
		t.Run(itoa(width), func(t *testing.T) {
			t.Parallel()
			goldenRunWith(t, width, 16, Options{}, func(f *fakeBackend) { f.window = fixedWindow(128000) }, func(tm *teatest.TestModel, fb *fakeBackend) {
				tm.Type("explain the parser")
				tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
				waitFor(t, tm, "working")
				limited := &provider.Error{Kind: provider.ErrRateLimited, Status: 429, Message: "slow down", RetryAfter: 30 * time.Second}
				fb.ch <- agent.Event{Kind: agent.EventUsage, Usage: provider.Usage{PromptTokens: 5200, CompletionTokens: 240}}
				fb.ch <- agent.Event{Kind: agent.EventRequest, Request: &agent.RequestInfo{Step: 2, Attempt: 1}}
				fb.ch <- agent.Event{Kind: agent.EventRetrying, Retry: &agent.Retry{
					Attempt: 2, MaxAttempts: 4, Wait: 30 * time.Second, At: fixedClock.Add(12 * time.Second), Err: limited, Reason: limited.Error(),
				}}
				waitFor(t, tm, "retrying in 12s")
			})
		})
	}
}
