package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

func TestPlanModeRefusesWritesAndTellsTheModel(t *testing.T) {
	t.Parallel()
	read, edit, shell := fakeTools()
	h := newHarness(t, tools.NewRegistry(read, edit, shell), func(o *Options) {
		o.Policy = PolicyAutoEdit
		o.Tools.Add(tools.NewWriteFile(o.Workspace)) // the real tool: a refusal must leave no file
	},
		calls("edit_file", `{"path":"a.go"}`, "write_file", `{"path":"new.go","content":"package x\n"}`, "run_shell", `{"command":"touch x"}`, "read_file", `{"path":"a.go"}`),
		answer("1. Change a.go\n2. Run the tests"),
		answer("Done."),
	)
	system := h.a.Messages()[0].Content
	h.a.EnterPlan()
	if !h.a.Planning() || h.a.Policy() != PolicyReadOnly {
		t.Fatalf("plan mode: planning %v, policy %v", h.a.Planning(), h.a.Policy())
	}
	evs := h.turn("add a flag", func(ev Event) {
		if ev.Kind == EventApprovalRequested {
			t.Errorf("plan mode asked about %s instead of refusing it", ev.Approval.Call.Name)
			ev.Approval.Reply(Decision{Kind: AllowOnce})
		}
	})
	for _, ev := range eventsOf(evs, EventToolFinished) {
		want := tools.StatusDenied
		if ev.Call.Name == "read_file" {
			want = tools.StatusOK
		}
		if ev.Result.Status != want {
			t.Errorf("%s ended %v in plan mode, want %v", ev.Call.Name, ev.Result.Status, want)
		}
	}
	if len(edit.runs()) != 0 || len(shell.runs()) != 0 || len(read.runs()) != 1 {
		t.Fatalf("runs in plan mode: edit %v, shell %v, read %v", edit.runs(), shell.runs(), read.runs())
	}
	if _, err := os.Stat(filepath.Join(h.ws.Root, "new.go")); !os.IsNotExist(err) {
		t.Fatalf("write_file wrote in plan mode: %v", err)
	}
	msgs := h.a.Messages()
	if msgs[0].Content != system {
		t.Fatal("plan mode changed the system prompt")
	}
	if u := msgs[1]; u.Role != provider.RoleUser || u.Content != PlanEnterNote+"\n\nadd a flag" {
		t.Fatalf("first message in plan mode: %q", u.Content)
	}
	if ev := evs[0]; ev.Kind != EventTurnStarted || ev.Text != msgs[1].Content {
		t.Fatalf("TurnStarted carries %q, the conversation %q", ev.Text, msgs[1].Content)
	}

	if err := h.a.AcceptPlan(); err != nil {
		t.Fatal(err)
	}
	h.collect(nil)
	if h.a.Planning() || h.a.Policy() != PolicyAutoEdit {
		t.Fatalf("after accepting: planning %v, policy %v", h.a.Planning(), h.a.Policy())
	}
	msgs = h.a.Messages()
	if got := msgs[len(msgs)-2].Content; got != PlanLeaveNote+"\n\n"+PlanAccepted {
		t.Fatalf("accept message %q", got)
	}
}

func TestPlanModeNotesAreSentOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tools.NewRegistry(), nil, answer("a"), answer("b"), answer("c"), answer("d"))
	h.a.EnterPlan()
	h.a.EnterPlan() // a no-op: still one note, and the policy before plan mode is kept
	if p := h.a.LeavePlan(); p != PolicyAsk {
		t.Fatalf("LeavePlan restored %v", p)
	}
	h.turn("one", nil) // the model never heard of plan mode: no note
	h.a.EnterPlan()
	h.turn("two", nil)
	h.turn("three", nil)
	h.a.LeavePlan()
	h.turn("four", nil)
	var got []string
	for _, m := range h.a.Messages() {
		if m.Role == provider.RoleUser {
			got = append(got, m.Content)
		}
	}
	want := []string{"one", PlanEnterNote + "\n\ntwo", "three", PlanLeaveNote + "\n\nfour"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("user messages:\n%q\nwant\n%q", got, want)
	}
	// A new conversation in plan mode is told again.
	h.a.EnterPlan()
	h.turn("five", nil)
	if err := h.a.Reset(); err != nil {
		t.Fatal(err)
	}
	if err := h.a.Submit("six"); err != nil {
		t.Fatal(err)
	}
	evs := h.collect(nil)
	if evs[0].Text != PlanEnterNote+"\n\nsix" {
		t.Fatalf("after Reset in plan mode: %q", evs[0].Text)
	}
}

func TestSplitPlanNote(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ prompt, note, text string }{
		{PlanEnterNote + "\n\nadd a flag", PlanEnterNote, "add a flag"},
		{PlanLeaveNote + "\n\n" + PlanAccepted, PlanLeaveNote, PlanAccepted},
		{"[Plan mode] typed by hand", "", "[Plan mode] typed by hand"},
	} {
		if note, text := SplitPlanNote(tc.prompt); note != tc.note || text != tc.text {
			t.Errorf("SplitPlanNote(%q) = %q, %q", tc.prompt, note, text)
		}
	}
}
