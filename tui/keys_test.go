package tui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tools"
)

// screen is the visible text of the model, without styles.
func screen(m *model) string { return ansi.Strip(m.View().Content) }

func startTurn(m *model) {
	events(m, agent.Event{Kind: agent.EventTurnStarted, Turn: 1})
}

func editRequest(id string) (*agent.Call, *agent.ApprovalRequest) {
	call := &agent.Call{ID: id, Name: "edit_file", Args: json.RawMessage(`{"path":"main.go","old_string":"a","new_string":"b"}`)}
	req := agent.NewApprovalRequest("req-"+id, *call, tools.KindEdit,
		tools.Preview{Title: "edit main.go", Path: "main.go", Diff: "--- a/main.go\n+++ b/main.go\n@@ -1,2 +1,2 @@\n package main\n-var x = 1\n+var x = 2\n"},
		agent.Scope{Key: "edit", Label: "edits inside this workspace"})
	return call, req
}

// decision returns the answer a request got, or false if none yet.
func decision(req *agent.ApprovalRequest) (agent.Decision, bool) {
	select {
	case d := <-req.Decisions():
		return d, true
	default:
		return agent.Decision{}, false
	}
}

func TestSendSubmitsAndShowsMessage(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	typeText(m, "hello")
	press(m, keyShiftE)
	typeText(m, "world")
	press(m, keyEnter)
	if got := fb.sent(); len(got) != 1 || got[0] != "hello\nworld" {
		t.Fatalf("submitted %q", got)
	}
	if m.input.Value() != "" {
		t.Errorf("input kept %q", m.input.Value())
	}
	if s := screen(m); !strings.Contains(s, "▌ hello") || !strings.Contains(s, "▌ world") {
		t.Errorf("user message not shown:\n%s", s)
	}
	if !m.busy {
		t.Error("not busy after sending")
	}
}

func TestNewlineKeys(t *testing.T) {
	t.Parallel()
	for _, k := range []tea.KeyPressMsg{keyShiftE, keyCtrlJ, {Code: tea.KeyEnter, Mod: tea.ModAlt}} {
		m, fb := newTestModel(t, Options{})
		typeText(m, "a")
		press(m, k)
		typeText(m, "b")
		if v := m.input.Value(); v != "a\nb" {
			t.Errorf("%s: input %q", k, v)
		}
		if len(fb.sent()) != 0 {
			t.Errorf("%s sent the message", k)
		}
	}
}

func TestEscInterruptsAndKeepsDraft(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	typeText(m, "go")
	press(m, keyEnter)
	startTurn(m)
	events(m, agent.Event{Kind: agent.EventTextDelta, Text: "Partial answer"})
	typeText(m, "next idea")
	press(m, keyEsc)
	if fb.cancelCount() != 1 {
		t.Fatalf("Cancel called %d times", fb.cancelCount())
	}
	if m.input.Value() != "next idea" || !m.input.Focused() {
		t.Errorf("draft %q focused=%v", m.input.Value(), m.input.Focused())
	}
	events(m, agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishCancelled}})
	s := screen(m)
	if !strings.Contains(s, "Partial answer") || !strings.Contains(s, "interrupted") {
		t.Errorf("partial answer not kept and marked:\n%s", s)
	}
	if m.busy {
		t.Error("still busy")
	}
}

func TestEscWhenIdleDoesNothing(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	typeText(m, "draft")
	press(m, keyEsc)
	if fb.cancelCount() != 0 || m.input.Value() != "draft" {
		t.Errorf("cancels=%d draft=%q", fb.cancelCount(), m.input.Value())
	}
}

func TestApprovalKeys(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		keys []tea.KeyPressMsg
		text string
		want agent.Decision
	}{
		{"y allows once", []tea.KeyPressMsg{keyRuneY}, "", agent.Decision{Kind: agent.AllowOnce}},
		{"a allows for the session", []tea.KeyPressMsg{keyRuneA}, "", agent.Decision{Kind: agent.AllowSession}},
		{"n denies", []tea.KeyPressMsg{keyRuneN}, "", agent.Decision{Kind: agent.Deny}},
		{"esc denies", []tea.KeyPressMsg{keyEsc}, "", agent.Decision{Kind: agent.Deny}},
		{"e tells the model", []tea.KeyPressMsg{keyRuneE}, "use sed instead", agent.Decision{Kind: agent.DenyWithMessage, Message: "use sed instead"}},
		{"enter confirms the highlighted option", []tea.KeyPressMsg{keyRight, keyEnter}, "", agent.Decision{Kind: agent.AllowSession}},
		{"tab moves between options", []tea.KeyPressMsg{keyTab, keyTab, keyEnter}, "", agent.Decision{Kind: agent.Deny}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, fb := newTestModel(t, Options{})
			typeText(m, "draft")
			startTurn(m)
			call, req := editRequest("c1")
			events(m, agent.Event{Kind: agent.EventToolCallStarted, Call: call}, agent.Event{Kind: agent.EventApprovalRequested, Call: call, Approval: req})
			if m.dlg == nil {
				t.Fatal("no dialog")
			}
			for _, k := range tc.keys {
				press(m, k)
			}
			if tc.text != "" {
				typeText(m, tc.text)
				press(m, keyEnter)
			}
			d, ok := decision(req)
			if !ok || d != tc.want {
				t.Fatalf("decision %+v (answered %v), want %+v", d, ok, tc.want)
			}
			if m.dlg != nil {
				t.Error("dialog still shown")
			}
			if m.input.Value() != "draft" {
				t.Errorf("draft lost: %q", m.input.Value())
			}
			if len(fb.sent()) != 0 {
				t.Error("a key reached the agent as a message")
			}
		})
	}
}

func TestApprovalSpaceNeverApproves(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	startTurn(m)
	call, req := editRequest("c1")
	events(m, agent.Event{Kind: agent.EventApprovalRequested, Call: call, Approval: req})
	for range 5 {
		press(m, keySpace)
	}
	if d, ok := decision(req); ok {
		t.Fatalf("space answered %+v", d)
	}
	if m.dlg == nil {
		t.Fatal("dialog closed")
	}
}

func TestApprovalsOneAtATimeInOrder(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	startTurn(m)
	c1, r1 := editRequest("c1")
	c2, r2 := editRequest("c2")
	_, cmd := m.Update(eventsMsg{events: []agent.Event{
		{Kind: agent.EventApprovalRequested, Call: c1, Approval: r1},
		{Kind: agent.EventApprovalRequested, Call: c2, Approval: r2},
	}})
	if !hasBell(cmd) {
		t.Error("no bell for a new request")
	}
	if m.dlg == nil || m.dlg.req != r1 {
		t.Fatal("first request not shown first")
	}
	press(m, keyRuneY)
	if m.dlg == nil || m.dlg.req != r2 {
		t.Fatal("second request not shown after the first")
	}
	press(m, keyRuneN)
	d1, _ := decision(r1)
	d2, _ := decision(r2)
	if d1.Kind != agent.AllowOnce || d2.Kind != agent.Deny {
		t.Fatalf("decisions %v %v", d1.Kind, d2.Kind)
	}
}

// hasBell reports whether cmd (or a command it batches) rings the bell.
func hasBell(cmd tea.Cmd) bool {
	for _, msg := range collect(cmd) {
		if raw, ok := msg.(tea.RawMsg); ok && raw.Msg == "\a" {
			return true
		}
	}
	return false
}

func TestApprovalResolvedElsewhereClosesDialog(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	startTurn(m)
	call, req := editRequest("c1")
	events(m, agent.Event{Kind: agent.EventApprovalRequested, Call: call, Approval: req})
	events(m, agent.Event{Kind: agent.EventApprovalResolved, Call: call, Approval: req, Decision: agent.Decision{Kind: agent.Cancelled}})
	if m.dlg != nil {
		t.Fatal("dialog still open after the request was cancelled")
	}
}

// TestAlwaysAskShowsReason: an always-ask command's dialog says why it
// always asks and offers no session grant, since one would not take effect:
// `a` and tabbing over its place choose nothing.
func TestAlwaysAskShowsReason(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		keys  []tea.KeyPressMsg
		want  agent.DecisionKind
		reply bool
	}{
		{"a grants nothing", []tea.KeyPressMsg{{Code: 'a', Text: "a"}}, 0, false},
		{"A grants nothing", []tea.KeyPressMsg{{Code: 'A', Text: "A"}}, 0, false},
		{"tab skips the missing choice", []tea.KeyPressMsg{{Code: tea.KeyTab}, {Code: tea.KeyEnter}}, agent.Deny, true},
		{"y allows once", []tea.KeyPressMsg{{Code: 'y', Text: "y"}}, agent.AllowOnce, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, _ := newTestModel(t, Options{})
			startTurn(m)
			call := &agent.Call{ID: "s", Name: "run_shell", Args: json.RawMessage(`{"command":"rm -rf build"}`)}
			req := agent.NewApprovalRequest("r", *call, tools.KindShell, tools.Preview{Title: "run rm -rf build", Command: "rm -rf build"}, agent.Scope{Key: "run_shell:rm", Label: "commands starting with `rm`"})
			req.Always, req.Reason = true, "This command deletes files recursively."
			events(m, agent.Event{Kind: agent.EventApprovalRequested, Call: call, Approval: req})
			s := screen(m)
			for _, want := range []string{"always asks: this command deletes files recursively", "$ rm -rf build", "y/n/e"} {
				if !strings.Contains(s, want) {
					t.Errorf("dialog lacks %q:\n%s", want, s)
				}
			}
			for _, not := range []string{"(a)", "commands starting with `rm`", "y/a/n/e"} {
				if strings.Contains(s, not) {
					t.Errorf("dialog offers a session grant (%q):\n%s", not, s)
				}
			}
			for _, k := range tc.keys {
				press(m, k)
			}
			d, ok := decision(req)
			if ok != tc.reply || ok && d.Kind != tc.want {
				t.Errorf("decision %+v (replied %v), want %v (replied %v)", d, ok, tc.want, tc.reply)
			}
		})
	}
}

func TestApprovalPreviewScrolls(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	startTurn(m)
	var d strings.Builder
	d.WriteString("--- a/big.go\n+++ b/big.go\n@@ -1,80 +1,80 @@\n")
	for i := range 80 {
		d.WriteString("+line " + itoa(i+1) + "\n")
	}
	call := &agent.Call{ID: "w", Name: "write_file", Args: json.RawMessage(`{"path":"big.go","content":"x"}`)}
	req := agent.NewApprovalRequest("r", *call, tools.KindEdit, tools.Preview{Title: "write big.go", Diff: d.String()}, agent.Scope{Label: "edits inside this workspace"})
	events(m, agent.Event{Kind: agent.EventApprovalRequested, Call: call, Approval: req})
	if s := screen(m); strings.Contains(s, "line 80") || !strings.Contains(s, "line 1") {
		t.Fatalf("preview should start at the top:\n%s", s)
	}
	for range 10 {
		press(m, tea.KeyPressMsg{Code: tea.KeyPgDown})
	}
	if s := screen(m); !strings.Contains(s, "line 80") {
		t.Fatalf("PgDn did not reach the end:\n%s", s)
	}
	press(m, keyPgUp)
	press(m, keyUp)
	if m.dlg.scroll <= 0 {
		t.Fatal("scrolled back too far")
	}
	if _, ok := decision(req); ok {
		t.Fatal("scrolling answered the request")
	}
}

func TestCtrlC(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	typeText(m, "draft")
	press(m, keyCtrlC)
	if m.input.Value() != "" || m.quitting {
		t.Fatalf("first ctrl+c: input %q quitting %v", m.input.Value(), m.quitting)
	}
	typeText(m, "go")
	press(m, keyEnter)
	startTurn(m)
	press(m, keyCtrlC)
	if fb.cancelCount() != 1 || m.quitting {
		t.Fatalf("ctrl+c while busy: cancels %d quitting %v", fb.cancelCount(), m.quitting)
	}
	events(m, agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishCancelled}})
	press(m, keyCtrlC)
	if m.quitting || !strings.Contains(screen(m), "ctrl+c again") {
		t.Fatalf("first idle ctrl+c should warn:\n%s", screen(m))
	}
	_, cmd := m.Update(keyCtrlC)
	if !m.quitting || !isQuit(cmd) {
		t.Fatal("second ctrl+c within a second did not quit")
	}
}

func TestCtrlCTwiceSlowlyDoesNotQuit(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	now := fixedClock
	m.clock = func() time.Time { return now }
	press(m, keyCtrlC)
	now = now.Add(1500 * time.Millisecond)
	press(m, keyCtrlC)
	if m.quitting {
		t.Fatal("quit although the presses were 1.5 s apart")
	}
}

func isQuit(cmd tea.Cmd) bool {
	for _, msg := range collect(cmd) {
		if _, ok := msg.(tea.QuitMsg); ok {
			return true
		}
	}
	return false
}

func TestCtrlDQuitsOnlyOnEmptyInput(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	typeText(m, "ab")
	press(m, tea.KeyPressMsg{Code: tea.KeyLeft})
	press(m, keyCtrlD)
	if m.quitting {
		t.Fatal("ctrl+d quit with text in the input")
	}
	press(m, keyCtrlC) // clear
	_, cmd := m.Update(keyCtrlD)
	if !m.quitting || !isQuit(cmd) {
		t.Fatal("ctrl+d on an empty input did not quit")
	}
}

func TestQueueWhileBusy(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	typeText(m, "first")
	press(m, keyEnter)
	startTurn(m)
	typeText(m, "second")
	press(m, keyEnter)
	typeText(m, "third")
	press(m, keyEnter)
	if got := fb.sent(); len(got) != 1 {
		t.Fatalf("sent while busy: %q", got)
	}
	if s := screen(m); !strings.Contains(s, "queued: second") || !strings.Contains(s, "queued: third") {
		t.Fatalf("queue not shown:\n%s", s)
	}
	// ↑ on the empty input takes the last one back for editing.
	press(m, keyUp)
	if m.input.Value() != "third" || len(m.queued) != 1 {
		t.Fatalf("unqueue: input %q queue %q", m.input.Value(), m.queued)
	}
	press(m, keyCtrlC)
	events(m, agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
	if got := fb.sent(); len(got) != 2 || got[1] != "second" {
		t.Fatalf("queued message not sent at the end of the turn: %q", got)
	}
	if len(m.queued) != 0 || !m.busy {
		t.Fatalf("queue %q busy %v", m.queued, m.busy)
	}
}

func TestHistoryWalk(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "history"), []byte("\"old one\"\nnot json\n\"old\\ntwo\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	m, fb := newTestModel(t, Options{Home: home})
	step(m, m.loadHistory()())
	typeText(m, "new")
	press(m, keyEnter)
	events(m, agent.Event{Kind: agent.EventTurnStarted}, agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
	typeText(m, "dr")
	press(m, keyUp)
	if v := m.input.Value(); v != "new" {
		t.Fatalf("↑ gave %q", v)
	}
	press(m, keyUp)
	if v := m.input.Value(); v != "old\ntwo" {
		t.Fatalf("second ↑ gave %q", v)
	}
	press(m, keyUp) // cursor is on the last line of a two-line entry: moves up
	press(m, keyUp)
	if v := m.input.Value(); v != "old one" {
		t.Fatalf("third ↑ gave %q", v)
	}
	press(m, keyDown)
	press(m, keyDown)
	press(m, keyDown)
	if v := m.input.Value(); v != "dr" {
		t.Fatalf("↓ past the newest should restore the draft, got %q", v)
	}
	if len(fb.sent()) != 1 {
		t.Fatal("history walking sent something")
	}
	got, err := readHistory(filepath.Join(home, "history"), "/work/project")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[2] != "new" {
		t.Fatalf("history file holds %q", got)
	}
}

func TestLargePasteBecomesChip(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	big := strings.Repeat("line\r\n", 30)
	step(m, tea.PasteMsg{Content: big})
	if v := m.input.Value(); v != "[pasted 30 lines]" {
		t.Fatalf("input %q", v)
	}
	typeText(m, " explain")
	press(m, keyEnter)
	got := fb.sent()
	if len(got) != 1 || got[0] != strings.Repeat("line\n", 30)+" explain" {
		t.Fatalf("sent %q", got)
	}
	step(m, tea.PasteMsg{Content: "a\r\nb"})
	if v := m.input.Value(); v != "a\nb" {
		t.Fatalf("small paste: %q", v)
	}
}

func TestScrollKeepsPositionAndShowsIndicator(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	startTurn(m)
	var long strings.Builder
	for i := range 60 {
		long.WriteString("Paragraph " + itoa(i) + "\n\n")
	}
	events(m, agent.Event{Kind: agent.EventTextDelta, Text: long.String()})
	frame(m)
	press(m, keyPgUp)
	before := screen(m)
	if m.tr.follow {
		t.Fatal("still following after PgUp")
	}
	events(m, agent.Event{Kind: agent.EventTextDelta, Text: "More text arriving\n\n"})
	frame(m)
	after := screen(m)
	if !strings.Contains(after, "new output below") {
		t.Fatalf("no indicator:\n%s", after)
	}
	// The text above the indicator did not move.
	b, a := strings.Split(before, "\n"), strings.Split(after, "\n")
	for i := 0; i < 5; i++ {
		if b[i] != a[i] {
			t.Fatalf("view jumped at line %d: %q -> %q", i, b[i], a[i])
		}
	}
	press(m, tea.KeyPressMsg{Code: tea.KeyEnd})
	if !m.tr.follow || !strings.Contains(screen(m), "More text arriving") {
		t.Fatal("End did not follow the output")
	}
}

func TestArrowsScrollOnEmptyInput(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	startTurn(m)
	var long strings.Builder
	for i := range 40 {
		long.WriteString("Para " + itoa(i) + "\n\n")
	}
	events(m, agent.Event{Kind: agent.EventTextDelta, Text: long.String()})
	frame(m)
	press(m, keyUp)
	press(m, keyUp)
	if m.tr.follow {
		t.Fatal("↑ on an empty input did not scroll")
	}
	press(m, keyDown)
	press(m, keyDown)
	if !m.tr.follow {
		t.Fatal("↓ back to the bottom did not follow again")
	}
}

func TestCtrlOExpandsLatestCard(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	startTurn(m)
	call := &agent.Call{ID: "r", Name: "read_file", Args: json.RawMessage(`{"path":"a.go"}`)}
	events(m, agent.Event{Kind: agent.EventToolCallStarted, Call: call},
		agent.Event{Kind: agent.EventToolCallReady, Call: call},
		agent.Event{Kind: agent.EventToolRunning, Call: call},
		agent.Event{Kind: agent.EventToolFinished, Call: call, Result: &agent.ToolResult{Status: tools.StatusOK, Output: "package a\n\nfunc A() {}", Summary: "3 lines", Duration: 20 * time.Millisecond}})
	if strings.Contains(screen(m), "func A") {
		t.Fatal("card body shown while collapsed")
	}
	press(m, keyCtrlO)
	if !strings.Contains(screen(m), "func A") {
		t.Fatalf("ctrl+o did not expand:\n%s", screen(m))
	}
	press(m, keyCtrlO)
	if strings.Contains(screen(m), "func A") {
		t.Fatal("second ctrl+o did not collapse")
	}
}

func TestSanitizesModelAndToolText(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	startTurn(m)
	events(m, agent.Event{Kind: agent.EventTextDelta, Text: "safe\x1b]0;pwned\x07 text\x1b[2J\n"})
	call := &agent.Call{ID: "s", Name: "run_shell", Args: json.RawMessage(`{"command":"echo \u001b[31mhi"}`)}
	events(m, agent.Event{Kind: agent.EventToolCallStarted, Call: call},
		agent.Event{Kind: agent.EventToolCallReady, Call: call},
		agent.Event{Kind: agent.EventToolRunning, Call: call},
		agent.Event{Kind: agent.EventToolOutput, Call: call, Text: "out\x1b]52;c;ZXZpbA==\x07put\n"})
	frame(m)
	v := m.View().Content
	for _, bad := range []string{"\x1b]", "\x1b[2J", "pwned", "ZXZpbA"} {
		if strings.Contains(v, bad) {
			t.Errorf("screen contains %q", bad)
		}
	}
	if s := screen(m); !strings.Contains(s, "safe text") || !strings.Contains(s, "output") {
		t.Errorf("cleaned text missing:\n%s", s)
	}
}

func TestDialogIgnoresKeysTypedAsItAppears(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	now := fixedClock
	m.clock = func() time.Time { return now }
	m.keyGuard = 400 * time.Millisecond
	startTurn(m)
	call, req := editRequest("c1")
	events(m, agent.Event{Kind: agent.EventApprovalRequested, Call: call, Approval: req})
	now = now.Add(100 * time.Millisecond)
	typeText(m, "any")
	press(m, keyEnter)
	if d, ok := decision(req); ok {
		t.Fatalf("keys typed 100 ms after the dialog appeared answered it: %+v", d)
	}
	now = now.Add(time.Second)
	press(m, keyRuneN)
	if d, ok := decision(req); !ok || d.Kind != agent.Deny {
		t.Fatalf("n after the guard: %+v %v", d, ok)
	}
}
