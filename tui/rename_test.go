package tui

import (
	"errors"
	"strings"
	"testing"
)

func TestRenameCommand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		rename bool
		fail   error
		line   string
		got    string // what Rename received
		notice string
		bad    bool
	}{
		{name: "renames", rename: true, line: "/rename  fix the loader ", got: "fix the loader", notice: "session renamed “fix the loader”"},
		{name: "needs a title", rename: true, line: "/rename", notice: "give the new title", bad: true},
		{name: "not recorded", line: "/rename x", notice: "not recorded", bad: true},
		{name: "failure shown", rename: true, fail: errors.New("disk full"), line: "/rename x", got: "x", notice: "rename: disk full", bad: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got string
			m, _ := newTestModel(t, Options{}, func(f *fakeBackend) {
				if tt.rename {
					f.recorded = true
					f.rename = func(title string) (string, error) { got = title; return title, tt.fail }
				}
			})
			m.runCommand(tt.line)
			if got != tt.got || !strings.Contains(m.notice, tt.notice) || m.noticeBad != tt.bad {
				t.Fatalf("Rename got %q, notice %q (bad %v); want %q, %q", got, m.notice, m.noticeBad, tt.got, tt.notice)
			}
		})
	}
}
