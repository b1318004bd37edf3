package main

import (
	"strings"
	"testing"
)

// TestE2EUnknownSessionErrorComesAlone continues a session id that matches
// none, offline: the error is all tern says, without the offline notice
// that does not matter once nothing will run.
func TestE2EUnknownSessionErrorComesAlone(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		env  map[string]string
		args []string
	}{
		{"interface, no key", nil, []string{"-r", "zzz"}},
		{"interface, --mock", nil, []string{"--mock", "-r", "zzz"}},
		{"interface, MOCK=1", map[string]string{"MOCK": "1"}, []string{"--resume", "zzz"}},
		{"tern run", nil, []string{"run", "--session", "zzz", "hi"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := tern(t, t.TempDir(), tt.env, "", tt.args...)
			if r.code != exitUsage {
				t.Errorf("exit %d, want %d", r.code, exitUsage)
			}
			lines := strings.Split(strings.TrimRight(r.stderr, "\n"), "\n")
			if len(lines) != 1 || !strings.Contains(lines[0], `no session id starts with "zzz"`) {
				t.Errorf("stderr is not the error alone:\n%s", r.stderr)
			}
		})
	}
}
