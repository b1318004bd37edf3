package tui

import (
	"context"
	"strings"
	"testing"
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
	m, _ := newTestModel(t, Options{Models: list})
	typeText(m, "/model")
	press(m, keyEnter)
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
