package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/provider/mock"
	"github.com/ternhq/tern/session"
	"github.com/ternhq/tern/tools"
)

// switchFixture is a workspace with a saved session, and a running one
// (new, empty) whose agent the switcher changes.
type switchFixture struct {
	home  string
	ws    *tools.Workspace
	agent *agent.Agent
	log   *sessionLog
	sw    *Session
	// saved is the saved session's id and path.
	saved, savedPath string
}

// newSwitchFixture writes a saved session that changed its model and
// policy, granted edits and used tokens, then opens a new running one.
func newSwitchFixture(t *testing.T) *switchFixture {
	t.Helper()
	f := &switchFixture{home: t.TempDir()}
	var err error
	if f.ws, err = tools.NewWorkspace(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	reg := tools.DefaultRegistry(f.ws, nil)
	w, err := session.Create(f.home, session.Header{
		TernVersion: "test", Workspace: f.ws.Root, Model: "old-model", ApprovalPolicy: "ask",
		SystemPrompt: "the saved session's system prompt, byte for byte", ToolsHash: toolsHash(reg),
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []session.Body{
		session.UserMessage{Turn: 1, Text: "rename the package"},
		session.AssistantMessage{Text: "Renamed."},
		session.Usage{Prompt: 1000, Completion: 50},
		session.ModelChange{Model: "saved-model"},
		session.PolicyChange{Policy: "auto-edit"},
		session.Grant{Scope: "edit"},
		session.UserMessage{Turn: 2, Text: "now the tests"},
		session.AssistantMessage{Text: "Tests renamed too."},
		session.Usage{Prompt: 1500, Completion: 70},
	} {
		if _, err := w.Append(b); err != nil {
			t.Fatal(err)
		}
	}
	f.saved, f.savedPath = w.Header().ID, w.Path()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	// The saved session was used a minute ago; the running one is newer.
	old := time.Now().Add(-time.Minute)
	if err := os.Chtimes(f.savedPath, old, old); err != nil {
		t.Fatal(err)
	}

	f.sw, err = New(context.Background(), Options{
		Version: "test", Provider: mock.New(mock.Options{}), Offline: true, Host: "offline",
		Workspace: f.ws, Registry: reg, System: "today's system prompt",
		Model: "flag-model", Policy: agent.PolicyReadOnly, Home: f.home,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.sw.Close() })
	f.agent, f.log = f.sw.agent, f.sw.log
	return f
}

func TestSessionResumeCarriesTheSession(t *testing.T) {
	t.Parallel()
	f := newSwitchFixture(t)
	ctx := context.Background()
	fresh := f.log.writer.Path()

	list, err := f.sw.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The running session holds no message yet: the picker does not offer it.
	if len(list) != 1 || list[0].ID != f.saved || list[0].Current ||
		list[0].Title != "rename the package" || list[0].Messages != 4 || list[0].Model != "old-model" {
		t.Fatalf("list %+v", list)
	}

	sw, err := f.sw.Open(ctx, f.saved[:6], false)
	if err != nil {
		t.Fatal(err)
	}
	if sw.ID != f.saved || !strings.Contains(sw.Summary, "resumed session "+f.saved) || sw.Replay == nil {
		t.Fatalf("switch %+v", sw)
	}
	// The agent took the session: system prompt, history, model, policy, grants.
	msgs := f.agent.Messages()
	want := []string{"the saved session's system prompt, byte for byte", "rename the package", "Renamed.", "now the tests", "Tests renamed too."}
	var got []string
	for _, m := range msgs {
		got = append(got, m.Content)
	}
	if !reflect.DeepEqual(got, want) || msgs[0].Role != provider.RoleSystem {
		t.Errorf("agent messages %q, want %q", got, want)
	}
	if f.agent.Model() != "saved-model" || f.agent.Policy() != agent.PolicyAutoEdit {
		t.Errorf("model %s policy %s", f.agent.Model(), f.agent.Policy())
	}
	if g := f.agent.Grants(); !reflect.DeepEqual(g, []string{"edit"}) {
		t.Errorf("grants %v", g)
	}
	// Token totals come with the replay: the two Usage events sum to them.
	var total provider.Usage
	for ev := range sw.Replay {
		if ev.Kind == agent.EventUsage {
			total = total.Add(ev.Usage)
		}
	}
	if total.PromptTokens != 2500 || total.CompletionTokens != 120 {
		t.Errorf("replayed usage %+v", total)
	}
	// The new session never got a turn: it is gone, and the log appends to
	// the saved one.
	if _, err := os.Stat(fresh); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the empty session %s was left behind: %v", filepath.Base(fresh), err)
	}
	if f.log.ID() != f.saved || f.log.writer.Path() != f.savedPath {
		t.Fatalf("log writes %s", f.log.writer.Path())
	}
	turn(f.log.recorder, "third prompt", "third answer")
	if err := f.log.recorder.Flush(); err != nil {
		t.Fatal(err)
	}
	s, err := session.Load(f.savedPath)
	if err != nil {
		t.Fatal(err)
	}
	st, err := session.Restore(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Turns) != 3 || st.Turns[2].Text != "third prompt" || st.Turns[2].Turn != 3 {
		t.Errorf("turns after resuming %+v", st.Turns)
	}
	// /clear after the switch starts from the resumed system prompt.
	if f.log.header.SystemPrompt != want[0] || f.log.header.Model != "saved-model" || f.log.header.ApprovalPolicy != "auto-edit" {
		t.Errorf("header template %+v", f.log.header)
	}
	if _, err := f.sw.Open(ctx, f.saved, false); err == nil {
		t.Error("opened the running session again")
	}
}

func TestSessionForkAndRewind(t *testing.T) {
	t.Parallel()
	f := newSwitchFixture(t)
	ctx := context.Background()
	if _, err := f.sw.Fork(ctx, 0); err == nil {
		t.Error("forked a session without turns")
	}
	if _, err := f.sw.Open(ctx, f.saved, false); err != nil {
		t.Fatal(err)
	}

	// Fork through turn 1: a new session with the parent pointer and only
	// the first turn; the parent keeps both.
	sw, err := f.sw.Fork(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if sw.ID == f.saved || f.log.ID() != sw.ID || !strings.Contains(sw.Summary, "through turn 1") {
		t.Fatalf("fork switch %+v, log %s", sw, f.log.ID())
	}
	if h := f.log.writer.Header(); h.Parent != f.saved {
		t.Errorf("fork parent %q", h.Parent)
	}
	if n := len(f.agent.Messages()); n != 3 {
		t.Errorf("agent holds %d messages after forking through turn 1, want 3", n)
	}
	if _, err := os.Stat(f.savedPath); err != nil {
		t.Errorf("the parent is gone: %v", err)
	}

	// A second turn in the fork, then rewind the conversation to before it.
	turn(f.log.recorder, "second in the fork", "ok")
	if err := f.agent.SetHistory(append(f.agent.Messages()[1:],
		provider.Message{Role: provider.RoleUser, Content: "second in the fork"},
		provider.Message{Role: provider.RoleAssistant, Content: "ok"})); err != nil {
		t.Fatal(err)
	}
	turns, err := f.sw.Turns(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(turns.Turns) != 2 || turns.Undo != "" {
		t.Fatalf("turns %+v", turns)
	}
	last := turns.Turns[1]
	sw, err = f.sw.Rewind(ctx, last.Turn, RewindConversation, ConflictsAsk)
	if err != nil {
		t.Fatal(err)
	}
	if sw.Prompt != "second in the fork" || sw.Replay == nil {
		t.Errorf("rewind switch %+v", sw)
	}
	if n := len(f.agent.Messages()); n != 3 {
		t.Errorf("agent holds %d messages after the rewind, want 3", n)
	}
	turns, err = f.sw.Turns(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(turns.Turns) != 1 || !strings.Contains(turns.Undo, "conversation to before turn") {
		t.Fatalf("turns after the rewind %+v", turns)
	}
	sw, err = f.sw.UndoRewind(ctx, ConflictsAsk)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.agent.Messages()); n != 5 || sw.Replay == nil {
		t.Errorf("agent holds %d messages after undoing the rewind, want 5", n)
	}
}

func TestSessionRewindConflicts(t *testing.T) {
	t.Parallel()
	f := newSwitchFixture(t)
	ctx := context.Background()
	abs := filepath.Join(f.ws.Root, "a.txt")
	rec := f.log.recorder
	call := &agent.Call{ID: "c1", Name: "write_file", Args: []byte(`{"path":"a.txt","content":"tern\n"}`)}
	rec.Handle(agent.Event{Kind: agent.EventTurnStarted, Text: "make a.txt"})
	rec.Handle(agent.Event{Kind: agent.EventToolCallReady, Call: call})
	if err := f.ws.BeforeWrite(abs, "a.txt"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(abs, []byte("tern\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f.ws.AfterWrite(abs, "a.txt", []byte("tern\n"))
	rec.Handle(agent.Event{Kind: agent.EventToolFinished, Call: call, Result: &agent.ToolResult{Status: tools.StatusOK, Output: "wrote a.txt"}})
	rec.Handle(agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
	if err := os.WriteFile(abs, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	_, err := f.sw.Rewind(ctx, 1, RewindCode, ConflictsAsk)
	var rc *RewindConflicts
	if !errors.As(err, &rc) || !reflect.DeepEqual(rc.Paths, []string{"a.txt"}) {
		t.Fatalf("rewind over a file changed outside tern: %v", err)
	}
	if !strings.Contains(rc.Diffs, "-tern") || !strings.Contains(rc.Diffs, "+mine") {
		t.Errorf("the conflict does not show what overwriting loses:\n%s", rc.Diffs)
	}
	if got, _ := os.ReadFile(abs); string(got) != "mine\n" {
		t.Fatalf("a stopped rewind changed a.txt to %q", got)
	}
	sw, err := f.sw.Rewind(ctx, 1, RewindCode, ConflictsOverwrite)
	if err != nil {
		t.Fatal(err)
	}
	if sw.Replay != nil || !strings.Contains(sw.Summary, "removed a.txt") {
		t.Errorf("code rewind switch %+v", sw)
	}
	if _, err := os.Stat(abs); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a.txt, created in the turn, still exists: %v", err)
	}
	// The conversation still holds the write: the next message says the
	// file is gone.
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	go f.sw.Run(runCtx)
	if err := f.sw.Submit("go on"); err != nil {
		t.Fatal(err)
	}
	ev := <-f.sw.Events()
	if ev.Kind != agent.EventTurnStarted || !agent.HasRevertNote(ev.Text) ||
		!strings.Contains(ev.Text, "removed (you had created them): a.txt") || !strings.HasSuffix(ev.Text, "\n\ngo on") {
		t.Errorf("the message after a code rewind is %q", ev.Text)
	}
	stop()
	for range f.sw.Events() {
	}
}
