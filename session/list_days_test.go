package session_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ternhq/tern/internal/gen"
	"github.com/ternhq/tern/session"
)

// TestListAcrossDays lists logs over five day folders and checks the list
// is the one the logs make: complete, in order, the same from the index,
// and without a log removed since.
func TestListAcrossDays(t *testing.T) {
	t.Parallel()
	const n = 400 // 17 minutes apart: five days
	home := t.TempDir()
	if err := gen.Sessions(home, "/ws", n, 1); err != nil {
		t.Fatal(err)
	}
	first, err := session.List(home) // reads every log, writes the index
	if err != nil || len(first) != n {
		t.Fatalf("List: %d sessions, %v; want %d", len(first), err, n)
	}
	second, err := session.List(home) // from the index
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(first, second) {
		t.Fatal("the list from the index differs from the logs'")
	}
	if indexed := session.ListIndexed(home); !reflect.DeepEqual(indexed, second) {
		t.Fatalf("ListIndexed gave %d sessions, not List's %d in its order", len(indexed), len(second))
	}
	if got := session.ListIndexed(t.TempDir()); len(got) != 0 {
		t.Fatalf("ListIndexed without an index: %d sessions", len(got))
	}
	for i := 1; i < len(second); i++ {
		if second[i].Updated.After(second[i-1].Updated) {
			t.Fatalf("row %d used after row %d", i, i-1)
		}
	}
	if err := os.Remove(second[n/2].Path); err != nil {
		t.Fatal(err)
	}
	third, err := session.List(home)
	if err != nil {
		t.Fatal(err)
	}
	if len(third) != n-1 {
		t.Fatalf("after removing a log: %d sessions, want %d", len(third), n-1)
	}
	for _, in := range third {
		if in.Path == second[n/2].Path {
			t.Fatalf("the removed log %s is still listed", filepath.Base(in.Path))
		}
	}
}
