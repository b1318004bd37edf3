package agent

import (
	"slices"
	"strings"
	"testing"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

func TestProposePlan(t *testing.T) {
	t.Parallel()
	const planArgs = `{"plan":"1. Add the flag in flags.go\n2. Run go test ./..."}`
	for _, tc := range []struct {
		name     string
		planning bool
		args     string
		// wantStatus is the propose_plan call's result; wantRequests how
		// many model requests the turn made.
		wantStatus   tools.Status
		wantRequests int
		wantOffered  bool
	}{
		{"in plan mode the plan ends the turn", true, planArgs, tools.StatusOK, 1, true},
		{"an empty plan is sent back", true, `{"plan":" "}`, tools.StatusError, 2, true},
		{"outside plan mode there is no such tool", false, planArgs, tools.StatusError, 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			read, _, _ := fakeTools()
			h := newHarness(t, tools.NewRegistry(read), nil, calls(ProposePlanTool, tc.args), answer("done"))
			if tc.planning {
				h.a.EnterPlan()
			}
			evs := h.turn("add a --verbose flag", nil)
			done := eventsOf(evs, kDone)
			if len(done) != 1 || done[0].Call.Name != ProposePlanTool || done[0].Result.Status != tc.wantStatus {
				t.Fatalf("results: %+v", done)
			}
			if fin := finishOf(t, evs); fin.Reason != FinishDone {
				t.Errorf("finish = %v %v", fin.Reason, fin.Err)
			}
			reqs := h.prov.Requests()
			if len(reqs) != tc.wantRequests {
				t.Errorf("%d requests, want %d", len(reqs), tc.wantRequests)
			}
			offered := slices.ContainsFunc(reqs[0].Tools, func(s provider.ToolSpec) bool { return s.Name == ProposePlanTool })
			if offered != tc.wantOffered {
				t.Errorf("propose_plan offered: %v, want %v", offered, tc.wantOffered)
			}
			checkHistory(t, h.a.Messages())
		})
	}
}

func TestAcceptPlanWithPolicy(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		accept Policy
		want   Policy
	}{
		{"the policy before plan mode", 0, PolicyAsk},
		{"auto-edit", PolicyAutoEdit, PolicyAutoEdit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, tools.NewRegistry(), nil, answer("ok"))
			h.a.EnterPlan()
			if err := h.a.AcceptPlanWith(tc.accept); err != nil {
				t.Fatal(err)
			}
			h.collect(nil)
			if h.a.Planning() || h.a.Policy() != tc.want {
				t.Errorf("after accepting: planning %v, policy %v, want %v", h.a.Planning(), h.a.Policy(), tc.want)
			}
			msgs := h.a.Messages()
			if !strings.HasSuffix(msgs[len(msgs)-2].Content, PlanAccepted) {
				t.Errorf("accept message %q", msgs[len(msgs)-2].Content)
			}
		})
	}
}
