package headless

import (
	"strings"
	"testing"

	"github.com/ternhq/tern/agent"
)

func TestSummaryMarksListPrices(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		session  Session
		want     string
		wantList bool
	}{
		{"list prices", Session{Priced: true, ListPrices: true}, "$0.0012", true},
		{"configured prices", Session{Priced: true}, "$0.0012", false},
		{"no prices", Session{}, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := &runner{opts: Options{Session: tc.session}, proj: NewProjector(tc.session)}
			line := r.summary(&agent.Finish{Requests: 1, Cost: 0.0012})
			if tc.want != "" && !strings.Contains(line, tc.want) || tc.want == "" && strings.Contains(line, "$") {
				t.Errorf("summary %q, want %q", line, tc.want)
			}
			if got := strings.Contains(line, "at list prices"); got != tc.wantList {
				t.Errorf("summary %q: list prices marked %v, want %v", line, got, tc.wantList)
			}
		})
	}
}
