package session_test

import (
	"testing"
	"time"

	"github.com/ternhq/tern/internal/gen"
	"github.com/ternhq/tern/session"
)

// TestListAllocsBounded guards what /resume and tern sessions cost per
// recorded session once the index is in place and its folders unchanged:
// a stat per day folder and the index decoded in a handful of
// allocations, nothing per session (a stat and a share of the index per
// session cost about five allocations a session before folders were
// stamped; reading every log, dozens). Counts, not times: a loaded machine
// does not move them. Not parallel: AllocsPerRun counts the whole
// process's allocations.
func TestListAllocsBounded(t *testing.T) {
	// An hour on, every folder's stamp is old enough to be trusted.
	for _, n := range []int{200, 800} {
		home := t.TempDir()
		if err := gen.Sessions(home, "/ws", n, 1); err != nil {
			t.Fatal(err)
		}
		if infos, err := session.ListAt(home, time.Now().Add(time.Hour)); err != nil || len(infos) != n { // builds the index
			t.Fatalf("List: %d sessions, %v; want %d", len(infos), err, n)
		}
		folders := session.FolderCount(home)
		allocs := testing.AllocsPerRun(3, func() {
			if _, err := session.ListAt(home, time.Now().Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
		})
		if limit := 60 + 10*folders; allocs > float64(limit) {
			t.Errorf("List of %d indexed sessions in %d folders made %.0f allocations, want ≤ %d (nothing per session)", n, folders, allocs, limit)
		}
		t.Logf("List of %d indexed sessions in %d folders: %.0f allocations", n, folders, allocs)
	}
}
