package tui

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestModelPickerShowsHostileIDsOnOneLine lists models whose ids, from the
// gateway, hold a carriage return, a newline and a right-to-left override:
// each picker row stays one line (the next row is not pushed around) and
// shows the hidden characters for what they are, since the user picks the
// id by what they see.
func TestModelPickerShowsHostileIDsOnOneLine(t *testing.T) {
	t.Parallel()
	ids := []string{"good-1", "evil\rOVER", "two\nlines", "rtl\u202eevil"}
	list := func(context.Context) ([]string, error) { return ids, nil }
	m, _ := newTestModel(t, Options{}, func(f *fakeBackend) { f.models = list })
	typeText(m, "/model")
	// The list comes from a command: give it more than step's 20 ms, as a
	// loaded machine needs.
	stepWait(m, keyEnter, time.Second)
	if m.pal == nil {
		t.Fatalf("no model picker (notice %q)", m.notice)
	}
	for _, it := range m.pal.items {
		if strings.ContainsAny(it.label, "\r\n\u202e") {
			t.Errorf("picker label %q spans lines or hides a control", it.label)
		}
	}
	s := screen(m)
	for _, bare := range []string{"\nOVER", "\nlines"} {
		if strings.Contains(s, bare) {
			t.Errorf("an id's line break reached the screen (%q):\n%s", bare, s)
		}
	}
}

// TestPickedHostileModelIDNeverReachesTheScreenRaw picks a model whose id,
// from the gateway, holds a clipboard write and a window title: neither
// the notice that confirms the choice nor the status line that shows the
// model writes the sequences to the terminal.
func TestPickedHostileModelIDNeverReachesTheScreenRaw(t *testing.T) {
	t.Parallel()
	id := "evil\x1b]52;c;ZXZpbA==\x07\x1b]0;pwned\x07\u009b2J\u202e"
	list := func(context.Context) ([]string, error) { return []string{"good-1", id}, nil }
	m, fb := newTestModel(t, Options{}, func(f *fakeBackend) { f.models = list })
	typeText(m, "/model")
	stepWait(m, keyEnter, time.Second) // the list comes from a command
	typeText(m, "evil")
	press(m, keyEnter)
	if fb.Model() != id {
		t.Fatalf("picked %q", fb.Model())
	}
	v := m.View().Content
	for _, bad := range []string{"\x1b]", "pwned\x07", "\u009b", "\u202e"} {
		if strings.Contains(v, bad) {
			t.Errorf("the screen holds %q raw:\n%q", bad, v)
		}
	}
}
