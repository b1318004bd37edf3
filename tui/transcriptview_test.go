package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tools"
)

var (
	keyCtrlT    = tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl}
	keyShiftTab = tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	keyHome     = tea.KeyPressMsg{Code: tea.KeyHome}
	keyEnd      = tea.KeyPressMsg{Code: tea.KeyEnd}
	keyPgDown   = tea.KeyPressMsg{Code: tea.KeyPgDown}
)

// longDiff is an edit_file diff of n added lines.
func longDiff(path string, n int) string {
	var d strings.Builder
	fmt.Fprintf(&d, "--- a/%s\n+++ b/%s\n@@ -1,1 +1,%d @@\n package x\n", path, path, n+1)
	for i := range n {
		fmt.Fprintf(&d, "+var v%d = %d\n", i, i)
	}
	return d.String()
}

// sessionWithCards runs a turn with an edit (a diff longer than a preview),
// a command with more output than a preview, and reasoning, then finishes it.
func sessionWithCards(t *testing.T, m *model) {
	t.Helper()
	typeText(m, "tidy up")
	press(m, keyEnter)
	var evs []agent.Event
	evs = append(evs, agent.Event{Kind: agent.EventTurnStarted, Turn: 1, Text: "tidy up"})
	evs = append(evs, agent.Event{Kind: agent.EventReasoningDelta, Text: "First line of thought.\nSecond line of thought.\nThird line, the conclusion."})
	evs = append(evs, callEvents("e", "edit_file", `{"path":"x.go"}`,
		agent.Event{Kind: agent.EventApprovalResolved, Decision: agent.Decision{Kind: agent.AllowOnce, Auto: true}},
		agent.Event{Kind: agent.EventToolRunning},
		agent.Event{Kind: agent.EventToolFinished, Result: &agent.ToolResult{Status: tools.StatusOK, Summary: "+30 lines", Duration: time.Millisecond}})...)
	var out strings.Builder
	for i := range 40 {
		fmt.Fprintf(&out, "test line %d\n", i)
	}
	evs = append(evs, callEvents("s", "run_shell", `{"command":"go test ./..."}`,
		agent.Event{Kind: agent.EventToolRunning},
		agent.Event{Kind: agent.EventToolOutput, Text: out.String()},
		agent.Event{Kind: agent.EventToolFinished, Result: &agent.ToolResult{Status: tools.StatusOK, Summary: "exit 0", Duration: time.Second}})...)
	evs = append(evs, agent.Event{Kind: agent.EventTextDelta, Text: "Done: the edit and the tests."})
	evs = append(evs, agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
	// The edit's diff comes from its preview, as with a real approval.
	for i, ev := range evs {
		if ev.Kind == agent.EventApprovalResolved {
			req := agent.NewApprovalRequest("e", *ev.Call, tools.KindEdit, tools.Preview{Diff: longDiff("x.go", 30)}, agent.Scope{})
			evs[i].Approval = req
		}
	}
	events(m, evs...)
	frame(m)
}

func TestTranscriptViewShowsEveryCardInFull(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	sessionWithCards(t, m)
	normal := screen(m)
	if strings.Contains(normal, "var v29") || !strings.Contains(normal, "more lines") {
		t.Fatalf("the conversation should show the diff collapsed:\n%s", normal)
	}
	press(m, keyCtrlT)
	if !m.tv.isOpen() {
		t.Fatal("ctrl+t did not open the transcript view")
	}
	var all strings.Builder
	press(m, keyHome)
	for range 20 {
		all.WriteString(screen(m))
		press(m, keyPgDown)
	}
	got := all.String()
	for _, want := range []string{"transcript · 3 cards in full", "tidy up", "Second line of thought", "Third line, the conclusion", "var v0 = 0", "var v29 = 29", "test line 0", "test line 39", "Done: the edit"} {
		if !strings.Contains(got, want) {
			t.Errorf("the transcript view lacks %q", want)
		}
	}
	if strings.Contains(got, "more lines (ctrl+o") || strings.Contains(got, "earlier lines") {
		t.Errorf("the transcript view cut a card:\n%s", got)
	}
	if m.input.Focused() {
		t.Error("the input kept the focus under the transcript view")
	}
}

func TestTranscriptViewReturnsToTheSameScroll(t *testing.T) {
	t.Parallel()
	for _, leave := range []tea.KeyPressMsg{keyEsc, keyCtrlT} {
		m, _ := newTestModel(t, Options{})
		sessionWithCards(t, m)
		press(m, keyPgUp)
		before := screen(m)
		top, off := m.tr.top, m.tr.off
		press(m, keyCtrlT)
		press(m, keyHome)
		press(m, keyPgDown)
		if screen(m) == before {
			t.Fatal("the transcript view looks like the conversation")
		}
		press(m, leave)
		if m.tv.isOpen() {
			t.Fatalf("%s did not close the view", leave)
		}
		if m.tr.top != top || m.tr.off != off || screen(m) != before {
			t.Fatalf("%s: back at %d+%d, was %d+%d:\n%s\nwas:\n%s", leave, m.tr.top, m.tr.off, top, off, screen(m), before)
		}
		if !m.input.Focused() {
			t.Fatal("the input has no focus after the view closed")
		}
	}
}

func TestTranscriptViewFollowsNewEvents(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	sessionWithCards(t, m)
	fb.startOnSubmit = true
	typeText(m, "again")
	press(m, keyEnter)
	press(m, keyCtrlT)
	events(m, callEvents("g", "grep", `{"pattern":"TODO"}`,
		agent.Event{Kind: agent.EventToolRunning},
		agent.Event{Kind: agent.EventToolFinished, Result: &agent.ToolResult{Status: tools.StatusOK, Summary: "2 matches", Output: "a.go:1: TODO one\nb.go:2: TODO two", Duration: time.Millisecond}})...)
	events(m, agent.Event{Kind: agent.EventTextDelta, Text: "Found two TODOs."})
	frame(m)
	s := screen(m)
	for _, want := range []string{"grep TODO", "b.go:2: TODO two", "Found two TODOs", "4 cards"} {
		if !strings.Contains(s, want) {
			t.Errorf("the open view lacks %q:\n%s", want, s)
		}
	}
	// Scrolled up, new output is flagged instead of moving the view.
	press(m, keyHome)
	top := screen(m)
	events(m, agent.Event{Kind: agent.EventTextDelta, Text: " And more."})
	frame(m)
	if s := screen(m); !strings.Contains(s, "new output below") || strings.Split(s, "\n")[1] != strings.Split(top, "\n")[1] {
		t.Fatalf("the view moved or did not flag new output:\n%s", s)
	}
	press(m, keyEnd)
	if s := screen(m); !strings.Contains(s, "And more.") || strings.Contains(s, "new output below") {
		t.Fatalf("end did not follow:\n%s", s)
	}
}

func TestTranscriptViewSelectsAndFoldsCards(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 120}) // everything on one screen
	sessionWithCards(t, m)
	press(m, keyCtrlT)
	press(m, keyTab)
	sel := m.tv.sel
	if sel == nil {
		t.Fatal("tab selected nothing")
	}
	if _, ok := sel.inner.(*reasoningBlock); !ok {
		t.Fatalf("tab selected %T first, want the reasoning", sel.inner)
	}
	press(m, keyTab)
	c, ok := m.tv.sel.inner.(*toolCard)
	if !ok || c.name != "edit_file" || sel.selected || !m.tv.sel.selected {
		t.Fatalf("second tab: %T %+v", m.tv.sel.inner, m.tv.sel)
	}
	if !strings.Contains(screen(m), "▎ ✎ edit_file") {
		t.Fatalf("the selected card is not marked:\n%s", screen(m))
	}
	press(m, keyEnter)
	s := screen(m)
	if strings.Contains(s, "var v29") || !strings.Contains(s, "more lines") || !strings.Contains(s, "test line 39") {
		t.Fatalf("enter did not fold only the edit:\n%s", s)
	}
	press(m, keyShiftTab)
	if _, ok := m.tv.sel.inner.(*reasoningBlock); !ok {
		t.Fatalf("shift+tab went to %T", m.tv.sel.inner)
	}
	press(m, keyCtrlO)
	if s := screen(m); strings.Contains(s, "Second line of thought") {
		t.Fatalf("ctrl+o did not fold the reasoning:\n%s", s)
	}
	// The folds outlive closing the view; the conversation is not changed.
	press(m, keyEsc)
	if c.expanded {
		t.Fatal("folding in the view changed the card in the conversation")
	}
	press(m, keyCtrlT)
	if s := screen(m); strings.Contains(s, "var v29") {
		t.Fatalf("the fold was lost:\n%s", s)
	}
}

func TestTranscriptViewSelectScrollsTheCardIntoView(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	sessionWithCards(t, m)
	press(m, keyCtrlT)
	press(m, keyHome)
	press(m, keyTab) // the reasoning: on screen near the top
	press(m, keyTab) // the edit
	press(m, keyTab) // the command: below the screen until selected
	if !strings.Contains(screen(m), "▎ $ run_shell") {
		t.Fatalf("the selected command card is not on the screen:\n%s", screen(m))
	}
}

func TestTranscriptViewTypingReturnsToTheInput(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	sessionWithCards(t, m)
	press(m, keyCtrlT)
	typeText(m, "ok")
	if m.tv.isOpen() || m.input.Value() != "ok" {
		t.Fatalf("open %v input %q", m.tv.isOpen(), m.input.Value())
	}
	press(m, keyCtrlT)
	step(m, tea.PasteMsg{Content: " pasted"})
	if m.tv.isOpen() || m.input.Value() != "ok pasted" {
		t.Fatalf("paste: open %v input %q", m.tv.isOpen(), m.input.Value())
	}
}

func TestTranscriptViewScrollKeysAndWheel(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	sessionWithCards(t, m)
	press(m, keyCtrlT)
	if !m.tv.tr.follow {
		t.Fatal("the view should open at the bottom like the conversation")
	}
	step(m, tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if m.tv.tr.follow || !m.tr.follow {
		t.Fatal("the wheel did not scroll the view, or scrolled the conversation")
	}
	press(m, keyUp)
	top, off := m.tv.tr.top, m.tv.tr.off
	press(m, keyDown)
	if m.tv.tr.top == top && m.tv.tr.off == off {
		t.Fatal("↓ did not scroll")
	}
	for _, k := range []tea.KeyPressMsg{{Code: tea.KeyUp, Mod: tea.ModAlt}, {Code: tea.KeyDown, Mod: tea.ModAlt}, keyPgUp, keyPgDown, keyHome} {
		press(m, k)
	}
	if m.tv.tr.follow || m.tv.tr.top != 0 || m.tv.tr.off != 0 {
		t.Fatalf("home: at %d+%d", m.tv.tr.top, m.tv.tr.off)
	}
	press(m, keyEnd)
	if !m.tv.tr.follow {
		t.Fatal("end did not go to the bottom")
	}
}

func TestTranscriptViewClosesForAnApproval(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	sessionWithCards(t, m)
	typeText(m, "more")
	press(m, keyEnter)
	press(m, keyCtrlT)
	call := agent.Call{ID: "w", Name: "write_file", Args: []byte(`{"path":"a.txt","content":"x"}`)}
	req := agent.NewApprovalRequest("w", call, tools.KindEdit, tools.Preview{Title: "write a.txt", Path: "a.txt"}, agent.Scope{})
	events(m, agent.Event{Kind: agent.EventTurnStarted, Turn: 2}, agent.Event{Kind: agent.EventApprovalRequested, Call: &call, Approval: req})
	if m.tv.isOpen() || m.dlg == nil || !strings.Contains(screen(m), "Allow") {
		t.Fatalf("the approval did not take over the screen:\n%s", screen(m))
	}
}

func TestTranscriptViewSurvivesARetry(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	sessionWithCards(t, m)
	typeText(m, "next")
	press(m, keyEnter)
	events(m, agent.Event{Kind: agent.EventTurnStarted, Turn: 2}, agent.Event{Kind: agent.EventTextDelta, Text: "partial answer"})
	press(m, keyCtrlT)
	press(m, keyHome)
	press(m, keyTab)
	events(m, agent.Event{Kind: agent.EventRetrying, Retry: &agent.Retry{Attempt: 2, DiscardPartial: true}})
	frame(m)
	if s := screen(m); strings.Contains(s, "partial answer") {
		t.Fatalf("a discarded answer stayed in the view:\n%s", s)
	}
	if len(m.tv.tr.blocks) != len(m.tr.blocks) {
		t.Fatalf("the view has %d blocks, the conversation %d", len(m.tv.tr.blocks), len(m.tr.blocks))
	}
	for i, b := range m.tr.blocks {
		if got := m.tv.tr.blocks[i]; got != b && got.(*fullBlock).inner != b {
			t.Fatalf("block %d is %T, want %T", i, got, b)
		}
	}
	if m.tv.sel == nil {
		t.Fatal("the selection was lost when an unrelated block went away")
	}
}

func TestFullBlockRendersOnlyWhenItsCardChanged(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	sessionWithCards(t, m)
	press(m, keyCtrlT)
	press(m, keyHome)
	var f *fullBlock
	for _, b := range m.tv.tr.blocks {
		if fb, ok := b.(*fullBlock); ok {
			f = fb
			break
		}
	}
	m.layout()
	lines := f.lines
	if len(lines) == 0 {
		t.Fatal("the first card was not rendered")
	}
	frame(m)
	m.layout()
	if &f.lines[0] != &lines[0] {
		t.Fatal("an unchanged card was rendered again")
	}
	m.tr.changed(f.inner)
	m.layout()
	if &f.lines[0] == &lines[0] {
		t.Fatal("a changed card was not rendered again")
	}
}

func TestTranscriptViewGolden(t *testing.T) {
	t.Parallel()
	goldenRun(t, 80, 40, Options{}, func(tm *teatest.TestModel, fb *fakeBackend) {
		tm.Type("tidy up")
		tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
		waitFor(t, tm, "working")
		call := agent.Call{ID: "e", Name: "edit_file", Args: []byte(`{"path":"x.go"}`)}
		req := agent.NewApprovalRequest("e", call, tools.KindEdit, tools.Preview{Diff: longDiff("x.go", 14)}, agent.Scope{})
		evs := []agent.Event{{Kind: agent.EventReasoningDelta, Text: "Look at x.go first.\nThen run the tests."}}
		evs = append(evs, callEvents("e", "edit_file", string(call.Args),
			agent.Event{Kind: agent.EventApprovalResolved, Approval: req, Decision: agent.Decision{Kind: agent.AllowOnce, Auto: true}},
			agent.Event{Kind: agent.EventToolRunning},
			agent.Event{Kind: agent.EventToolFinished, Result: &agent.ToolResult{Status: tools.StatusOK, Summary: "+14 lines", Duration: time.Millisecond}})...)
		evs = append(evs, callEvents("s", "run_shell", `{"command":"go test ./..."}`,
			agent.Event{Kind: agent.EventToolRunning},
			agent.Event{Kind: agent.EventToolOutput, Text: "ok  \tx/a\t0.01s\nok  \tx/b\t0.02s\nok  \tx/c\t0.01s\nok  \tx/d\t0.03s\nok  \tx/e\t0.01s\nok  \tx/f\t0.02s\n"},
			agent.Event{Kind: agent.EventToolFinished, Result: &agent.ToolResult{Status: tools.StatusOK, Summary: "exit 0", Duration: 2 * time.Second}})...)
		evs = append(evs, agent.Event{Kind: agent.EventTextDelta, Text: "All green."}, agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
		for _, e := range evs {
			fb.ch <- e
		}
		waitFor(t, tm, "All green.")
		tm.Send(keyCtrlT)
		waitFor(t, tm, "transcript ·")
		tm.Send(keyTab)
		tm.Send(keyTab)
		waitFor(t, tm, "▎ ✎ edit_file")
	})
}

func TestHelpAndStatusNameTheTranscriptKey(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 60})
	if strings.Contains(m.statusLine(), "ctrl+t") {
		t.Fatal("the status line offers the transcript before there is a card")
	}
	sessionWithCards(t, m)
	if !strings.Contains(m.statusLine(), "ctrl+t transcript") {
		t.Fatalf("the status line does not name ctrl+t: %q", m.statusLine())
	}
	press(m, keyCtrlT)
	if strings.Contains(m.statusLine(), "ctrl+t transcript") {
		t.Fatal("the open view still offers ctrl+t transcript")
	}
	press(m, keyEsc)
	typeText(m, "/help")
	press(m, keyEnter)
	s := screen(m)
	for _, want := range []string{"ctrl+t", "every tool card", "anywhere in the draft"} {
		if !strings.Contains(s, want) {
			t.Errorf("/help lacks %q:\n%s", want, s)
		}
	}
}

func TestTranscriptViewOpensWhereTheConversationIsAndReflows(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	sessionWithCards(t, m)
	press(m, keyHome)
	press(m, keyDown)
	press(m, keyDown)
	top, off := m.tr.top, m.tr.off
	press(m, keyCtrlT)
	if m.tv.tr.follow || m.tv.tr.top != top || m.tv.tr.off != off {
		t.Fatalf("the view opened at %d+%d (follow %v), the conversation is at %d+%d", m.tv.tr.top, m.tv.tr.off, m.tv.tr.follow, top, off)
	}
	inView := strings.Split(screen(m), "\n")[1] // under the title
	press(m, keyEsc)
	if first := strings.Split(screen(m), "\n")[0]; inView != first {
		t.Fatalf("the view's first line %q, the conversation's %q", inView, first)
	}
	press(m, keyCtrlT)
	press(m, keyEnd)
	step(m, tea.WindowSizeMsg{Width: 50, Height: 30})
	s := screen(m)
	for i, l := range strings.Split(s, "\n") {
		if w := stringWidth(l); w > 50 {
			t.Fatalf("line %d is %d wide after the resize:\n%s", i, w, s)
		}
	}
	if !strings.Contains(s, "the edit and the") {
		t.Fatalf("the view lost its end after the resize:\n%s", s)
	}
}

func TestTranscriptViewCtrlC(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	sessionWithCards(t, m)
	typeText(m, "a draft")
	press(m, keyCtrlT)
	press(m, keyCtrlC)
	if m.tv.isOpen() || m.input.Value() != "a draft" {
		t.Fatalf("ctrl+c with a hidden draft: open %v, input %q", m.tv.isOpen(), m.input.Value())
	}
	press(m, keyEnter)
	press(m, keyCtrlT)
	press(m, keyCtrlC)
	if !m.tv.isOpen() || fb.cancelCount() != 1 {
		t.Fatalf("ctrl+c while busy: open %v, cancels %d", m.tv.isOpen(), fb.cancelCount())
	}
	events(m, agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishCancelled}})
	press(m, keyCtrlC)
	if m.tv.isOpen() || !strings.Contains(m.notice, "again to quit") {
		t.Fatalf("ctrl+c when idle: open %v, notice %q", m.tv.isOpen(), m.notice)
	}
}

// A running card's clock changes it at every frame; only output it gains is
// flagged as new below a view scrolled up.
func TestTranscriptViewClockIsNotNewOutput(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	sessionWithCards(t, m)
	fb.startOnSubmit = true
	typeText(m, "run it")
	press(m, keyEnter)
	events(m, callEvents("r", "run_shell", `{"command":"sleep 5"}`, agent.Event{Kind: agent.EventToolRunning})...)
	frame(m)
	press(m, keyCtrlT)
	press(m, keyHome)
	for range 3 {
		m.rc.now = m.rc.now.Add(spinnerEvery)
		frame(m)
		if s := screen(m); strings.Contains(s, "new output below") {
			t.Fatalf("a clock tick was flagged as new output:\n%s", s)
		}
	}
	events(m, agent.Event{Kind: agent.EventToolOutput, Call: &agent.Call{ID: "r", Name: "run_shell"}, Text: "woke up\n"})
	frame(m)
	if s := screen(m); !strings.Contains(s, "new output below") {
		t.Fatalf("output of the running command was not flagged:\n%s", s)
	}
}
