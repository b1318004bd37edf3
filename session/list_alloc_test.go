package session_test

import (
	"testing"

	"github.com/ternhq/tern/internal/gen"
	"github.com/ternhq/tern/session"
)

// TestListAllocsBounded guards what /resume and tern sessions cost per
// recorded session once the index is in place: a stat by name and the
// entry's share of the index, about five allocations a session (measured
// 5.3; gob decoding took 6.3, reading every log dozens). Counts, not
// times: a loaded machine does not move them. Not parallel: AllocsPerRun
// counts the whole process's allocations.
func TestListAllocsBounded(t *testing.T) {
	const n, perSession = 200, 8
	home := t.TempDir()
	if err := gen.Sessions(home, "/ws", n, 1); err != nil {
		t.Fatal(err)
	}
	if infos, err := session.List(home); err != nil || len(infos) != n { // builds the index
		t.Fatalf("List: %d sessions, %v; want %d", len(infos), err, n)
	}
	allocs := testing.AllocsPerRun(3, func() {
		if _, err := session.List(home); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > n*perSession {
		t.Errorf("List of %d indexed sessions made %.0f allocations, want ≤ %d (%d a session)", n, allocs, n*perSession, perSession)
	}
	t.Logf("List of %d indexed sessions: %.0f allocations (%.1f a session)", n, allocs, allocs/n)
}
