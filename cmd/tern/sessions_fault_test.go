package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ternhq/tern/internal/gen"
	"github.com/ternhq/tern/session"
)

// TestListMappedFaultIsAnError checks that an index cut in place while
// `tern sessions` has it mapped makes the command fail with a message, not
// crash: reading the list's strings then faults.
func TestListMappedFaultIsAnError(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	if err := gen.Sessions(home, "/ws", 300, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := session.List(home); err != nil { // writes the index
		t.Fatal(err)
	}
	index := ""
	entries, err := os.ReadDir(session.Dir(home))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "index-") {
			index = filepath.Join(session.Dir(home), e.Name())
		}
	}
	if index == "" {
		t.Fatal("no index written")
	}
	touched := 0
	code, err := listMapped(home, func(infos []session.Info) int {
		if len(infos) != 300 {
			t.Errorf("listed %d sessions, want 300", len(infos))
		}
		if err := os.Truncate(index, 0); err != nil {
			t.Error(err)
		}
		for _, in := range infos {
			for i := range len(in.Title) {
				touched += int(in.Title[i])
			}
		}
		return exitOK
	})
	if err == nil || code != exitFailed || !strings.Contains(err.Error(), "changed while it was read") {
		t.Fatalf("reading a cut index: exit %d, %v (read %d); want a failure saying so", code, err, touched)
	}
	if code, err := listMapped(home, func(infos []session.Info) int { return len(infos) }); err != nil || code != 300 {
		t.Fatalf("the next list: %d sessions, %v; want 300 from the logs", code, err)
	}
}
