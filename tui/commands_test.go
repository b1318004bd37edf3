package tui

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/agent"
)

func TestSlashPaletteFiltersAndCompletes(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	typeText(m, "/")
	if m.pal == nil || m.pal.kind != palCommands || len(m.pal.shown) != len(commandTable()) {
		t.Fatalf("palette after /: %+v", m.pal)
	}
	typeText(m, "mo")
	if it, ok := m.pal.selected(); !ok || it.value != "model" {
		t.Fatalf("best match for /mo: %+v", m.pal.shown)
	}
	if !strings.Contains(screen(m), "switch the model") {
		t.Errorf("palette not drawn:\n%s", screen(m))
	}
	press(m, keyTab)
	if v := m.input.Value(); v != "/model " {
		t.Fatalf("tab completed to %q", v)
	}
	if m.pal != nil {
		t.Error("palette still open after completing")
	}
}

func TestSlashEnterRunsHighlighted(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	typeText(m, "/mou")
	press(m, keyEnter)
	if !m.mouse {
		t.Fatal("/mou + enter did not run /mouse")
	}
	if m.View().MouseMode != tea.MouseModeCellMotion {
		t.Error("mouse capture not turned on in the view")
	}
	typeText(m, "/mouse")
	press(m, keyEnter)
	if m.mouse || m.View().MouseMode != tea.MouseModeNone {
		t.Error("second /mouse did not turn capture off")
	}
}

func TestUnknownCommandKeepsDraft(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line, notice string
	}{
		{"/modle gpt", "unknown command /modle — did you mean /model?"},
		{"/fooo some long text, with a second clause", "unknown command /fooo"},
		{"/cleer\nand a second line", "did you mean /clear?"},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			m, fb := newTestModel(t, Options{Home: home})
			line := tt.line
			m.input.SetValue(line)
			_, cmd := m.Update(keyEnter)
			collectWait(cmd, 5*time.Second) // the history file is written
			if !strings.Contains(m.notice, tt.notice) || !m.noticeBad {
				t.Errorf("notice %q, want it to hold %q", m.notice, tt.notice)
			}
			if m.input.Value() != line {
				t.Errorf("input %q, want the draft %q kept", m.input.Value(), line)
			}
			if len(fb.sent()) != 0 {
				t.Error("an unknown command was sent to the model")
			}
			if !strings.Contains(screen(m), "did you mean") && !strings.Contains(screen(m), "/help lists") {
				t.Errorf("notice not shown:\n%s", screen(m))
			}
			got, err := readHistory(historyPath(home), "/work/project")
			if err != nil || len(got) != 1 || got[0] != line {
				t.Errorf("history file %q (%v), want the line", got, err)
			}
			m.input.Reset()
			press(m, keyUp)
			if m.input.Value() != line {
				t.Errorf("↑ recalled %q", m.input.Value())
			}
		})
	}
}

func TestKnownCommandClearsInput(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	m.input.SetValue("/mouse")
	press(m, keyEnter)
	if m.input.Value() != "" || !m.mouse {
		t.Fatalf("input %q mouse %v", m.input.Value(), m.mouse)
	}
}

func TestSuggest(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	for in, want := range map[string]string{"hlep": "help", "clera": "clear", "cpy": "copy", "zzzzzz": ""} {
		if got := m.suggest(in); got != want {
			t.Errorf("suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestHelpListsCommandsAndKeys(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	step(m, tea.WindowSizeMsg{Width: 120, Height: 60})
	typeText(m, "/help")
	press(m, keyEnter)
	s := screen(m)
	for _, want := range []string{"/clear", "/approval [mode]", "esc", "ctrl+o", "select text with the mouse", "shift+drag"} {
		if !strings.Contains(s, want) {
			t.Errorf("/help lacks %q", want)
		}
	}
}

func TestClearResets(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	typeText(m, "hello")
	press(m, keyEnter)
	events(m, agent.Event{Kind: agent.EventTurnStarted}, agent.Event{Kind: agent.EventTextDelta, Text: "answer"})
	typeText(m, "/clear")
	press(m, keyEnter)
	if fb.resets != 0 || !strings.Contains(m.notice, "esc first") {
		t.Fatalf("/clear while busy: resets %d notice %q", fb.resets, m.notice)
	}
	events(m, agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
	typeText(m, "/clear")
	press(m, keyEnter)
	if fb.resets != 1 {
		t.Fatal("Reset not called")
	}
	if s := screen(m); strings.Contains(s, "hello") || strings.Contains(s, "answer") {
		t.Fatalf("transcript not cleared:\n%s", s)
	}
}

func TestModelCommand(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	typeText(m, "/model other-model")
	press(m, keyEnter)
	if fb.Model() != "other-model" {
		t.Fatalf("model %q", fb.Model())
	}
	if !strings.Contains(screen(m), "other-model") {
		t.Error("status line does not show the new model")
	}
}

func TestModelPicker(t *testing.T) {
	t.Parallel()
	list := func(context.Context) ([]string, error) { return []string{"alpha-1", "beta-2", "gamma-3"}, nil }
	m, fb := newTestModel(t, Options{}, func(f *fakeBackend) { f.models = list })
	typeText(m, "/model")
	press(m, keyEnter)
	if m.pal == nil || m.pal.kind != palModels {
		t.Fatalf("no model picker (notice %q)", m.notice)
	}
	typeText(m, "gam")
	press(m, keyEnter)
	if fb.Model() != "gamma-3" {
		t.Fatalf("picked %q", fb.Model())
	}
	if m.input.Value() != "" || m.pal != nil {
		t.Error("picker left state behind")
	}
}

func TestModelPickerError(t *testing.T) {
	t.Parallel()
	list := func(context.Context) ([]string, error) { return nil, errors.New("404") }
	m, _ := newTestModel(t, Options{}, func(f *fakeBackend) { f.models = list })
	typeText(m, "/model")
	press(m, keyEnter)
	if m.pal != nil || !strings.Contains(m.notice, "/model <id>") {
		t.Fatalf("notice %q", m.notice)
	}
}

func TestApprovalCommand(t *testing.T) {
	t.Parallel()
	m, fb := newTestModel(t, Options{})
	typeText(m, "/approval auto-edit")
	press(m, keyEnter)
	if fb.Policy() != agent.PolicyAutoEdit {
		t.Fatalf("policy %v", fb.Policy())
	}
	typeText(m, "/approval yolo")
	press(m, keyEnter)
	if !m.noticeBad || fb.Policy() != agent.PolicyAutoEdit {
		t.Fatalf("bad mode accepted: %q", m.notice)
	}
	typeText(m, "/approval")
	press(m, keyEnter)
	if m.pal == nil || m.pal.kind != palPolicies {
		t.Fatal("no policy picker")
	}
	press(m, keyDown)
	press(m, keyEnter)
	if fb.Policy() != agent.PolicyFullAuto {
		t.Fatalf("picker chose %v", fb.Policy())
	}
}

// TestCopyLastAnswer checks what /copy hands the clipboard outside tmux:
// nothing before there is an answer, then the last answer's Markdown, both
// to the terminal (OSC 52) and to a local clipboard program.
func TestCopyLastAnswer(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	clip := &fakeClipboard{}
	m.clip = clip.clipboard()
	typeText(m, "/copy")
	stepWait(m, keyEnter, time.Second)
	if !m.noticeBad {
		t.Fatalf("copy with no answer: %q", m.notice)
	}
	if osc52, tmux, tool := clip.got(); len(osc52)+len(tmux)+len(tool) > 0 {
		t.Fatalf("copy with no answer handed the clipboard %q, %q, %q", osc52, tmux, tool)
	}
	events(m, agent.Event{Kind: agent.EventTurnStarted}, agent.Event{Kind: agent.EventTextDelta, Text: "the **answer**\n"},
		agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
	typeText(m, "/copy")
	stepWait(m, keyEnter, time.Second)
	if m.noticeBad || !strings.Contains(m.notice, "via OSC 52") {
		t.Fatalf("notice %q", m.notice)
	}
	want := []string{"the **answer**\n"}
	osc52, tmux, tool := clip.got()
	if !slices.Equal(osc52, want) || !slices.Equal(tool, want) || len(tmux) > 0 {
		t.Errorf("copied %q through OSC 52, %q through a clipboard program, %q through tmux; want %q through the first two", osc52, tool, tmux, want)
	}
}

func TestExitCommands(t *testing.T) {
	t.Parallel()
	for _, c := range []string{"/exit", "/quit"} {
		m, _ := newTestModel(t, Options{})
		typeText(m, c)
		_, cmd := m.Update(keyEnter)
		if !m.quitting || !isQuit(cmd) {
			t.Errorf("%s did not quit", c)
		}
	}
}
