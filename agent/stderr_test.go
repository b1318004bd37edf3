package agent

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ternhq/tern/tools"
)

// TestShellStderrIsMarked runs the real run_shell: the live output of each
// stream arrives marked as such, and both are redacted.
func TestShellStderrIsMarked(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, command  string
		stdout, stderr string
	}{
		{"both", `echo built; sleep 0.2; echo "AUTHORIZATION: basic abc" >&2`, "built\n", "AUTHORIZATION: basic [REDACTED credential]\n"},
		{"stdout only", "echo a; echo b", "a\nb\n", ""},
		{"stderr only, no newline", "printf 'warning' >&2", "", "warning"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ws, err := tools.NewWorkspace(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			raw, err := json.Marshal(map[string]string{"command": tt.command})
			if err != nil {
				t.Fatal(err)
			}
			args := string(raw)
			h := newHarness(t, tools.DefaultRegistry(ws, nil), func(o *Options) { o.Workspace = ws },
				calls("run_shell", args), answer("done"))
			evs := h.turn("run it", reply(Decision{Kind: AllowOnce}))
			if f := finishOf(t, evs); f.Err != nil {
				t.Fatalf("turn failed: %v", f.Err)
			}
			var out, errs strings.Builder
			for _, ev := range eventsOf(evs, EventToolOutput) {
				if ev.Stderr {
					errs.WriteString(ev.Text)
				} else {
					out.WriteString(ev.Text)
				}
			}
			if out.String() != tt.stdout || errs.String() != tt.stderr {
				t.Errorf("stdout %q, stderr %q; want %q, %q", out.String(), errs.String(), tt.stdout, tt.stderr)
			}
		})
	}
}
