package tui

import (
	"errors"
	"strings"
	"testing"
)

// TestModelIsRemembered checks that /model <id> switches the model and
// hands it to Options.RememberModel, and says so truthfully.
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
			opts := Options{}
			if tt.remember {
				opts.RememberModel = func(id string) error { got = append(got, id); return tt.fail }
			}
			m, fb := newTestModel(t, opts)
			if cmd := m.runCommand("/model big"); cmd != nil {
				step(m, cmd())
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
