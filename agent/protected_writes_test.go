package agent

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ternhq/tern/tools"
)

// TestApprovedAlwaysAskLiftsReadOnly checks that run_shell is told to leave
// the protected paths writable only for a command a person approved after
// being warned that it asks under every policy; a command a policy or rule
// let through, or an ordinary approved one, keeps them read-only.
func TestApprovedAlwaysAskLiftsReadOnly(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, command string
		policy        Policy
		decide        Decision
		want          bool
	}{
		{"approved protected write", "echo x >> .git/config", PolicyAsk, Decision{Kind: AllowOnce}, true},
		{"approved for the session", "echo x >> .git/config", PolicyAsk, Decision{Kind: AllowSession}, true},
		{"ordinary approved command", "echo x >> notes.txt", PolicyAsk, Decision{Kind: AllowOnce}, false},
		{"full-auto ordinary command", "echo x >> notes.txt", PolicyFullAuto, Decision{Kind: Deny}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, _, shell := fakeTools()
			var allowed, ran bool
			shell.run = func(ctx context.Context, _ json.RawMessage, _ func(string)) tools.Result {
				ran, allowed = true, tools.ProtectedWritesAllowed(ctx)
				return tools.Result{Status: tools.StatusOK, Output: "ok"}
			}
			args, _ := json.Marshal(map[string]string{"command": tc.command})
			h := newHarness(t, tools.NewRegistry(shell), func(o *Options) { o.Policy = tc.policy },
				calls("run_shell", string(args)), answer("done"))
			h.turn("go", reply(tc.decide))
			if !ran {
				t.Fatal("the command did not run")
			}
			if allowed != tc.want {
				t.Errorf("protected writes allowed = %v, want %v", allowed, tc.want)
			}
		})
	}
}
