package main

import (
	"os"
	"testing"
)

// TestSessionTempDirIsMadeOnce checks that every run_shell sharing one
// session's options gets the same TMPDIR and that the session's end
// removes it: a second directory would be left behind in /tmp.
func TestSessionTempDirIsMadeOnce(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	var s sessionTempDir
	a, err := s.make()
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.make()
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Fatalf("two directories for one session: %s and %s", a, b)
	}
	s.remove()
	if _, err := os.Stat(a); !os.IsNotExist(err) {
		t.Fatalf("%s after the session's end: %v", a, err)
	}
}
