package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// waitStep is an agent event, or (when ev.Kind is 0) the clock moving on.
type waitStep struct {
	ev    agent.Event
	after time.Duration
}

func at(d time.Duration) waitStep     { return waitStep{after: d} }
func ev(e agent.Event) waitStep       { return waitStep{ev: e} }
func kind(k agent.EventKind) waitStep { return ev(agent.Event{Kind: k}) }

// TestStatusLineNamesEveryWait drives a turn through each wait and checks
// the status line names it, counts it from its own start, and keeps the
// token counts and the context use in every state, at 120 and 80 columns.
func TestStatusLineNamesEveryWait(t *testing.T) {
	t.Parallel()
	limited := &provider.Error{Kind: provider.ErrRateLimited, Status: 429, Message: "slow down", RetryAfter: 30 * time.Second}
	shell := &agent.Call{ID: "s", Name: "run_shell"}
	_, req := editRequest("e")
	// retryAt is filled in with the clock when the event is applied.
	retry := func() waitStep {
		return ev(agent.Event{Kind: agent.EventRetrying, Retry: &agent.Retry{Attempt: 2, MaxAttempts: 4, Wait: 30 * time.Second, Err: limited, Reason: limited.Error()}})
	}
	for _, tc := range []struct {
		name  string
		steps []waitStep
		want  string
		// narrow is what 80 columns show, when the state must be shorter.
		narrow string
	}{
		{"before the request", []waitStep{at(2 * time.Second)}, "working 2s", ""},
		{"request sent, nothing back", []waitStep{kind(agent.EventRequest), at(3 * time.Second)}, "sending… 3s", ""},
		{"first token", []waitStep{kind(agent.EventRequest), at(5 * time.Second), ev(agent.Event{Kind: agent.EventTextDelta, Text: "Hi"}), at(time.Second)}, "answering 1s", ""},
		{"retry counts down", []waitStep{kind(agent.EventRequest), retry(), at(18 * time.Second)}, "retrying in 12s: 429 rate limited (attempt 2 of 4)", "retrying in 12s"},
		{"retry counts down each second", []waitStep{kind(agent.EventRequest), retry(), at(18*time.Second + 500*time.Millisecond)}, "retrying in 12s: 429", "retrying in 12s"},
		{"retry wait over", []waitStep{kind(agent.EventRequest), retry(), at(32 * time.Second)}, "sending… 2s (attempt 2 of 4)", "sending… 2s"},
		{"dialog counts from when it opened", []waitStep{kind(agent.EventRequest), at(10 * time.Second), ev(agent.Event{Kind: agent.EventApprovalRequested, Call: &req.Call, Approval: req}), at(4 * time.Second)}, "waiting for you 4s", ""},
		{"running tool", []waitStep{
			kind(agent.EventRequest), ev(agent.Event{Kind: agent.EventToolCallStarted, Call: shell}), at(5 * time.Second),
			ev(agent.Event{Kind: agent.EventToolRunning, Call: shell}), at(3 * time.Second),
		}, "running run_shell 3s", ""},
		{"tool done, next request not yet out", []waitStep{
			ev(agent.Event{Kind: agent.EventToolRunning, Call: shell}), at(3 * time.Second),
			ev(agent.Event{Kind: agent.EventToolFinished, Call: shell, Result: &agent.ToolResult{Status: tools.StatusOK}}), at(time.Second),
		}, "working 1s", ""},
	} {
		for _, width := range []int{120, 80} {
			t.Run(tc.name+"/"+itoa(width), func(t *testing.T) {
				t.Parallel()
				m, _ := newTestModel(t, Options{}, func(f *fakeBackend) { f.window = fixedWindow(128000) })
				now := fixedClock
				m.clock = func() time.Time { return now }
				m.Update(tea.WindowSizeMsg{Width: width, Height: 30})
				events(m, agent.Event{Kind: agent.EventUsage, Usage: provider.Usage{PromptTokens: 5200, CompletionTokens: 240}})
				events(m, agent.Event{Kind: agent.EventTurnStarted, Turn: 1})
				for _, s := range tc.steps {
					if s.ev.Kind == 0 {
						now = now.Add(s.after)
						frame(m)
						continue
					}
					if r := s.ev.Retry; r != nil {
						retry := *r // the steps are shared by the parallel widths
						retry.At = now.Add(r.Wait)
						s.ev.Retry = &retry
					}
					events(m, s.ev)
				}
				want := tc.want
				if width == 80 && tc.narrow != "" {
					want = tc.narrow
				}
				lines := strings.Split(screen(m), "\n")
				status := lines[len(lines)-1]
				for _, part := range []string{want, "↑5.2k ↓240", "ctx 4%"} {
					if !strings.Contains(status, part) {
						t.Errorf("status line %q lacks %q", status, part)
					}
				}
			})
		}
	}
}

// TestContextUseKeptAfterCompaction checks that the status line's context
// use survives a compaction: it shows the agent's estimate of the next
// prompt, marked "~", until that request reports its usage.
func TestContextUseKeptAfterCompaction(t *testing.T) {
	t.Parallel()
	usage := func(p int) agent.Event {
		return agent.Event{Kind: agent.EventUsage, Usage: provider.Usage{PromptTokens: p, CompletionTokens: 0}}
	}
	for _, tc := range []struct {
		name  string
		after []agent.Event
		want  string
	}{
		{"right after the compaction", nil, "ctx ~2%"},
		{"the next request reports", []agent.Event{usage(6400)}, "ctx 5%"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, _ := newTestModel(t, Options{}, func(f *fakeBackend) { f.window = fixedWindow(128000) })
			events(m, usage(64000))
			events(m, agent.Event{Kind: agent.EventCompactionStarted, Compaction: &agent.Compaction{}},
				usage(64000), // the summary request itself
				agent.Event{Kind: agent.EventCompactionFinished, Compaction: &agent.Compaction{Summary: "## Goal", Replaced: 8, Kept: 2, TokensAfter: 2600}})
			events(m, tc.after...)
			lines := strings.Split(screen(m), "\n")
			if status := lines[len(lines)-1]; !strings.Contains(status, tc.want) {
				t.Errorf("status line %q lacks %q", status, tc.want)
			}
		})
	}
}

// TestRetryNoticeSaysWhatHappened checks the transcript's notice of a
// retry: an answer that broke off midway says so, that its output is
// dropped, and which attempt comes when; a retry before anything streamed
// leaves the transcript alone (the status line counts it down).
func TestRetryNoticeSaysWhatHappened(t *testing.T) {
	t.Parallel()
	reset := &provider.Error{Kind: provider.ErrNetwork, Message: "connection reset"}
	for _, tc := range []struct {
		name  string
		retry agent.Retry
		want  string // "" for no notice
	}{
		{"broke off midway", agent.Retry{Attempt: 2, MaxAttempts: 4, Wait: time.Second, Err: reset, Reason: reset.Error(), DiscardPartial: true},
			"↻ The answer broke off (network error: connection reset) and what it had streamed is dropped; attempt 2 of 4 starts in 1s."},
		{"gateway status", agent.Retry{Attempt: 3, MaxAttempts: 4, Err: &provider.Error{Kind: provider.ErrServer, Status: 502}, DiscardPartial: true},
			"↻ The answer broke off (502 gateway error) and what it had streamed is dropped; attempt 3 of 4 starts now."},
		{"before anything streamed", agent.Retry{Attempt: 2, MaxAttempts: 4, Wait: 30 * time.Second, Err: reset}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, _ := newTestModel(t, Options{})
			startTurn(m)
			events(m, agent.Event{Kind: agent.EventTextDelta, Text: "partial answer"})
			r := tc.retry
			events(m, agent.Event{Kind: agent.EventRetrying, Retry: &r})
			frame(m)
			s := screen(m)
			got := strings.Contains(s, "↻")
			if tc.want == "" && got {
				t.Fatalf("a notice for a retry with nothing to drop:\n%s", s)
			}
			if tc.want != "" && !strings.Contains(strings.Join(strings.Fields(s), " "), tc.want) {
				t.Fatalf("screen lacks %q:\n%s", tc.want, s)
			}
			if tc.retry.DiscardPartial == strings.Contains(s, "partial answer") {
				t.Fatalf("partial answer shown = %v with DiscardPartial %v", !tc.retry.DiscardPartial, tc.retry.DiscardPartial)
			}
		})
	}
}
