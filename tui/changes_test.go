package tui

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

func TestReplayShowsEarlierTurns(t *testing.T) {
	t.Parallel()
	call := &agent.Call{ID: "c1", Name: "read_file", Args: json.RawMessage(`{"path":"go.mod"}`)}
	replay := []agent.Event{
		{Kind: agent.EventTurnStarted, Turn: 1, Text: "what module is this?"},
		{Kind: agent.EventTextDelta, Turn: 1, Text: "Let me look."},
		{Kind: agent.EventToolCallReady, Turn: 1, Call: call},
		{Kind: agent.EventToolFinished, Turn: 1, Call: call, Result: &agent.ToolResult{Status: tools.StatusOK, Output: "module x", Summary: "3 lines"}},
		{Kind: agent.EventUsage, Turn: 1, Usage: provider.Usage{PromptTokens: 100, CompletionTokens: 20}},
		{Kind: agent.EventTurnFinished, Turn: 1, Finish: &agent.Finish{Reason: agent.FinishDone}},
	}
	m, fb := newTestModel(t, Options{Replay: slices.Values(replay)})
	s := screen(m)
	for _, want := range []string{"what module is this?", "Let me look.", "read_file", "go.mod"} {
		if !strings.Contains(s, want) {
			t.Errorf("replayed screen lacks %q:\n%s", want, s)
		}
	}
	if m.busy {
		t.Error("busy after a replay of finished turns")
	}
	if m.usage.PromptTokens != 100 {
		t.Errorf("usage after replay: %+v", m.usage)
	}
	// Live events still arrive after the replay.
	events(m, agent.Event{Kind: agent.EventTurnStarted, Turn: 2, Text: "and now?"})
	if !strings.Contains(screen(m), "and now?") || !m.busy {
		t.Errorf("live turn not shown after the replay:\n%s", screen(m))
	}
	if got := fb.sent(); len(got) != 0 {
		t.Errorf("replay submitted %q", got)
	}
}

func TestExportCommand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, line, wantArg, wantNotice string
		err                             error
		bad                             bool
	}{
		{"default path", "/export", "", "exported to /w/tern-abc.md", nil, false},
		{"given path", "/export notes.md", "notes.md", "exported to notes.md", nil, false},
		{"failure", "/export /ro/x.md", "/ro/x.md", "export: permission denied", errors.New("permission denied"), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got string
			m, _ := newTestModel(t, Options{}, func(f *fakeBackend) {
				f.recorded = true
				f.export = func(path string) (string, error) {
					got = path
					if tt.err != nil {
						return "", tt.err
					}
					if path == "" {
						return "/w/tern-abc.md", nil
					}
					return path, nil
				}
			})
			typeText(m, tt.line)
			press(m, keyEnter)
			if got != tt.wantArg {
				t.Errorf("Export got %q, want %q", got, tt.wantArg)
			}
			if m.notice != tt.wantNotice || m.noticeBad != tt.bad {
				t.Errorf("notice %q (bad %v), want %q (bad %v)", m.notice, m.noticeBad, tt.wantNotice, tt.bad)
			}
		})
	}
}

func TestDiffCommand(t *testing.T) {
	t.Parallel()
	diff := "--- a/main.go\n+++ b/main.go\n@@ -1,2 +1,2 @@\n package main\n-var x = 1\n+var x = 2\n" +
		"--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+hello\n" +
		"Binary file logo.png changed\n"
	m, _ := newTestModel(t, Options{}, func(f *fakeBackend) {
		f.recorded = true
		f.diff = func(context.Context) (string, error) { return diff, nil }
	})
	typeText(m, "/diff")
	press(m, keyEnter)
	s := screen(m)
	for _, want := range []string{"Changes in this session", "main.go", "- var x = 1", "+ var x = 2", "new.txt", "+ hello", "Binary file logo.png changed"} {
		if !strings.Contains(s, want) {
			t.Errorf("/diff screen lacks %q:\n%s", want, s)
		}
	}

	empty, _ := newTestModel(t, Options{}, func(f *fakeBackend) {
		f.recorded = true
		f.diff = func(context.Context) (string, error) { return "", nil }
	})
	typeText(empty, "/diff")
	press(empty, keyEnter)
	if empty.notice != "no files changed in this session" {
		t.Errorf("empty /diff notice %q", empty.notice)
	}

	failing, _ := newTestModel(t, Options{}, func(f *fakeBackend) {
		f.recorded = true
		f.diff = func(context.Context) (string, error) { return "", errors.New("log unreadable") }
	})
	typeText(failing, "/diff")
	press(failing, keyEnter)
	if failing.notice != "diff: log unreadable" || !failing.noticeBad {
		t.Errorf("failing /diff notice %q", failing.notice)
	}
}

func TestSplitFiles(t *testing.T) {
	t.Parallel()
	got := splitFiles("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n--- a/gone\n+++ /dev/null\n@@ -1 +0,0 @@\n-z\n")
	if len(got) != 2 || got[0].path != "x" || got[1].path != "gone" || !strings.HasPrefix(got[0].body, "@@") {
		t.Errorf("splitFiles: %+v", got)
	}
}

func TestUndoCommand(t *testing.T) {
	t.Parallel()
	var forces []bool
	conflict := true
	m, _ := newTestModel(t, Options{}, func(f *fakeBackend) {
		f.recorded = true
		f.undo = func(_ context.Context, force bool) (string, error) {
			forces = append(forces, force)
			if conflict && !force {
				return "", &app.UndoConflicts{Paths: []string{"main.go", "go.mod"}}
			}
			return "undid turn 2: restored main.go", nil
		}
	})
	typeText(m, "/undo")
	press(m, keyEnter)
	if !strings.Contains(m.notice, "main.go, go.mod") || !strings.Contains(m.notice, "/undo force") || !m.noticeBad {
		t.Errorf("conflict notice %q", m.notice)
	}
	if m.busy {
		t.Error("still busy after /undo finished")
	}
	typeText(m, "/undo force")
	press(m, keyEnter)
	if m.notice != "undid turn 2: restored main.go" || m.noticeBad {
		t.Errorf("forced undo notice %q", m.notice)
	}
	if len(forces) != 2 || forces[0] || !forces[1] {
		t.Errorf("Undo calls: %v", forces)
	}

	typeText(m, "/undo please")
	press(m, keyEnter)
	if len(forces) != 2 || !m.noticeBad {
		t.Errorf("/undo with a bad argument ran or said %q", m.notice)
	}

	startTurn(m)
	typeText(m, "/undo")
	press(m, keyEnter)
	if len(forces) != 2 || !strings.Contains(m.notice, "agent is working") {
		t.Errorf("/undo while busy ran or said %q", m.notice)
	}
}

func TestSessionCommandsWithoutLog(t *testing.T) {
	t.Parallel()
	for _, line := range []string{"/export", "/diff", "/undo"} {
		m, _ := newTestModel(t, Options{})
		typeText(m, line)
		press(m, keyEnter)
		if !strings.Contains(m.notice, "not recorded") || !m.noticeBad {
			t.Errorf("%s without a log: notice %q", line, m.notice)
		}
	}
}
