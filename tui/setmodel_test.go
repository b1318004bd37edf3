package tui

import (
	"errors"
	"strings"
	"testing"
)

// TestModelIsRemembered checks that /model <id> switches the model and
// hands it to the session's RememberModel, and says so truthfully.
func TestModelIsRemembered(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		remember bool
		fail     error
		notice   string
		bad      bool
	}{
		{name: "remembered", remember: true, notice: "and for new sessions"},
		{name: "no store", notice: "model: big (from the next request)"},
		{name: "store fails", remember: true, fail: errors.New("disk full"), notice: "not remembered for new ones: disk full", bad: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			m, fb := newTestModel(t, Options{}, func(f *fakeBackend) {
				if tt.remember {
					f.rememberModel = func(id string) error { got = append(got, id); return tt.fail }
				}
			})
			for _, msg := range collect(m.runCommand("/model big")) {
				step(m, msg)
			}
			if fb.Model() != "big" {
				t.Fatalf("model %q", fb.Model())
			}
			if tt.remember && (len(got) != 1 || got[0] != "big") {
				t.Fatalf("remembered %q", got)
			}
			if !strings.Contains(m.notice, tt.notice) || m.noticeBad != tt.bad {
				t.Fatalf("notice %q (bad %v), want %q", m.notice, m.noticeBad, tt.notice)
			}
		})
	}
}
