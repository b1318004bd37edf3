package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/internal/app"
)

// indexedBackend is the fake with a session index: ListIndexed gives the
// rows it holds, which may be out of date.
type indexedBackend struct {
	*fakeBackend
	indexed []app.SessionInfo
}

func (b indexedBackend) ListIndexed(context.Context) ([]app.SessionInfo, error) {
	return b.indexed, nil
}

// TestResumeShowsIndexedRowsFirst opens the picker with the index's rows,
// then puts the checked list in it, keeping the selected session; a picker
// closed before the checked list comes stays closed.
func TestResumeShowsIndexedRowsFirst(t *testing.T) {
	t.Parallel()
	stale := []app.SessionInfo{
		{ID: "gone0000", Updated: day.Add(3 * time.Hour), Title: "a session removed since", Messages: 2, Model: "m"},
		{ID: "aaaa1111", Updated: day.Add(time.Hour), Title: "an older title", Messages: 4, Model: "gpt-big"},
	}
	tests := []struct {
		name    string
		dismiss bool
	}{
		{"refreshed", false},
		{"dismissed first", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fs := &fakeSessions{list: twoSessions()}
			m, fb := newTestModel(t, Options{}, withSessions(fs))
			m.be = indexedBackend{fakeBackend: fb, indexed: stale}
			msg := m.listSessions(false, false)()
			_, then := m.Update(msg)
			if m.pick == nil || then == nil {
				t.Fatalf("the index's rows opened no picker (notice %q)", m.notice)
			}
			if s := screen(m); !strings.Contains(s, "an older title") {
				t.Fatalf("picker lacks the indexed row:\n%s", s)
			}
			pressS(m, keyDown) // aaaa1111
			if tt.dismiss {
				pressS(m, keyEsc)
			}
			m.Update(then())
			if tt.dismiss {
				if m.pick != nil {
					t.Fatal("the checked list reopened a dismissed picker")
				}
				return
			}
			s := screen(m)
			for _, want := range []string{"fix the flaky parser test", "add a --json flag"} {
				if !strings.Contains(s, want) {
					t.Errorf("refreshed picker lacks %q:\n%s", want, s)
				}
			}
			if strings.Contains(s, "removed since") || strings.Contains(s, "an older title") {
				t.Errorf("refreshed picker keeps stale rows:\n%s", s)
			}
			if it, ok := m.pick.selected(); !ok || it.key != "aaaa1111" {
				t.Errorf("selected %q after the refresh, want aaaa1111", it.key)
			}
		})
	}
}
