package agent

import (
	"errors"
	"reflect"
	"testing"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// history is a conversation with a call whose gateway id was gw_read_file_0.
func history() []provider.Message {
	return []provider.Message{
		{Role: provider.RoleUser, Content: "what is main.go?"},
		{Role: provider.RoleAssistant, Content: "Reading.", ToolCalls: []provider.ToolCall{{ID: "gw_read_file_0", Name: "read_file", Arguments: `{"path":"main.go"}`}}},
		ToolMessage("gw_read_file_0", "read_file", tools.StatusOK, "1\tpackage main\n"),
		InterruptedMessage("It is", "thinking"),
	}
}

func TestHistoryContinuesTheConversation(t *testing.T) {
	t.Parallel()
	read, edit, _ := fakeTools()
	h := newHarness(t, tools.NewRegistry(read, edit), func(o *Options) {
		o.History = history()
		o.Grants = []string{"edit"}
	}, calls("read_file", `{"path":"main.go"}`, "edit_file", `{"path":"main.go"}`), answer("done"))
	want := append([]provider.Message{{Role: provider.RoleSystem, Content: "system prompt"}}, history()...)
	if got := h.a.Messages(); !reflect.DeepEqual(got, want) {
		t.Fatalf("messages:\n%s", dumpHistory(got))
	}
	if got := h.a.Grants(); !reflect.DeepEqual(got, []string{"edit"}) {
		t.Errorf("grants = %v", got)
	}
	evs := h.turn("again", func(ev Event) {
		if ev.Kind == EventApprovalRequested {
			t.Errorf("asked about %s although edits were granted", ev.Call.Name)
		}
	})
	reqs := h.prov.Requests()
	if len(reqs) == 0 || !reflect.DeepEqual(reqs[0].Messages[:len(want)], want) {
		t.Fatalf("first request does not start with the history:\n%s", dumpHistory(reqs[0].Messages))
	}
	ready := eventsOf(evs, EventToolCallReady)
	if len(ready) != 2 || ready[0].Call.ID == "gw_read_file_0" {
		t.Errorf("a call reused the id of one in the history: %+v", ready)
	}
	checkHistory(t, h.a.Messages())
}

func TestHistoryRefusesSystemMessages(t *testing.T) {
	t.Parallel()
	read, _, _ := fakeTools()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	_, err = New(Options{Provider: &fakeProvider{}, Tools: tools.NewRegistry(read), Workspace: ws,
		History: []provider.Message{{Role: provider.RoleSystem, Content: "x"}}})
	if err == nil {
		t.Error("a system message in the history was accepted")
	}
	_, err = New(Options{Provider: &fakeProvider{}, Tools: tools.NewRegistry(read), Workspace: ws, Grants: []string{""}})
	if err == nil {
		t.Error("an empty grant was accepted")
	}
}

func TestSetHistory(t *testing.T) {
	t.Parallel()
	read, _, _ := fakeTools()
	h := newHarness(t, tools.NewRegistry(read), nil, answer("one"), answer("two"))
	h.turn("first", nil)
	abs := h.ws.Root + "/seen.go"
	h.ws.Files.Record(abs, []byte("x"))
	if err := h.a.SetHistory(history()[:1]); err != nil {
		t.Fatal(err)
	}
	if got := h.a.Messages(); len(got) != 2 || got[1].Content != "what is main.go?" {
		t.Errorf("messages after SetHistory:\n%s", dumpHistory(got))
	}
	if h.ws.Files.Seen(abs) {
		t.Error("SetHistory kept what the model had read; the files may have changed")
	}
	if err := h.a.SetHistory([]provider.Message{{Role: provider.RoleSystem}}); err == nil {
		t.Error("SetHistory accepted a system message")
	}
	h.turn("second", nil)
	if got := h.a.Messages(); len(got) != 4 || got[3].Content != "two" {
		t.Errorf("conversation after SetHistory and a turn:\n%s", dumpHistory(got))
	}
}

func TestSetHistoryWhileBusy(t *testing.T) {
	t.Parallel()
	read, _, _ := fakeTools()
	h := newHarness(t, tools.NewRegistry(read), nil, script{Deltas: []provider.Delta{text("x")}, Hang: true})
	if err := h.a.Submit("hang"); err != nil {
		t.Fatal(err)
	}
	if err := h.a.SetHistory(nil); !errors.Is(err, ErrBusy) {
		t.Errorf("SetHistory during a turn: %v, want ErrBusy", err)
	}
	h.a.Cancel()
	h.collect(nil)
}

func TestApprovalRequestCarriesItsGrants(t *testing.T) {
	t.Parallel()
	_, _, shell := fakeTools()
	h := newHarness(t, tools.NewRegistry(shell), nil,
		calls("run_shell", `{"command":"go test ./... && git status"}`), answer("ok"))
	var grants []string
	h.turn("test", func(ev Event) {
		if ev.Kind == EventApprovalRequested {
			grants = ev.Approval.Grants
			ev.Approval.Reply(Decision{Kind: AllowSession})
		}
	})
	want := []string{"run_shell:go test", "run_shell:git status"}
	if !reflect.DeepEqual(grants, want) || !reflect.DeepEqual(h.a.Grants(), []string{"run_shell:git status", "run_shell:go test"}) {
		t.Errorf("request grants %v, agent grants %v; want %v", grants, h.a.Grants(), want)
	}
}

func TestSetGrants(t *testing.T) {
	t.Parallel()
	read, _, _ := fakeTools()
	h := newHarness(t, tools.NewRegistry(read), func(o *Options) { o.Grants = []string{"edit"} })
	if err := h.a.SetGrants([]string{"run_shell:go test", "run_shell:git status"}); err != nil {
		t.Fatal(err)
	}
	if got := h.a.Grants(); !reflect.DeepEqual(got, []string{"run_shell:git status", "run_shell:go test"}) {
		t.Errorf("grants = %v", got)
	}
	if err := h.a.SetGrants([]string{""}); err == nil {
		t.Error("an empty grant was accepted")
	}
}

func TestSetSystem(t *testing.T) {
	t.Parallel()
	read, _, _ := fakeTools()
	h := newHarness(t, tools.NewRegistry(read), func(o *Options) { o.History = history()[:1] })
	for _, tc := range []struct {
		system string
		want   []provider.Message
	}{
		{"the resumed session's prompt", append([]provider.Message{{Role: provider.RoleSystem, Content: "the resumed session's prompt"}}, history()[:1]...)},
		{"", history()[:1]},
		{"back again", append([]provider.Message{{Role: provider.RoleSystem, Content: "back again"}}, history()[:1]...)},
	} {
		if err := h.a.SetSystem(tc.system); err != nil {
			t.Fatal(err)
		}
		if got := h.a.Messages(); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("SetSystem(%q):\n%s", tc.system, dumpHistory(got))
		}
	}
	// SetHistory keeps the prompt SetSystem set.
	if err := h.a.SetHistory(history()[:2]); err != nil {
		t.Fatal(err)
	}
	if got := h.a.Messages(); len(got) != 3 || got[0].Content != "back again" {
		t.Errorf("after SetHistory:\n%s", dumpHistory(got))
	}
}
