package tui

import (
	"errors"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/app"
)

// previewReplay is the end of resumedReplay without its token totals, as
// app.Located.Preview gives it.
func previewReplay() []agent.Event {
	return slices.DeleteFunc(resumedReplay(), func(ev agent.Event) bool { return ev.Kind == agent.EventUsage })
}

func TestContinueShowsThePreviewThenTheSession(t *testing.T) {
	t.Parallel()
	fs := &fakeSessions{sw: &app.Switch{ID: "aaaa1111", Replay: slices.Values(resumedReplay()), Summary: "resumed session aaaa1111: 2 messages"}}
	m, fb := newTestModel(t, Options{Replay: slices.Values(previewReplay()), Continue: "aaaa1111"}, withSessions(fs))
	if s := screen(m); !strings.Contains(s, "sorted the keys") {
		t.Fatalf("the first frame lacks the preview:\n%s", s)
	}
	open := m.startContinue() // as Init does
	if open == nil || !m.continuing || !m.busy {
		t.Fatalf("not opening the session: continuing %v, busy %v", m.continuing, m.busy)
	}
	// What is typed meanwhile waits, and says so.
	typeS(m, "and the other test")
	pressS(m, keyEnter)
	typeS(m, "/cost")
	pressS(m, keyEnter)
	if len(fb.sent()) != 0 || !slices.Equal(m.queued, []string{"and the other test", "/cost"}) {
		t.Fatalf("sent %v, queued %v while the session is read", fb.sent(), m.queued)
	}
	if s := screen(m); !strings.Contains(s, "queued: and the other test") {
		t.Errorf("the waiting prompt is not shown:\n%s", s)
	}
	stepS(m, open())
	if got := fs.called(); !slices.Equal(got, []string{"open aaaa1111 fork=false"}) {
		t.Fatalf("calls %v", got)
	}
	if m.continuing || m.continueErr != nil {
		t.Fatalf("continuing %v, error %v after the session opened", m.continuing, m.continueErr)
	}
	// The whole transcript and the session's totals replace the preview;
	// the prompt goes out, the command after it.
	if m.usage.PromptTokens != 2100 || m.lastIn != 1260 {
		t.Errorf("usage %+v, last %d: want the session's totals", m.usage, m.lastIn)
	}
	if got := fb.sent(); !slices.Equal(got, []string{"and the other test"}) || !slices.Equal(m.queued, []string{"/cost"}) {
		t.Errorf("sent %v, still queued %v", got, m.queued)
	}
	if s := screen(m); strings.Count(s, "sorted the keys") != 1 {
		t.Errorf("the preview was not replaced:\n%s", s)
	}
}

func TestContinueFailureEndsTheInterface(t *testing.T) {
	t.Parallel()
	fs := &fakeSessions{} // opens nothing
	m, _ := newTestModel(t, Options{Replay: slices.Values(previewReplay()), Continue: "aaaa1111"}, withSessions(fs))
	open := m.startContinue()
	_, cmd := m.Update(open())
	var ce *ContinueError
	if !errors.As(m.continueErr, &ce) || !strings.Contains(m.continueErr.Error(), "aaaa1111") {
		t.Fatalf("error %v", m.continueErr)
	}
	if cmd == nil {
		t.Fatal("the interface goes on after the session could not be opened")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("the interface does not quit")
	}
}

func TestContinueQuitsOnTwoCtrlC(t *testing.T) {
	t.Parallel()
	fs := &fakeSessions{sw: &app.Switch{ID: "aaaa1111", Replay: slices.Values(resumedReplay())}}
	m, fb := newTestModel(t, Options{Replay: slices.Values(previewReplay()), Continue: "aaaa1111"}, withSessions(fs))
	_ = m.startContinue()
	_, cmd := m.Update(keyCtrlC)
	if cmd != nil || m.quitting || fb.cancelCount() != 0 {
		t.Fatalf("the first ctrl+c while the session is read: quitting %v, cancels %d", m.quitting, fb.cancelCount())
	}
	_, cmd = m.Update(keyCtrlC)
	if cmd == nil || !m.quitting {
		t.Fatal("a second ctrl+c while the session is read does not quit")
	}
}
