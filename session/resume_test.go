package session

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// TestResumeRestoresWhatShapedTheSession resumes a session and checks each
// thing that shaped it: conversation, model, approval policy, grants and
// token totals, and that the grants still decide.
func TestResumeRestoresWhatShapedTheSession(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{files: map[string]string{"a.txt": "one\n"}})
	h.prov.Add(
		calls("", "read_file", args("path", "a.txt")),
		calls("", "edit_file", args("path", "a.txt", "old_string", "one", "new_string", "two"),
			"run_shell", args("command", "date")),
		answer("Done."),
	)
	h.decide = func(*agent.ApprovalRequest) agent.Decision { return agent.Decision{Kind: agent.AllowSession} }
	h.turn("change a.txt and say hi")
	h.a.SetModel("model-b")
	h.rec.ModelChanged("model-b")
	h.a.SetPolicy(agent.PolicyReadOnly)
	h.rec.PolicyChanged(agent.PolicyReadOnly)
	h.a.SetPolicy(agent.PolicyAutoEdit)
	h.rec.PolicyChanged(agent.PolicyAutoEdit)
	h.prov.Add(answer("Still here."))
	h.turn("are you there?")
	want := h.a.Messages()
	wantGrants := h.a.Grants()
	h.close()

	s, err := Load(h.w.Path())
	if err != nil {
		t.Fatal(err)
	}
	st, err := Restore(s)
	if err != nil {
		t.Fatal(err)
	}
	h.checkConversation(st)
	if st.Model != "model-b" {
		t.Errorf("model = %q, want model-b", st.Model)
	}
	if st.Policy != agent.PolicyAutoEdit {
		t.Errorf("policy = %s, want auto-edit", st.Policy)
	}
	if !reflect.DeepEqual(st.Grants, []string{"edit", "run_shell:date"}) || !reflect.DeepEqual(st.Grants, wantGrants) {
		t.Errorf("grants = %v, want %v as the agent had them", st.Grants, wantGrants)
	}
	// Three requests of the first turn (200+200+100 prompt) and one of the second.
	wantUsage := provider.Usage{PromptTokens: 600, CompletionTokens: 60, CachedPromptTokens: 300}
	if st.Usage != wantUsage {
		t.Errorf("token totals = %+v, want %+v", st.Usage, wantUsage)
	}
	if st.LastUsage != (provider.Usage{PromptTokens: 100, CompletionTokens: 10, CachedPromptTokens: 50}) {
		t.Errorf("last usage = %+v", st.LastUsage)
	}
	if len(st.Turns) != 2 || st.Turns[0].Files != 1 || st.LastTurn != 2 {
		t.Errorf("turns = %+v, last %d", st.Turns, st.LastTurn)
	}
	if len(st.Compactions) != 0 {
		t.Errorf("compactions = %+v, want none", st.Compactions)
	}

	h2 := newHarness(t, harnessOptions{resume: &st, path: h.w.Path(), home: h.home, ws: h.ws})
	if h2.a.Model() != "model-b" || h2.a.Policy() != agent.PolicyAutoEdit || !reflect.DeepEqual(h2.a.Grants(), wantGrants) {
		t.Errorf("resumed agent: model %s policy %s grants %v", h2.a.Model(), h2.a.Policy(), h2.a.Grants())
	}
	if got := h2.a.Messages(); !reflect.DeepEqual(nilIfEmpty(got), nilIfEmpty(want)) {
		t.Errorf("resumed agent's conversation differs\n got: %s\nwant: %s", dump(got), dump(want))
	}
	h2.prov.Add(calls("", "run_shell", args("command", "date -u")), answer("ok"))
	h2.decide = func(r *agent.ApprovalRequest) agent.Decision {
		t.Errorf("asked about %s although the session granted it", r.Call.Args)
		return agent.Decision{Kind: agent.Deny}
	}
	evs := h2.turn("say it again")
	granted := false
	for _, ev := range evs {
		if ev.Kind == agent.EventApprovalResolved && ev.Decision.Auto && strings.Contains(ev.Decision.Message, "for this session") {
			granted = true
		}
	}
	if !granted {
		t.Errorf("the restored grant did not allow the command: %v", kinds(evs))
	}
}

func TestRestoreCompaction(t *testing.T) {
	t.Parallel()
	h := testHeader()
	h.Workspace = ""
	s := &Session{Header: h, Records: []Record{
		{Seq: 1, Body: UserMessage{Turn: 1, Text: "first"}},
		{Seq: 2, Body: AssistantMessage{Text: "answer one"}},
		{Seq: 3, Body: UserMessage{Turn: 2, Text: "second"}},
		{Seq: 4, Body: AssistantMessage{Text: "answer two"}},
		{Seq: 5, Body: Compaction{Summary: "We talked twice.", FromSeq: 1, ToSeq: 2}},
		{Seq: 6, Body: UserMessage{Turn: 3, Text: "third"}},
	}}
	st, err := Restore(s)
	if err != nil {
		t.Fatal(err)
	}
	want := []provider.Message{
		{Role: provider.RoleUser, Content: "We talked twice."},
		{Role: provider.RoleUser, Content: "second"},
		{Role: provider.RoleAssistant, Content: "answer two"},
		{Role: provider.RoleUser, Content: "third"},
	}
	if !reflect.DeepEqual(st.Messages, want) {
		t.Errorf("conversation = %s", dump(st.Messages))
	}
	if len(st.Compactions) != 1 || st.Compactions[0].ToSeq != 2 {
		t.Errorf("compactions = %+v", st.Compactions)
	}
}

// TestRestoreWrapsToolOutputsThatRemain checks the tool messages a
// compaction left are wrapped for the model, and that the summary, which
// takes the seq of the first message it replaced (here a tool result), is
// not.
func TestRestoreWrapsToolOutputsThatRemain(t *testing.T) {
	t.Parallel()
	h := testHeader()
	h.Workspace = ""
	call := func(id string) AssistantMessage {
		return AssistantMessage{ToolCalls: []ToolCall{{ID: id, Name: "read_file", Arguments: `{"path":"a"}`}}}
	}
	s := &Session{Header: h, Records: []Record{
		{Seq: 1, Body: UserMessage{Turn: 1, Text: "first"}},
		{Seq: 2, Body: call("c1")},
		{Seq: 3, Body: ToolResult{CallID: "c1", Tool: "read_file", Status: "ok", Output: "one"}},
		{Seq: 4, Body: AssistantMessage{Text: "answer one"}},
		{Seq: 5, Body: Compaction{Summary: "We read a.", FromSeq: 3, ToSeq: 4}},
		{Seq: 6, Body: UserMessage{Turn: 2, Text: "again"}},
		{Seq: 7, Body: call("c2")},
		{Seq: 8, Body: ToolResult{CallID: "c2", Tool: "read_file", Status: "error", Output: "gone"}},
	}}
	st, err := Restore(s)
	if err != nil {
		t.Fatal(err)
	}
	want := []provider.Message{
		{Role: provider.RoleUser, Content: "first"},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"a"}`}}},
		{Role: provider.RoleUser, Content: "We read a."},
		{Role: provider.RoleUser, Content: "again"},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "c2", Name: "read_file", Arguments: `{"path":"a"}`}}},
		agent.ToolMessage("c2", "read_file", tools.StatusError, "gone"),
	}
	if !reflect.DeepEqual(st.Messages, want) {
		t.Errorf("conversation = %s\nwant %s", dump(st.Messages), dump(want))
	}
}

func TestRestoreWarnsAboutWhatIsGone(t *testing.T) {
	t.Parallel()
	h := testHeader()
	h.Workspace = "/no/such/workspace/anywhere"
	h.ToolsHash = "old"
	st, err := Restore(&Session{Header: h, Warnings: []string{"line 9 was cut off"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Warnings) != 2 || !strings.Contains(st.Warnings[1], "/no/such/workspace/anywhere no longer exists") {
		t.Errorf("warnings = %q", st.Warnings)
	}
	got := st.Adapt(Current{Workspace: "/here", Model: "current-model", Models: []string{"current-model", "other"}, ToolsHash: "new"})
	if len(got) != 2 || !strings.Contains(got[0], "test-model is no longer offered") || !strings.Contains(got[1], "tools changed") {
		t.Errorf("adapt warnings = %q", got)
	}
	if st.Model != "current-model" {
		t.Errorf("model = %s, want the current one", st.Model)
	}
	st2, _ := Restore(&Session{Header: testHeader()})
	if w := st2.Adapt(Current{Model: "x", Models: []string{"test-model"}}); len(w) != 0 || st2.Model != "test-model" {
		t.Errorf("a model still offered was replaced: %q, %s", w, st2.Model)
	}
}

// BenchmarkRestore5000 rebuilds the state of a session of 5,000 records
// (already loaded): the cost of resuming on top of Load.
func BenchmarkRestore5000(b *testing.B) {
	w, err := Create(b.TempDir(), testHeader())
	if err != nil {
		b.Fatal(err)
	}
	for i := range 5000 {
		if _, err := w.Append(eventMix(i)); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	s, err := Load(w.Path())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		st, err := Restore(s)
		if err != nil {
			b.Fatal(err)
		}
		if len(st.Messages) < 2000 {
			b.Fatalf("restored %d messages", len(st.Messages))
		}
	}
}

// TestResumeDropsRevokedGrants: a grant taken back in /permissions is not
// restored on resume, and one granted again after it is.
func TestResumeDropsRevokedGrants(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		regrant bool
		want    []string
	}{
		{"revoked", false, []string{"edit"}},
		{"revoked then granted again", true, []string{"edit", "run_shell:date"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, harnessOptions{files: map[string]string{"a.txt": "one\n"}})
			h.prov.Add(
				calls("", "read_file", args("path", "a.txt")),
				calls("", "edit_file", args("path", "a.txt", "old_string", "one", "new_string", "two"),
					"run_shell", args("command", "date")),
				answer("Done."),
			)
			h.decide = func(*agent.ApprovalRequest) agent.Decision { return agent.Decision{Kind: agent.AllowSession} }
			h.turn("change a.txt and show the date")
			if !h.a.Revoke("run_shell:date") {
				t.Fatal("the agent did not hold the grant")
			}
			h.rec.GrantRevoked("run_shell:date")
			if tc.regrant {
				h.prov.Add(calls("", "run_shell", args("command", "date -u")), answer("ok"))
				h.turn("again")
			}
			h.close()
			s, err := Load(h.w.Path())
			if err != nil {
				t.Fatal(err)
			}
			st, err := Restore(s)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(st.Grants, tc.want) {
				t.Errorf("grants = %v, want %v", st.Grants, tc.want)
			}
		})
	}
}

func TestEffortChangeResumes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		record     func(r *Recorder)
		model      string
		wantEffort string
	}{
		{"effort, then a model change that keeps it", func(r *Recorder) {
			r.EffortChanged("model-b", "high")
			r.ModelChanged("model-c")
		}, "model-c", "high"},
		{"back to the model's default", func(r *Recorder) {
			r.EffortChanged("model-b", "high")
			r.EffortChanged("model-b", "")
		}, "model-b", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, harnessOptions{})
			tc.record(h.rec)
			h.close()
			s, err := Load(h.w.Path())
			if err != nil {
				t.Fatal(err)
			}
			st, err := Restore(s)
			if err != nil {
				t.Fatal(err)
			}
			if st.Model != tc.model || st.Effort != tc.wantEffort {
				t.Errorf("model %q effort %q, want %q %q", st.Model, st.Effort, tc.model, tc.wantEffort)
			}
		})
	}
}
