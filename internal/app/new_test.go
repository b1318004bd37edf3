package app

import (
	"context"
	"errors"
	"testing"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider/mock"
	"github.com/ternhq/tern/session"
	"github.com/ternhq/tern/tools"
)

// testOptions are the options of an offline session in a fresh workspace
// recorded under home.
func testOptions(t *testing.T, home string, ws *tools.Workspace) Options {
	t.Helper()
	return Options{
		Version: "test", Provider: mock.New(mock.Options{}), Offline: true, Host: "offline",
		Workspace: ws, Registry: tools.DefaultRegistry(ws, nil), System: "sys",
		Model: "m", Policy: agent.PolicyAsk, Home: home,
	}
}

// newTestSession starts a session and closes it when the test ends.
func newTestSession(t *testing.T, opts Options) *Session {
	t.Helper()
	s, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// oneTurn records a finished turn in the session's log, so it is kept.
func oneTurn(t *testing.T, s *Session) {
	t.Helper()
	turn(s.log.recorder, "plan the change", "Here is the plan.")
	if err := s.log.recorder.Flush(); err != nil {
		t.Fatal(err)
	}
}

// TestChangesAreRecordedAndRestored: every change of model, policy and plan
// mode a front end makes is in the log, and continuing the session brings
// each back. Plan mode was once left out, so a session resumed after
// /plan came back able to edit.
func TestChangesAreRecordedAndRestored(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		change       func(s *Session)
		wantModel    string
		wantPolicy   agent.Policy
		wantPlanning bool
	}{
		{"model", func(s *Session) { s.SetModel("other") }, "other", agent.PolicyAsk, false},
		{"policy", func(s *Session) { s.SetPolicy(agent.PolicyAutoEdit) }, "m", agent.PolicyAutoEdit, false},
		{"plan mode on", func(s *Session) { s.EnterPlan() }, "m", agent.PolicyReadOnly, true},
		{"plan mode on and off", func(s *Session) { s.EnterPlan(); s.LeavePlan() }, "m", agent.PolicyAsk, false},
		{"plan accepted with auto-edit", func(s *Session) {
			s.EnterPlan()
			if err := s.AcceptPlan(agent.PolicyAutoEdit); err != nil {
				t.Error(err)
			}
		}, "m", agent.PolicyAutoEdit, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			ws, err := tools.NewWorkspace(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			s, err := New(context.Background(), testOptions(t, home, ws))
			if err != nil {
				t.Fatal(err)
			}
			oneTurn(t, s)
			tt.change(s)
			id := s.ID()
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			saved, err := Find(home, ws.Root, Choice{Mode: ResumeID, ID: id})
			if err != nil {
				t.Fatal(err)
			}
			opts := testOptions(t, home, ws)
			opts.Saved = saved
			r := newTestSession(t, opts)
			if r.Model() != tt.wantModel || r.Policy() != tt.wantPolicy || r.Planning() != tt.wantPlanning {
				t.Errorf("resumed: model %s policy %s planning %v; want %s %s %v",
					r.Model(), r.Policy(), r.Planning(), tt.wantModel, tt.wantPolicy, tt.wantPlanning)
			}
			if tt.wantPlanning && r.PlanPolicy() != agent.PolicyAsk {
				t.Errorf("leaving plan mode would bring back %s, want ask", r.PlanPolicy())
			}
		})
	}
}

// TestFlagsWinOverTheResumedSession: a model or policy the user chose on
// the command line replaces the session's, and the change is recorded; one
// that was not chosen leaves the session's.
func TestFlagsWinOverTheResumedSession(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	first := newTestSession(t, testOptions(t, home, ws))
	oneTurn(t, first)
	first.SetModel("session-model")
	first.SetPolicy(agent.PolicyAutoEdit)
	id := first.ID()
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name                      string
		modelChosen, policyChosen bool
		wantModel                 string
		wantPolicy                agent.Policy
	}{
		{"nothing chosen", false, false, "session-model", agent.PolicyAutoEdit},
		{"model chosen", true, false, "flag-model", agent.PolicyAutoEdit},
		{"policy chosen", false, true, "session-model", agent.PolicyReadOnly},
	}
	for _, tt := range tests {
		saved, err := Find(home, ws.Root, Choice{Mode: ResumeID, ID: id})
		if err != nil {
			t.Fatal(err)
		}
		opts := testOptions(t, home, ws)
		opts.Saved, opts.Fork = saved, true // a fork each time: the original stays as it was
		opts.Model, opts.ModelChosen = "flag-model", tt.modelChosen
		opts.Policy, opts.PolicyChosen = agent.PolicyReadOnly, tt.policyChosen
		s := newTestSession(t, opts)
		if s.Model() != tt.wantModel || s.Policy() != tt.wantPolicy {
			t.Errorf("%s: model %s policy %s, want %s %s", tt.name, s.Model(), s.Policy(), tt.wantModel, tt.wantPolicy)
		}
		fork := s.ID()
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		loaded, err := session.Find(home, fork)
		if err != nil {
			t.Fatalf("%s: the fork was not kept: %v", tt.name, err)
		}
		back, err := load(loaded)
		if err != nil {
			t.Fatal(err)
		}
		if back.state.Model != tt.wantModel || back.state.Policy != tt.wantPolicy {
			t.Errorf("%s: the log says model %s policy %s, want %s %s", tt.name, back.state.Model, back.state.Policy, tt.wantModel, tt.wantPolicy)
		}
	}
}

// TestWithoutALogSessionCommandsAreUnavailable: with no tern home the
// session runs unrecorded, and every command that needs the log says so
// instead of failing some other way.
func TestWithoutALogSessionCommandsAreUnavailable(t *testing.T) {
	t.Parallel()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var notices []string
	opts := testOptions(t, "", ws)
	opts.Notify = func(s string) { notices = append(notices, s) }
	s := newTestSession(t, opts)
	if s.Recorded() || s.ID() != "" || len(notices) != 1 {
		t.Fatalf("recorded %v id %q notices %q", s.Recorded(), s.ID(), notices)
	}
	ctx := context.Background()
	calls := map[string]error{}
	_, calls["List"] = s.List(ctx)
	_, calls["Open"] = s.Open(ctx, "x", false)
	_, calls["Fork"] = s.Fork(ctx, 0)
	_, calls["Turns"] = s.Turns(ctx)
	_, calls["Rewind"] = s.Rewind(ctx, 1, RewindAll, ConflictsAsk)
	_, calls["UndoRewind"] = s.UndoRewind(ctx, ConflictsAsk)
	_, calls["Undo"] = s.Undo(ctx, false)
	_, calls["Diff"] = s.Diff(ctx)
	_, calls["Export"] = s.Export("")
	_, calls["Rename"] = s.Rename("x")
	calls["RememberModel"] = s.RememberModel("x")
	for name, err := range calls {
		if !errors.Is(err, ErrUnavailable) {
			t.Errorf("%s without a log: %v, want ErrUnavailable", name, err)
		}
	}
	if s.ContinueUnrecorded() {
		t.Error("ContinueUnrecorded without a log said recording had failed")
	}
}
