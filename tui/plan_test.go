package tui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/tools"
)

// proposal is the events of the model presenting a plan with propose_plan.
func proposal(id, plan string) []agent.Event {
	args, _ := json.Marshal(map[string]string{"plan": plan})
	call := &agent.Call{ID: id, Name: agent.ProposePlanTool, Args: args}
	return []agent.Event{
		{Kind: agent.EventToolCallStarted, Call: &agent.Call{ID: id, Name: agent.ProposePlanTool}},
		{Kind: agent.EventToolCallReady, Call: call},
		{Kind: agent.EventToolRunning, Call: call},
		{Kind: agent.EventToolFinished, Call: call, Result: &agent.ToolResult{Status: tools.StatusOK, Summary: "plan proposed"}},
	}
}

// presentPlan runs a plan-mode turn that ends with the model's plan.
func presentPlan(m *model) {
	evs := []agent.Event{{Kind: agent.EventTurnStarted, Text: agent.PlanEnterNote + "\n\nadd a --verbose flag"}}
	evs = append(evs, proposal("p1", "1. Add the flag in flags.go\n2. Log in run.go\n3. Run the tests")...)
	events(m, append(evs, agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})...)
}

func TestPlanModeOfferAccept(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	fb.SetPolicy(agent.PolicyAutoEdit)
	typeText(m, "/plan add a --verbose flag")
	press(m, keyEnter)
	if !fb.Planning() || fb.Policy() != agent.PolicyReadOnly {
		t.Fatalf("planning %v, policy %v", fb.Planning(), fb.Policy())
	}
	if got := fb.sent(); len(got) != 1 || got[0] != "add a --verbose flag" {
		t.Fatalf("sent %q", got)
	}
	s := screen(m)
	if !strings.Contains(s, "Plan mode") || !strings.Contains(s, "plan (read-only)") {
		t.Fatalf("plan mode not shown:\n%s", s)
	}
	presentPlan(m)
	above := strings.Join(aboveInput(m), "\n")
	if !strings.Contains(above, "The model presented a plan. Carry it out?") || !strings.Contains(above, "1 accept, policy auto-edit") ||
		!strings.Contains(above, "2 accept with auto-edit") || !strings.Contains(above, "3 keep planning") {
		t.Fatalf("no offer above the input:\n%s", above)
	}
	press(m, keyRuneY)
	if fb.accepted != 1 || fb.Planning() || fb.Policy() != agent.PolicyAutoEdit {
		t.Fatalf("accepted %d, planning %v, policy %v", fb.accepted, fb.Planning(), fb.Policy())
	}
	if s := screen(m); !strings.Contains(s, "Plan accepted: carry it out.") || strings.Contains(s, "Carry it out?") || strings.Contains(s, "plan (read-only)") {
		t.Fatalf("after accepting:\n%s", s)
	}
	if !m.busy || !m.awaiting {
		t.Fatal("the interface does not wait for the accepted plan's turn")
	}
}

func TestPlanModeOfferKeepAndLeave(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	typeText(m, "/plan")
	press(m, keyEnter)
	presentPlan(m)
	press(m, keyRuneN)
	if m.planOffer || !fb.Planning() || !strings.Contains(m.notice, "still planning") {
		t.Fatalf("n: offer %v, planning %v, notice %q", m.planOffer, fb.Planning(), m.notice)
	}
	// Typing a correction closes the offer and goes to the input.
	presentPlan(m)
	typeText(m, "also")
	if m.planOffer || m.input.Value() != "also" || !fb.Planning() {
		t.Fatalf("typing: offer %v, input %q", m.planOffer, m.input.Value())
	}
	m.input.Reset()
	presentPlan(m)
	press(m, keyEsc)
	if m.planOffer || fb.Planning() || m.planning || fb.Policy() != agent.PolicyAsk {
		t.Fatalf("esc: offer %v, planning %v/%v, policy %v", m.planOffer, fb.Planning(), m.planning, fb.Policy())
	}
	// /plan twice enters and leaves.
	typeText(m, "/plan")
	press(m, keyEnter)
	typeText(m, "/plan")
	press(m, keyEnter)
	if fb.Planning() || !strings.Contains(m.notice, "left plan mode") {
		t.Fatalf("/plan twice: planning %v, notice %q", fb.Planning(), m.notice)
	}
	if fb.accepted != 0 {
		t.Fatal("a plan was accepted without asking")
	}
}

func TestPlanOfferOnlyWhenAPlanWasProposed(t *testing.T) {
	t.Parallel()
	text := agent.Event{Kind: agent.EventTextDelta, Text: "Which flag do you mean: --verbose or --debug?"}
	for _, tc := range []struct {
		name   string
		turn   []agent.Event
		reason agent.FinishReason
		want   bool
	}{
		{"a plan proposed", proposal("p1", "1. Add the flag"), agent.FinishDone, true},
		{"an answer without a plan", []agent.Event{text}, agent.FinishDone, false},
		{"a plan, then interrupted", proposal("p1", "1. Add the flag"), agent.FinishCancelled, false},
		{"interrupted", nil, agent.FinishCancelled, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, _ := newTestModel(t, Options{})
			typeText(m, "/plan")
			press(m, keyEnter)
			evs := append([]agent.Event{{Kind: agent.EventTurnStarted, Text: "x"}}, tc.turn...)
			events(m, append(evs, agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: tc.reason}})...)
			if m.planOffer != tc.want {
				t.Fatalf("offer %v, want %v", m.planOffer, tc.want)
			}
			// The next turn starts afresh: an answer alone offers nothing.
			events(m, agent.Event{Kind: agent.EventTurnStarted, Text: "y"}, text,
				agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
			if m.planOffer && !tc.want {
				t.Fatal("offered a plan the next turn did not propose")
			}
		})
	}
}

func TestPlanOfferChoices(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		key        tea.KeyPressMsg
		accepted   int
		wantPolicy agent.Policy
		planning   bool
	}{
		{tea.KeyPressMsg{Code: '1', Text: "1"}, 1, agent.PolicyAsk, false},
		{keyEnter, 1, agent.PolicyAsk, false},
		{tea.KeyPressMsg{Code: '2', Text: "2"}, 1, agent.PolicyAutoEdit, false},
		{tea.KeyPressMsg{Code: '3', Text: "3"}, 0, agent.PolicyReadOnly, true},
	} {
		t.Run(tc.key.String(), func(t *testing.T) {
			t.Parallel()
			m, fb := newTestModel(t, Options{})
			typeText(m, "/plan")
			press(m, keyEnter)
			presentPlan(m)
			press(m, tc.key)
			if fb.accepted != tc.accepted || fb.Policy() != tc.wantPolicy || fb.Planning() != tc.planning || m.planOffer {
				t.Fatalf("accepted %d, policy %v, planning %v, offer %v", fb.accepted, fb.Policy(), fb.Planning(), m.planOffer)
			}
		})
	}
}

func TestPlanCardShowsThePlan(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	typeText(m, "/plan")
	press(m, keyEnter)
	presentPlan(m)
	s := screen(m)
	for _, want := range []string{"Plan", "Add the flag in flags.go", "Log in run.go", "Run the tests"} {
		if !strings.Contains(s, want) {
			t.Errorf("the plan card lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "propose_plan") {
		t.Errorf("the card shows the tool's name, not the plan's:\n%s", s)
	}
}

// featureGolden runs the real program around the fake backend and
// compares the final screen with testdata/<test>.golden.
func featureGolden(t *testing.T, h int, drive func(tm *teatest.TestModel, fb *fakeBackend)) {
	t.Helper()
	fb := newFakeBackend()
	fb.startOnSubmit = true
	t.Cleanup(fb.close)
	m := newModel(context.Background(), Options{App: fb, Theme: "dark", Workspace: "/work/project"}, noEnv)
	m.clock = func() time.Time { return fixedClock }
	m.keyGuard = 0
	tm := teatest.NewTestModel(t, probed{m},
		teatest.WithInitialTermSize(80, h),
		teatest.WithProgramOptions(
			tea.WithColorProfile(goldenProfile),
			tea.WithEnvironment([]string{"TERM=xterm-256color"}),
		))
	drive(tm, fb)
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(probed)
	requireGolden(t, fm.View().Content)
}

// TestGoldenCompaction is /compact's block: labelled, with what it
// replaced and the summary as Markdown.
func TestGoldenCompaction(t *testing.T) {
	t.Parallel()
	featureGolden(t, 30, func(tm *teatest.TestModel, fb *fakeBackend) {
		tm.Type("/compact the parser")
		tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
		waitFor(t, tm, "working")
		fb.ch <- agent.Event{Kind: agent.EventCompactionStarted, Compaction: &agent.Compaction{Focus: "the parser"}}
		fb.ch <- agent.Event{Kind: agent.EventCompactionFinished, Compaction: &agent.Compaction{
			Focus: "the parser", Replaced: 14, Kept: 4, BytesBefore: 61_000, BytesAfter: 4_200,
			Summary: "## Goal\nFix the parser's last-token bug.\n## User instructions\n- “never touch vendor/”\n## Files\n- `parse.go`: read; the loop stops one token early\n## Open tasks\n1. Fix the loop\n2. Run `go test ./...`",
		}}
		waitFor(t, tm, "Fix the loop")
	})
}

// TestGoldenPlanOffer is the screen that offers to carry out a plan.
func TestGoldenPlanOffer(t *testing.T) {
	t.Parallel()
	featureGolden(t, 24, func(tm *teatest.TestModel, fb *fakeBackend) {
		planOffer(t, tm, fb)
	})
}

func planOffer(t *testing.T, tm *teatest.TestModel, fb *fakeBackend) {
	tm.Type("/plan add a --verbose flag")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitFor(t, tm, "plan (read-only)")
	for _, ev := range proposal("p1", "1. Add the flag in `flags.go`\n2. Log each step in `run.go`\n3. Run `go test ./...`") {
		fb.ch <- ev
	}
	fb.ch <- agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}}
	waitFor(t, tm, "Carry it out?")
}

func TestPromptBlockShowsPlanNotesAsChips(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ text, want, chip string }{
		{agent.PlanEnterNote + "\n\nadd a flag", "add a flag", "plan mode"},
		{agent.PlanLeaveNote + "\n\n" + agent.PlanAccepted, "Plan accepted: carry it out.", "plan mode over"},
		{agent.PlanLeaveNote + "\n\nnow do it", "now do it", "plan mode over"},
		{"plain", "plain", ""},
		{agent.RevertNotePrefix + " The user undid your file changes.\n\nnow add tests", "now add tests", "files reverted"},
	} {
		b := promptBlock(tc.text)
		chip := ""
		if len(b.chips) > 0 {
			chip = b.chips[0]
		}
		if b.text != tc.want || chip != tc.chip {
			t.Errorf("promptBlock(%q) = %q %q, want %q %q", tc.text, b.text, chip, tc.want, tc.chip)
		}
	}
}

// TestPlanModeFollowsTheSession: a session resumed in plan mode opens in
// it, and switching to a session outside plan mode leaves it (and back).
func TestPlanModeFollowsTheSession(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{}, func(fb *fakeBackend) { fb.EnterPlan() })
	if s := screen(m); !strings.Contains(s, "plan (read-only)") {
		t.Fatalf("a session resumed in plan mode does not show it:\n%s", s)
	}
	fb.LeavePlan() // as the session switched to is outside it
	m.Update(switchMsg{sw: &app.Switch{ID: "other", Summary: "resumed session other"}})
	if s := screen(m); strings.Contains(s, "plan (read-only)") {
		t.Fatalf("plan mode is still shown after switching to a session outside it:\n%s", s)
	}
	fb.EnterPlan()
	m.Update(switchMsg{sw: &app.Switch{ID: "planned", Summary: "resumed session planned"}})
	if s := screen(m); !strings.Contains(s, "plan (read-only)") {
		t.Fatalf("switching to a session in plan mode does not show it:\n%s", s)
	}
}
