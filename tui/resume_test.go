package tui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/provider"
)

// fakeSessions stands in for cmd/tern's switcher: it answers from fields
// and records the calls.
type fakeSessions struct {
	mu    sync.Mutex
	list  []app.SessionInfo
	turns app.Turns
	// sw is what Open, Fork, Rewind and UndoRewind return.
	sw *app.Switch
	// conflicts makes Rewind and UndoRewind refuse with app.ConflictsAsk.
	conflicts []string
	calls     []string
}

func (f *fakeSessions) note(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, sprintf(format, args...))
}

func (f *fakeSessions) called() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

func (f *fakeSessions) List(context.Context) ([]app.SessionInfo, error) {
	f.note("list")
	return f.list, nil
}

func (f *fakeSessions) Open(_ context.Context, id string, fork bool) (*app.Switch, error) {
	f.note("open %s fork=%v", id, fork)
	return f.sw, nil
}

func (f *fakeSessions) Fork(_ context.Context, turn int) (*app.Switch, error) {
	f.note("fork %d", turn)
	return f.sw, nil
}

func (f *fakeSessions) Turns(context.Context) (*app.Turns, error) {
	f.note("turns")
	t := f.turns
	return &t, nil
}

func (f *fakeSessions) Rewind(_ context.Context, turn int, mode app.RewindMode, c app.ConflictChoice) (*app.Switch, error) {
	f.note("rewind %d mode=%d conflicts=%d", turn, mode, c)
	if len(f.conflicts) > 0 && c == app.ConflictsAsk {
		return nil, &app.RewindConflicts{Paths: f.conflicts, Diffs: "--- a/parse.go\n+++ b/parse.go\n@@ -1 +1 @@\n-tern wrote this\n+edited by hand\n"}
	}
	return f.sw, nil
}

func (f *fakeSessions) UndoRewind(_ context.Context, c app.ConflictChoice) (*app.Switch, error) {
	f.note("undo-rewind conflicts=%d", c)
	return f.sw, nil
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// day is when the test sessions were used; times show as given (cmd/tern
// passes local ones).
var day = time.Date(2026, 11, 29, 15, 4, 0, 0, time.UTC)

// twoSessions is a workspace with the running session and two saved ones.
func twoSessions() []app.SessionInfo {
	return []app.SessionInfo{
		{ID: "cur00000", Updated: day.Add(2 * time.Hour), Current: true, Model: "test-model"},
		{ID: "aaaa1111", Updated: day.Add(time.Hour), Title: "fix the flaky parser test", Prompt: "fix the flaky parser test in parse_test.go", Messages: 6, Model: "gpt-big"},
		{ID: "bbbb2222", Updated: day, Title: "add a --json flag to list", Prompt: "add a --json flag to list", Messages: 1, Model: "gpt-small", Parent: "aaaa1111"},
	}
}

// resumedReplay is the transcript of a resumed session, as Replay gives it.
func resumedReplay() []agent.Event {
	return []agent.Event{
		{Kind: agent.EventTurnStarted, Turn: 1, Text: "fix the flaky parser test"},
		{Kind: agent.EventTextDelta, Turn: 1, Text: "The test depends on map order; sorted the keys."},
		{Kind: agent.EventUsage, Turn: 1, Usage: provider.Usage{PromptTokens: 900, CompletionTokens: 40}},
		{Kind: agent.EventUsage, Turn: 1, Usage: provider.Usage{PromptTokens: 1200, CompletionTokens: 60}},
		{Kind: agent.EventTurnFinished, Turn: 1, Finish: &agent.Finish{Reason: agent.FinishDone}},
	}
}

func TestResumePickerSwitchesSession(t *testing.T) {
	t.Parallel()
	fs := &fakeSessions{list: twoSessions(), sw: &app.Switch{ID: "aaaa1111", Replay: slices.Values(resumedReplay()), Summary: "resumed session aaaa1111: 2 messages", Notices: []string{"the model gpt-big is gone"}}}
	m, _ := newTestModel(t, Options{}, withSessions(fs))
	// Something of the old conversation, to see it replaced.
	events(m, agent.Event{Kind: agent.EventTurnStarted, Turn: 1, Text: "old prompt"},
		agent.Event{Kind: agent.EventUsage, Usage: provider.Usage{PromptTokens: 5}},
		agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
	typeS(m, "/resume")
	pressS(m, keyEnter)
	if m.pick == nil {
		t.Fatalf("no picker; notice %q", m.notice)
	}
	s := screen(m)
	for _, want := range []string{"Resume a session", "fix the flaky parser test", "6 messages · gpt-big", "1 message · gpt-small"} {
		if !strings.Contains(s, want) {
			t.Errorf("picker lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "cur00000") {
		t.Error("the running session, still empty, is offered")
	}
	// Typing filters; the first match is selected.
	typeS(m, "json")
	if it, ok := m.pick.selected(); !ok || !strings.Contains(it.label, "--json") || len(m.pick.shown) != 1 {
		t.Fatalf("filter json: %d shown, selected %q", len(m.pick.shown), it.label)
	}
	pressS(m, tea.KeyPressMsg{Code: tea.KeyBackspace})
	pressS(m, tea.KeyPressMsg{Code: tea.KeyBackspace})
	pressS(m, tea.KeyPressMsg{Code: tea.KeyBackspace})
	pressS(m, tea.KeyPressMsg{Code: tea.KeyBackspace})
	if len(m.pick.shown) != 2 {
		t.Fatalf("%d shown after clearing the filter", len(m.pick.shown))
	}
	pressS(m, keyDown)
	pressS(m, keyUp)
	pressS(m, keyEnter)
	if got := fs.called(); strings.Join(got, "|") != "list|open aaaa1111 fork=false" {
		t.Fatalf("calls %v", got)
	}
	if m.pick != nil || m.busy {
		t.Fatalf("picker open %v, busy %v after the switch", m.pick != nil, m.busy)
	}
	s = screen(m)
	if strings.Contains(s, "old prompt") || !strings.Contains(s, "sorted the keys") || !strings.Contains(s, "gpt-big is gone") {
		t.Errorf("transcript not replaced:\n%s", s)
	}
	if m.usage.PromptTokens != 2100 || m.lastIn != 1260 {
		t.Errorf("usage %+v, last %d: want the resumed session's totals", m.usage, m.lastIn)
	}
	if !strings.Contains(m.notice, "resumed session aaaa1111") {
		t.Errorf("notice %q", m.notice)
	}
}

func TestResumePickerForkAndCancel(t *testing.T) {
	t.Parallel()
	fs := &fakeSessions{list: twoSessions(), sw: &app.Switch{ID: "new", Replay: slices.Values(resumedReplay())}}
	m, _ := newTestModel(t, Options{}, withSessions(fs))
	typeS(m, "/resume")
	pressS(m, keyEnter)
	pressS(m, keyEsc)
	if m.pick != nil {
		t.Fatal("esc left the picker open")
	}
	typeS(m, "/resume")
	pressS(m, keyEnter)
	pressS(m, keyDown)
	pressS(m, tea.KeyPressMsg{Code: 'f', Mod: tea.ModCtrl})
	typeS(m, "/resume bbbb")
	pressS(m, keyEnter)
	if got := fs.called(); strings.Join(got, "|") != "list|list|open bbbb2222 fork=true|open bbbb fork=false" {
		t.Fatalf("calls %v", got)
	}
}

func TestResumeAtStart(t *testing.T) {
	t.Parallel()
	fs := &fakeSessions{list: twoSessions(), sw: &app.Switch{ID: "x", Replay: slices.Values(resumedReplay())}}
	m, _ := newTestModel(t, Options{ResumeAtStart: true, ResumeFork: true}, withSessions(fs))
	stepS(m, m.startResume()())
	if m.pick == nil || !strings.Contains(screen(m), "enter fork") {
		t.Fatalf("no fork picker at start:\n%s", screen(m))
	}
	pressS(m, keyEsc)
	if m.notice != "new session" {
		t.Errorf("notice after esc %q", m.notice)
	}
	// No saved session: a notice, no picker.
	empty := &fakeSessions{list: twoSessions()[:1]}
	m, _ = newTestModel(t, Options{ResumeAtStart: true}, withSessions(empty))
	stepS(m, m.startResume()())
	if m.pick != nil || !strings.Contains(m.notice, "no saved sessions") {
		t.Errorf("picker %v, notice %q", m.pick != nil, m.notice)
	}
}

func TestSessionCommandsWithoutSessions(t *testing.T) {
	t.Parallel()
	for _, line := range []string{"/resume", "/fork", "/rewind"} {
		m, _ := newTestModel(t, Options{})
		typeS(m, line)
		pressS(m, keyEnter)
		if m.pick != nil || !m.noticeBad || !strings.Contains(m.notice, "not recorded") {
			t.Errorf("%s without sessions: picker %v, notice %q", line, m.pick != nil, m.notice)
		}
	}
}

func rewindTurns() app.Turns {
	return app.Turns{Turns: []app.TurnInfo{
		{Turn: 1, Time: day, Text: "write the parser"},
		{Turn: 2, Time: day.Add(time.Minute), Text: "add tests", Files: 2},
		{Turn: 3, Time: day.Add(2 * time.Minute), Text: "run them", Commands: 1},
	}}
}

func TestEscEscOpensRewind(t *testing.T) {
	t.Parallel()
	fs := &fakeSessions{turns: rewindTurns()}
	m, fb := newTestModel(t, Options{}, withSessions(fs))
	now := fixedClock
	m.clock = func() time.Time { return now }
	pressS(m, keyEsc)
	if m.pick != nil || !strings.Contains(m.notice, "esc again") {
		t.Fatalf("first esc: picker %v, notice %q", m.pick != nil, m.notice)
	}
	now = now.Add(300 * time.Millisecond)
	pressS(m, keyEsc)
	if m.pick == nil || m.pick.title != "Rewind" {
		t.Fatalf("second esc opened no rewind list; notice %q", m.notice)
	}
	// Newest first, with what changed since each turn.
	s := screen(m)
	i3, i1 := strings.Index(s, "run them"), strings.Index(s, "write the parser")
	if i3 < 0 || i1 < 0 || i3 > i1 || !strings.Contains(s, "2 file changes · 1 command since") {
		t.Errorf("rewind list:\n%s", s)
	}
	pressS(m, keyEsc)

	// Two escs too far apart, or with a key between them, do nothing.
	now = now.Add(5 * time.Second)
	pressS(m, keyEsc)
	now = now.Add(2 * time.Second)
	pressS(m, keyEsc)
	if m.pick != nil {
		t.Fatal("escs 2 s apart opened the rewind list")
	}
	typeS(m, "x")
	pressS(m, tea.KeyPressMsg{Code: tea.KeyBackspace})
	pressS(m, keyEsc)
	if m.pick != nil {
		t.Fatal("esc after typing opened the rewind list")
	}

	// While a turn runs, esc interrupts and never opens the list.
	typeS(m, "go")
	pressS(m, keyEnter)
	events(m, agent.Event{Kind: agent.EventTurnStarted, Turn: 4, Text: "go"})
	pressS(m, keyEsc)
	pressS(m, keyEsc)
	if fb.cancelCount() == 0 || m.pick != nil {
		t.Errorf("busy esc esc: cancels %d, picker %v", fb.cancelCount(), m.pick != nil)
	}
}

func TestRewindConversationPutsPromptBack(t *testing.T) {
	t.Parallel()
	replay := []agent.Event{
		{Kind: agent.EventTurnStarted, Turn: 1, Text: "write the parser"},
		{Kind: agent.EventTextDelta, Turn: 1, Text: "Parser written."},
		{Kind: agent.EventTurnFinished, Turn: 1, Finish: &agent.Finish{Reason: agent.FinishDone}},
	}
	fs := &fakeSessions{turns: rewindTurns(), sw: &app.Switch{Replay: slices.Values(replay), Prompt: "add tests", Summary: "rewound the conversation to before turn 2"}}
	m, _ := newTestModel(t, Options{}, withSessions(fs))
	events(m, agent.Event{Kind: agent.EventTurnStarted, Turn: 3, Text: "run them"},
		agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
	typeS(m, "/rewind")
	pressS(m, keyEnter)
	pressS(m, keyDown) // turn 2
	pressS(m, keyEnter)
	if m.pick == nil || !strings.Contains(m.pick.title, "#2") {
		t.Fatalf("no mode question after choosing turn 2:\n%s", screen(m))
	}
	s := screen(m)
	for _, want := range []string{"Restore code and conversation", "Restore conversation only", "Restore code only"} {
		if !strings.Contains(s, want) {
			t.Errorf("mode menu lacks %q", want)
		}
	}
	pressS(m, keyDown)
	pressS(m, keyEnter)
	if got := fs.called(); strings.Join(got, "|") != "turns|rewind 2 mode=2 conflicts=1" {
		t.Fatalf("calls %v", got)
	}
	if m.input.Value() != "add tests" {
		t.Errorf("input %q, want the turn's prompt back", m.input.Value())
	}
	s = screen(m)
	if strings.Contains(s, "run them") || !strings.Contains(s, "Parser written.") {
		t.Errorf("transcript not rewound:\n%s", s)
	}
}

func TestRewindAsksAboutConflicts(t *testing.T) {
	t.Parallel()
	fs := &fakeSessions{turns: rewindTurns(), conflicts: []string{"parse.go"}, sw: &app.Switch{Summary: "rewound the code"}}
	m, _ := newTestModel(t, Options{}, withSessions(fs))
	typeS(m, "/rewind")
	pressS(m, keyEnter)
	pressS(m, keyEnter) // turn 3
	pressS(m, keyDown)
	pressS(m, keyDown) // code only
	pressS(m, keyEnter)
	if m.pick == nil || !strings.Contains(m.pick.title, "parse.go") {
		t.Fatalf("conflicting files not shown:\n%s", screen(m))
	}
	if scr := screen(m); !strings.Contains(scr, "edited by hand") || !strings.Contains(scr, "overwriting loses this") {
		t.Fatalf("what overwriting would lose is not shown:\n%s", scr)
	}
	pressS(m, keyDown) // overwrite
	pressS(m, keyEnter)
	want := "turns|rewind 3 mode=3 conflicts=1|rewind 3 mode=3 conflicts=2"
	if got := strings.Join(fs.called(), "|"); got != want {
		t.Fatalf("calls %s, want %s", got, want)
	}
	if m.notice != "rewound the code" || m.busy {
		t.Errorf("notice %q busy %v", m.notice, m.busy)
	}
}

func TestRewindOffersUndo(t *testing.T) {
	t.Parallel()
	turns := rewindTurns()
	turns.Undo = "code and conversation to before turn 2"
	fs := &fakeSessions{turns: turns, sw: &app.Switch{Summary: "undid it", Replay: slices.Values(resumedReplay())}}
	m, _ := newTestModel(t, Options{}, withSessions(fs))
	typeS(m, "/rewind")
	pressS(m, keyEnter)
	if it, _ := m.pick.selected(); !strings.Contains(it.label, "undo the last rewind") {
		t.Fatalf("first row %q, want the undo", it.label)
	}
	pressS(m, keyEnter)
	if got := strings.Join(fs.called(), "|"); got != "turns|undo-rewind conflicts=1" {
		t.Fatalf("calls %s", got)
	}
}

func TestForkCommand(t *testing.T) {
	t.Parallel()
	fs := &fakeSessions{turns: rewindTurns(), sw: &app.Switch{ID: "fork1", Replay: slices.Values(resumedReplay()), Summary: "forked session a as fork1"}}
	m, _ := newTestModel(t, Options{}, withSessions(fs))
	typeS(m, "/fork 2")
	pressS(m, keyEnter)
	typeS(m, "/fork")
	pressS(m, keyEnter)
	if m.pick == nil || !strings.Contains(screen(m), "The whole conversation") {
		t.Fatalf("no fork picker:\n%s", screen(m))
	}
	pressS(m, keyDown) // turn 2: the last turn is "the whole conversation"
	pressS(m, keyEnter)
	typeS(m, "/fork x")
	pressS(m, keyEnter)
	if !m.noticeBad {
		t.Errorf("/fork x: notice %q", m.notice)
	}
	if got := strings.Join(fs.called(), "|"); got != "fork 2|turns|fork 2" {
		t.Fatalf("calls %s", got)
	}
}

func TestSwitchErrorIsShown(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{}, withSessions(&fakeSessions{}))
	m.busy = true
	stepS(m, switchMsg{err: errors.New("session x cannot be read"), what: "resume"})
	if m.busy || !m.noticeBad || m.notice != "resume: session x cannot be read" {
		t.Errorf("busy %v notice %q", m.busy, m.notice)
	}
}

func TestGoldenResumePicker(t *testing.T) {
	t.Parallel()
	fs := &fakeSessions{list: twoSessions()}
	goldenRunWith(t, 90, 20, Options{}, withSessions(fs), func(tm *teatest.TestModel, _ *fakeBackend) {
		tm.Type("/resume")
		tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
		waitFor(t, tm, "Resume a session")
		tm.Type("parser")
		waitFor(t, tm, "⌕ parser")
	})
}

func TestResumePickerSelectsAnotherSession(t *testing.T) {
	t.Parallel()
	list := twoSessions()
	list[0].Messages, list[0].Title = 4, "the running one"
	fs := &fakeSessions{list: list}
	m, _ := newTestModel(t, Options{}, withSessions(fs))
	typeS(m, "/resume")
	pressS(m, keyEnter)
	if it, ok := m.pick.selected(); !ok || !strings.Contains(it.label, "fix the flaky parser test") {
		t.Fatalf("selected %q, want the newest session that is not running", it.label)
	}
	pressS(m, keyUp)
	pressS(m, keyEnter)
	if !strings.Contains(m.notice, "already in this session") || len(fs.called()) != 1 {
		t.Errorf("choosing the running session: notice %q, calls %v", m.notice, fs.called())
	}
}

func TestGoldenRewindList(t *testing.T) {
	t.Parallel()
	turns := rewindTurns()
	turns.Undo = "code and conversation to before turn 4"
	fs := &fakeSessions{turns: turns}
	goldenRunWith(t, 90, 20, Options{}, withSessions(fs), func(tm *teatest.TestModel, _ *fakeBackend) {
		tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
		tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
		waitFor(t, tm, "undo the last rewind")
		tm.Send(tea.KeyPressMsg{Code: tea.KeyDown})
		waitFor(t, tm, "rewind to before this prompt")
	})
}

// Two escs read together arrive as one alt+esc key.
func TestAltEscOpensRewind(t *testing.T) {
	t.Parallel()
	fs := &fakeSessions{turns: rewindTurns()}
	m, fb := newTestModel(t, Options{}, withSessions(fs))
	altEsc := tea.KeyPressMsg{Code: tea.KeyEscape, Mod: tea.ModAlt}
	typeS(m, "draft")
	pressS(m, altEsc)
	if m.pick != nil {
		t.Fatal("alt+esc with a draft opened the rewind list")
	}
	pressS(m, keyCtrlC)
	pressS(m, altEsc)
	if m.pick == nil || m.pick.title != "Rewind" {
		t.Fatalf("alt+esc on an empty input: no rewind list (notice %q)", m.notice)
	}
	pressS(m, keyEsc)
	events(m, agent.Event{Kind: agent.EventTurnStarted, Turn: 4, Text: "go"})
	pressS(m, altEsc)
	if fb.cancelCount() != 1 || m.pick != nil {
		t.Errorf("busy alt+esc: cancels %d, picker %v", fb.cancelCount(), m.pick != nil)
	}
}

// stepS is step for the session commands, whose work runs in a command of
// its own: it waits for their messages however loaded the machine is
// (step gives up after 20 ms and would lose them).
func stepS(m *model, msg tea.Msg) {
	_, cmd := m.Update(msg)
	for _, out := range collectWait(cmd, 3*time.Second) {
		switch out.(type) {
		case frameMsg, eventsMsg:
			continue
		}
		stepS(m, out)
	}
}

func pressS(m *model, key tea.KeyPressMsg) { stepS(m, key) }

func typeS(m *model, s string) {
	for _, r := range s {
		stepS(m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}
