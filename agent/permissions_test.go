package agent

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ternhq/tern/approval"
	"github.com/ternhq/tern/tools"
)

// TestPermissionsAndRevoke: the agent lists its policy, rules and grants
// with their labels, and a revoked grant no longer covers its commands.
func TestPermissionsAndRevoke(t *testing.T) {
	t.Parallel()
	_, _, shell := fakeTools()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(Options{Provider: &fakeProvider{}, Tools: tools.NewRegistry(shell), Workspace: ws, Policy: PolicyAutoEdit,
		Rules:  Rules{Allow: []string{"run_shell:make *"}, Deny: []string{"run_shell:rm *"}},
		Grants: []string{"run_shell:go test", "edit"}})
	if err != nil {
		t.Fatal(err)
	}
	want := Permissions{Policy: PolicyAutoEdit, Allow: []string{"run_shell:make *"}, Deny: []string{"run_shell:rm *"},
		Grants: []Grant{{Key: "edit", Label: "edits inside this workspace"}, {Key: "run_shell:go test", Label: "commands starting with `go test`"}}}
	if got := a.Permissions(); !reflect.DeepEqual(got, want) {
		t.Fatalf("permissions\n got %+v\nwant %+v", got, want)
	}
	args := json.RawMessage(`{"command":"go test ./..."}`)
	for _, tc := range []struct {
		step    string
		revoke  string
		revoked bool
		want    approval.Verdict
	}{
		{"granted", "", false, approval.Run},
		{"an unknown key", "run_shell:go build", false, approval.Run},
		{"revoked", "run_shell:go test", true, approval.Ask},
		{"revoked twice", "run_shell:go test", false, approval.Ask},
	} {
		if tc.revoke != "" {
			if got := a.Revoke(tc.revoke); got != tc.revoked {
				t.Errorf("%s: Revoke = %v, want %v", tc.step, got, tc.revoked)
			}
		}
		if r := a.judge(shell, "run_shell", args, PolicyAsk); r.Verdict != tc.want {
			t.Errorf("%s: verdict %d, want %d", tc.step, r.Verdict, tc.want)
		}
	}
	if got := a.Permissions().Grants; !reflect.DeepEqual(got, []Grant{{Key: "edit", Label: "edits inside this workspace"}}) {
		t.Errorf("grants after revoking = %+v", got)
	}
}
